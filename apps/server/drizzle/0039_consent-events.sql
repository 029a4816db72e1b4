-- The record of consent changes (modules/consent): what happened, to which customer and address on
-- which channel, from where (source, method), when and from which client address — the proof a
-- business keeps of an opt-in: one a person made (a form, a confirmation link) or one a business
-- claimed with its own proof (an import's rows said they subscribed: `proof` says where and when).
-- A double opt-in is confirmed once per submission and channel.
CREATE TABLE "consent_events" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "customer_id" bigint REFERENCES "customers"("id") ON DELETE SET NULL,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "address" text NOT NULL,
  "status" text NOT NULL
    CHECK ("status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown')),
  "source" text NOT NULL,
  "method" text NOT NULL CHECK ("method" IN ('single_opt_in', 'confirmation_sent', 'double_opt_in', 'imported')),
  "reference" text,
  "ip" text,
  "proof" text,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "consent_events_customer_idx" ON "consent_events" ("business_id", "customer_id", "created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "consent_events_confirmed_key" ON "consent_events" ("business_id", "reference", "channel")
  WHERE "method" = 'double_opt_in';
