-- The SMS channel (engage.md §4): a Twilio account per business (Auth Token and API key secret
-- sealed with APP_SECRET), the texts customers send in, and Twilio's status callbacks kept once
-- per (business, message SID, Twilio status) however often Twilio retries them.
CREATE TABLE "sms_accounts" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "account_sid" text NOT NULL,
  "auth_token_sealed" text NOT NULL,
  "api_key_sid" text,
  "api_key_secret_sealed" text,
  "from_number" text,
  "messaging_service_sid" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sms_accounts_sender_check" CHECK ("from_number" IS NOT NULL OR "messaging_service_sid" IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sms_accounts_business_key" ON "sms_accounts" ("business_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "sms_accounts_account_sid_key" ON "sms_accounts" ("account_sid");
--> statement-breakpoint
CREATE TABLE "sms_inbound_messages" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "customer_id" bigint REFERENCES "customers"("id") ON DELETE set null,
  "message_sid" text NOT NULL,
  "from_number" text NOT NULL,
  "to_number" text NOT NULL,
  "body" text NOT NULL,
  "keyword" text,
  "payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sms_inbound_messages_sid_key" ON "sms_inbound_messages" ("business_id", "message_sid");
--> statement-breakpoint
CREATE INDEX "sms_inbound_messages_customer_idx" ON "sms_inbound_messages" ("business_id", "customer_id", "received_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "send_events_sms_status_key" ON "send_events" ("business_id", "provider_message_id", ("payload"->>'provider_status'))
  WHERE "channel" = 'sms' AND "provider_message_id" IS NOT NULL AND "payload" ? 'provider_status';
--> statement-breakpoint
-- The pricing sweep's texts: ended at Twilio, no price yet (a small, shrinking set).
CREATE INDEX "sends_sms_unpriced_idx" ON "sends" ("updated_at")
  WHERE "channel" = 'sms' AND "status" IN ('delivered', 'failed') AND "provider_message_id" IS NOT NULL AND ("cost"->>'price') IS NULL;
