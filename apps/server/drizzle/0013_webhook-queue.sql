-- Webhook deliveries are their own processing queue: a failed delivery keeps its error and attempt
-- count and waits until next_attempt_at (null: no more attempts); pending rows are found by a
-- partial index in claim order.
DROP INDEX "whatsapp_webhook_events_unprocessed_idx";--> statement-breakpoint
ALTER TABLE "whatsapp_webhook_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_webhook_events" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "whatsapp_webhook_events" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "whatsapp_webhook_events_pending_idx" ON "whatsapp_webhook_events" USING btree ("next_attempt_at","id") WHERE "whatsapp_webhook_events"."processed_at" is null;