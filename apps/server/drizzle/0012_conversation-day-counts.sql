CREATE TABLE "conversation_day_counts" (
	"business_id" bigint NOT NULL,
	"axis" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"is_read" boolean NOT NULL,
	"business_replied" boolean NOT NULL,
	"channel" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "conversation_day_counts_business_id_axis_day_status_is_read_business_replied_channel_pk" PRIMARY KEY("business_id","axis","day","status","is_read","business_replied","channel")
);
--> statement-breakpoint
-- Keeps conversation_day_counts exact: per UTC day of created_at (axis 'c') and of
-- last_message_at (axis 'l'). Like conversation_counts, a moved row touches its two bucket rows
-- in key order (and axis 'c' before 'l'), so concurrent moves cannot deadlock.
CREATE OR REPLACE FUNCTION titan_bump_conversation_day(b bigint, a text, d date, s text, r boolean, br boolean, c text, delta integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO conversation_day_counts AS cc (business_id, axis, day, status, is_read, business_replied, channel, n)
  VALUES (b, a, d, s, r, br, c, delta)
  ON CONFLICT (business_id, axis, day, status, is_read, business_replied, channel)
  DO UPDATE SET n = cc.n + excluded.n;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION titan_count_conversation_days() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ax text;
  old_day date;
  new_day date;
  old_key text;
  new_key text;
BEGIN
  FOREACH ax IN ARRAY ARRAY['c', 'l'] LOOP
    old_day := NULL;
    new_day := NULL;
    IF TG_OP <> 'INSERT' THEN
      old_day := ((CASE ax WHEN 'c' THEN OLD.created_at ELSE OLD.last_message_at END) AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      new_day := ((CASE ax WHEN 'c' THEN NEW.created_at ELSE NEW.last_message_at END) AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP = 'UPDATE' THEN
      old_key := concat_ws('|', OLD.business_id, old_day, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel);
      new_key := concat_ws('|', NEW.business_id, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel);
      CONTINUE WHEN old_day IS NOT DISTINCT FROM new_day AND old_key = new_key;
    END IF;
    IF new_day IS NOT NULL AND (old_day IS NULL OR new_key < old_key) THEN
      PERFORM titan_bump_conversation_day(NEW.business_id, ax, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
      new_day := NULL;
    END IF;
    IF old_day IS NOT NULL THEN
      PERFORM titan_bump_conversation_day(OLD.business_id, ax, old_day, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel, -1);
    END IF;
    IF new_day IS NOT NULL THEN
      PERFORM titan_bump_conversation_day(NEW.business_id, ax, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER conversations_count_days AFTER INSERT OR UPDATE OR DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION titan_count_conversation_days();
--> statement-breakpoint
-- Rebuilds one business's counts, both kinds, from the rows (after bulk loads that bypass triggers).
CREATE OR REPLACE FUNCTION titan_rebuild_conversation_counts(b bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM conversation_counts WHERE business_id = b;
  INSERT INTO conversation_counts (business_id, status, is_read, business_replied, channel, n)
  SELECT business_id, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b
  GROUP BY business_id, status, is_read, business_replied, channel;
  DELETE FROM conversation_day_counts WHERE business_id = b;
  INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
  SELECT business_id, 'c', (created_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
  SELECT business_id, 'l', (last_message_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b AND last_message_at IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;
--> statement-breakpoint
INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
SELECT business_id, 'c', (created_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
FROM conversations GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
SELECT business_id, 'l', (last_message_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
FROM conversations WHERE last_message_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
-- The list with a created_at range, ordered by last message: one walk per month of created_at,
-- each reading only the top of its month in last-message order (index-only, the filter columns
-- included), merged. Without it the planner walks the last-message index discarding rows of the
-- wrong age, or sorts the whole range. Not in the drizzle schema: drizzle cannot express INCLUDE.
CREATE INDEX "conversations_created_month_idx" ON "conversations" USING btree (
  "business_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC'), "last_message_at" DESC NULLS LAST, "id" DESC
) INCLUDE ("created_at", "status", "is_read", "business_replied", "channel");
