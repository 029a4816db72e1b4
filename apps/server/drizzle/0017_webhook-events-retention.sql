-- Retention of webhook deliveries: processed and given-up rows (next_attempt_at null) are deleted
-- WHATSAPP_EVENTS_RETENTION_DAYS after receipt, oldest first, in batches (whatsapp.retention.ts).
-- Partial: pending rows are never deleted, and the insert before Meta's 200 does not write it.
CREATE INDEX "whatsapp_webhook_events_done_idx" ON "whatsapp_webhook_events" USING btree ("received_at","id") WHERE "whatsapp_webhook_events"."processed_at" is not null or "whatsapp_webhook_events"."next_attempt_at" is null;
