-- Consent done right (issue 31, modules/consent): topics a business mails about ("Offers",
-- "News") and the customers who left one (the preference centre; RFC 8058 one-click on a
-- campaign leaves its topic); double opt-in per list (a member joins `pending` until they confirm).
CREATE TABLE "consent_topics" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "consent_topics_business_name_key" ON "consent_topics" ("business_id", lower("name"));
--> statement-breakpoint
CREATE TABLE "consent_topic_optouts" (
  "topic_id" bigint NOT NULL REFERENCES "consent_topics"("id") ON DELETE cascade,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "consent_topic_optouts_pkey" PRIMARY KEY ("topic_id", "customer_id")
);
--> statement-breakpoint
CREATE INDEX "consent_topic_optouts_customer_idx" ON "consent_topic_optouts" ("customer_id");
--> statement-breakpoint
ALTER TABLE "customer_lists" ADD COLUMN "double_opt_in" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "consent_pages" (
  "business_id" bigint PRIMARY KEY NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "logo_url" text,
  "accent_color" text,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_imports" ADD COLUMN "double_opt_in" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- `pending`: joined a double opt-in list, waiting for the person to confirm.
ALTER TABLE "customers" DROP CONSTRAINT "customers_email_status_check";
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_sms_status_check";
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_whatsapp_status_check";
--> statement-breakpoint
ALTER TABLE "customers"
  ADD CONSTRAINT "customers_email_status_check"
    CHECK ("email_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown', 'pending')),
  ADD CONSTRAINT "customers_sms_status_check"
    CHECK ("sms_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown', 'pending')),
  ADD CONSTRAINT "customers_whatsapp_status_check"
    CHECK ("whatsapp_status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown', 'pending'));
--> statement-breakpoint
ALTER TABLE "consent_events" DROP CONSTRAINT "consent_events_status_check";
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_status_check"
  CHECK ("status" IN ('subscribed', 'unsubscribed', 'bounced', 'complained', 'unknown', 'pending'));
