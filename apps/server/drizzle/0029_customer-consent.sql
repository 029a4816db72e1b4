-- Consent per channel on customers (engage.md §3), kept in step with the suppression list:
-- a suppressed address marks its customers unsubscribed, bounced or complained.
ALTER TABLE "customers"
  ADD COLUMN "email_status" text NOT NULL DEFAULT 'unknown'
    CHECK ("email_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown')),
  ADD COLUMN "sms_status" text NOT NULL DEFAULT 'unknown'
    CHECK ("sms_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown')),
  ADD COLUMN "whatsapp_status" text NOT NULL DEFAULT 'unknown'
    CHECK ("whatsapp_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown'));
--> statement-breakpoint
UPDATE "customers" c
SET "email_status" = CASE s."reason" WHEN 'manual' THEN 'unsubscribed' ELSE s."reason" END
FROM "suppressions" s
WHERE s."business_id" = c."business_id" AND s."channel" = 'email' AND s."address" = lower(c."email");
--> statement-breakpoint
UPDATE "customers" c
SET "sms_status" = CASE s."reason" WHEN 'manual' THEN 'unsubscribed' ELSE s."reason" END
FROM "suppressions" s
WHERE s."business_id" = c."business_id" AND s."channel" = 'sms' AND s."address" = lower(c."phone");
--> statement-breakpoint
UPDATE "customers" c
SET "whatsapp_status" = CASE s."reason" WHEN 'manual' THEN 'unsubscribed' ELSE s."reason" END
FROM "suppressions" s
WHERE s."business_id" = c."business_id" AND s."channel" = 'whatsapp' AND s."address" = lower(c."phone");
