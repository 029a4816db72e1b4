-- Campaigns (issue 31, modules/campaigns): a campaign, and who receives it once sending begins
-- (each recipient's due time and A/B variant). Its sends are recorded by broadcasts it feeds:
-- `broadcasts.campaign_id` marks those, so the broadcasts' resume sweep leaves them to the campaign.
-- A default sender per email domain (`default_from`) spares typing a From address each time.
CREATE TABLE "campaigns" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "channel" text NOT NULL,
  "status" text DEFAULT 'draft' NOT NULL,
  "audience" jsonb NOT NULL,
  "content" jsonb NOT NULL,
  "sender" text,
  "schedule" jsonb NOT NULL,
  "throttle_per_hour" integer,
  "ab" jsonb,
  "topic_id" bigint,
  "winner" smallint,
  "broadcasts" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "prepared_at" timestamp with time zone,
  "test_done_at" timestamp with time zone,
  "skipped_reasons" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "scheduled_at" timestamp with time zone,
  "started_at" timestamp with time zone,
  "finished_at" timestamp with time zone,
  "heartbeat_at" timestamp with time zone,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "campaigns_business_created_idx" ON "campaigns" ("business_id", "created_at");
--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" ("status") WHERE "status" in ('scheduled', 'sending');
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
  "campaign_id" uuid NOT NULL REFERENCES "campaigns"("id") ON DELETE cascade,
  "customer_id" bigint NOT NULL,
  "variant" smallint,
  "state" text DEFAULT 'pending' NOT NULL,
  "due_at" timestamp with time zone NOT NULL,
  "broadcast_id" uuid,
  "recorded_at" timestamp with time zone,
  CONSTRAINT "campaign_recipients_campaign_id_customer_id_pk" PRIMARY KEY ("campaign_id", "customer_id")
);
--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" ("campaign_id", "due_at") WHERE "state" = 'pending';
--> statement-breakpoint
CREATE INDEX "campaign_recipients_recorded_idx" ON "campaign_recipients" ("campaign_id", "recorded_at") WHERE "recorded_at" is not null;
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "campaign_id" uuid;
--> statement-breakpoint
CREATE INDEX "broadcasts_campaign_idx" ON "broadcasts" ("campaign_id") WHERE "campaign_id" is not null;
--> statement-breakpoint
ALTER TABLE "email_domains" ADD COLUMN "default_from" text;
