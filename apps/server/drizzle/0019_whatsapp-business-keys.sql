-- WhatsApp ids are keys within a business, not across businesses: a wamid or media id that another
-- business's number reports (signed with its own app secret) must never name this business's
-- message, log, status or media. Every table already holds business_id (NOT NULL, the business of
-- the number that sent or reported the row), so no backfill: each key only gains business_id in
-- front. The old keys were narrower, so every existing row satisfies the new ones and all are kept.
-- Lookups by (business_id, wamid) and the set-based webhook writes use the new keys' indexes.
ALTER TABLE "wa_messages" DROP CONSTRAINT "wa_messages_pkey";--> statement-breakpoint
ALTER TABLE "wa_messages" ADD CONSTRAINT "wa_messages_business_id_id_pk" PRIMARY KEY("business_id","id");--> statement-breakpoint
ALTER TABLE "whatsapp_media" DROP CONSTRAINT "whatsapp_media_pkey";--> statement-breakpoint
ALTER TABLE "whatsapp_media" ADD CONSTRAINT "whatsapp_media_business_id_id_pk" PRIMARY KEY("business_id","id");--> statement-breakpoint
-- The primary key leads with business_id: the business's media are found through it.
DROP INDEX "whatsapp_media_business_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_status_events_business_message_status_key" ON "whatsapp_status_events" USING btree ("business_id","message_id","status");--> statement-breakpoint
DROP INDEX "whatsapp_status_events_message_status_key";--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_logs_business_wamid_key" ON "whatsapp_logs" USING btree ("business_id","wamid");--> statement-breakpoint
DROP INDEX "whatsapp_logs_wamid_key";
