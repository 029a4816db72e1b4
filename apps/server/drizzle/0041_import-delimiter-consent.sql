-- CSV imports say which delimiter they read the file with, and what consent their rows carry:
-- `subscribed` with the business's proof (where and when the people agreed) on the chosen
-- channels, or `unknown`. Each customer an import marks subscribed gets a consent record holding
-- that proof (modules/consent), so "why may we mail this person?" has an answer per person.
ALTER TABLE "customer_imports" ADD COLUMN "delimiter" text NOT NULL DEFAULT 'comma'
  CHECK ("delimiter" IN ('comma', 'semicolon', 'tab', 'pipe'));
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent" text NOT NULL DEFAULT 'unknown'
  CHECK ("consent" IN ('unknown', 'subscribed'));
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent_proof" text;
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent_channels" jsonb NOT NULL DEFAULT '[]';
--> statement-breakpoint
CREATE TABLE "consent_records" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE CASCADE,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "status" text NOT NULL,
  "source" text NOT NULL CHECK ("source" IN ('import')),
  "proof" text NOT NULL,
  "import_id" uuid REFERENCES "customer_imports"("id") ON DELETE SET NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "consent_records_customer_idx" ON "consent_records" ("business_id", "customer_id", "created_at");
