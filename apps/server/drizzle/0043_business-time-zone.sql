-- A business's time zone (an IANA name): the zone of its quiet hours when a customer has none of
-- their own, of the dashboard's days, of the schedules it is offered and of its reports. Asked when
-- a business is created (the browser's zone by default) and editable in settings.
-- Existing businesses take the zone their agents' schedules were set to (the one most used; the
-- latest saved on a tie), else UTC, the zone everything was counted in until now.
ALTER TABLE "businesses" ADD COLUMN "time_zone" text NOT NULL DEFAULT 'UTC';
--> statement-breakpoint
UPDATE "businesses" b SET "time_zone" = z.timezone
FROM (
  SELECT DISTINCT ON (business_id) business_id, timezone
  FROM "agent_schedules"
  GROUP BY business_id, timezone
  ORDER BY business_id, count(*) DESC, max(updated_at) DESC
) z
WHERE z.business_id = b.id;
