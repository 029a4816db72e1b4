DROP INDEX "conversations_created_idx";--> statement-breakpoint
CREATE INDEX "conversations_created_idx" ON "conversations" USING btree ("business_id","created_at","last_message_at","id");