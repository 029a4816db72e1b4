-- Billing (engage.md §8): the Chargebee subscription each business holds (status, plan, term and
-- the plan's quotas per channel, read from Chargebee), usage per channel and billing period
-- (reserved when a send is queued, released when it fails before its provider accepted it;
-- accepted counts what providers took: the business's sms_count, email_count and
-- whatsapp_count), top-up credit bought with one-off charges, Chargebee's webhook events kept once
-- each, and whether this deployment enforces billing at all (CHARGEBEE_SITE, written at start).
CREATE TABLE "billing_settings" (
  "id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
  "enabled" boolean NOT NULL DEFAULT false,
  "site" text,
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
INSERT INTO "billing_settings" ("id", "enabled") VALUES (1, false);
--> statement-breakpoint
CREATE TABLE "billing_accounts" (
  "business_id" bigint PRIMARY KEY REFERENCES "businesses"("id") ON DELETE CASCADE,
  "customer_id" text NOT NULL UNIQUE,
  "subscription_id" text,
  "status" text NOT NULL DEFAULT 'inactive'
    CHECK ("status" IN ('inactive', 'in_trial', 'active', 'non_renewing', 'paused', 'cancelled')),
  "plan_item_price_id" text,
  "plan_name" text,
  "quotas" jsonb NOT NULL DEFAULT '{}'::jsonb,
  "current_term_start" timestamptz,
  "current_term_end" timestamptz,
  "resource_version" bigint NOT NULL DEFAULT 0,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "billing_usage" (
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "period_start" timestamptz NOT NULL,
  "reserved" integer NOT NULL DEFAULT 0 CHECK ("reserved" >= 0),
  "accepted" integer NOT NULL DEFAULT 0 CHECK ("accepted" >= 0),
  "extra" integer NOT NULL DEFAULT 0 CHECK ("extra" >= 0),
  PRIMARY KEY ("business_id", "channel", "period_start")
);
--> statement-breakpoint
CREATE TABLE "billing_top_ups" (
  "invoice_id" text PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "item_price_id" text NOT NULL,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "units" integer NOT NULL CHECK ("units" > 0),
  "status" text NOT NULL,
  "credited_at" timestamptz,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "billing_top_ups_business_idx" ON "billing_top_ups" ("business_id", "created_at");
--> statement-breakpoint
CREATE TABLE "billing_webhook_events" (
  "event_id" text PRIMARY KEY,
  "event_type" text NOT NULL,
  "business_id" bigint REFERENCES "businesses"("id") ON DELETE SET NULL,
  "outcome" text NOT NULL,
  "received_at" timestamptz NOT NULL DEFAULT now()
);
