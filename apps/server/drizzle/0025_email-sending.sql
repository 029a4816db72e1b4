-- Email sending (issue 14): the suppression list every send checks (per business and channel, one
-- row per address, with the reason), and bulk batches whose progress is read from their sends.
CREATE TABLE "suppressions" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "channel" text NOT NULL,
  "address" text NOT NULL,
  "reason" text NOT NULL,
  "send_id" uuid,
  "detail" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "suppressions_reason_check" CHECK ("reason" in ('unsubscribed', 'bounced', 'complained', 'manual')),
  CONSTRAINT "suppressions_address_lower_check" CHECK ("address" = lower("address"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_address_key" ON "suppressions" ("business_id", "channel", "address");
--> statement-breakpoint
CREATE TABLE "email_batches" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "total" integer NOT NULL,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "email_batches_business_idx" ON "email_batches" ("business_id", "created_at");
--> statement-breakpoint
CREATE INDEX "sends_cause_idx" ON "sends" ("business_id", "cause_id") WHERE "cause_id" IS NOT NULL;
