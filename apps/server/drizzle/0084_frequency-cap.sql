-- The business's marketing frequency cap (issue 32), shared by campaigns, journeys and agents:
-- off until the business turns it on, with 3 messages every 7 days ready for when it does.
ALTER TABLE "businesses" ADD COLUMN "frequency_cap" jsonb DEFAULT '{"enabled":false,"max_messages":3,"period_days":7}'::jsonb NOT NULL;
--> statement-breakpoint
-- A campaign recipient the cap stops at queue time is `skipped`, with the sentence the report shows.
ALTER TABLE "campaign_recipients" ADD COLUMN "skip_reason" text;
