-- CSV imports say which delimiter they read the file with, and what consent their rows carry:
-- `subscribed` with the business's proof (where and when the people agreed) on the chosen
-- channels, or `unknown`. Each customer an import marks subscribed gets a `consent_events` row
-- (method `imported`) holding that proof (modules/consent), so "why may we mail this person?" has an answer per person.
ALTER TABLE "customer_imports" ADD COLUMN "delimiter" text NOT NULL DEFAULT 'comma'
  CHECK ("delimiter" IN ('comma', 'semicolon', 'tab', 'pipe'));
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent" text NOT NULL DEFAULT 'unknown'
  CHECK ("consent" IN ('unknown', 'subscribed'));
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent_proof" text;
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "consent_channels" jsonb NOT NULL DEFAULT '[]';
