-- The inbox's search and snooze (issue 29; next-api.md "Team inbox").
-- Search: full text over what was written in a conversation (both message tables; notes included,
-- activity lines not), with the 'simple' configuration: customers write in any language, so words
-- are lower-cased, never stemmed, and a word's prefix matches (`to_tsquery('simple', 'refu:*')`).
-- Names, emails and phones use the trigram index of migration 0032 (customers_search_trgm_idx).
CREATE INDEX "messages_search_idx" ON "messages"
  USING gin (to_tsvector('simple', "content")) WHERE "message_type" <> 'activity';
--> statement-breakpoint
CREATE INDEX "wa_messages_search_idx" ON "wa_messages"
  USING gin (to_tsvector('simple', "content")) WHERE "message_type" <> 'activity';
--> statement-breakpoint
-- A customer's conversations newest first (search answers a matching customer with them).
CREATE INDEX "conversations_initiator_recent_idx" ON "conversations"
  ("initiator_id", "last_message_at" DESC NULLS LAST, "id" DESC);
--> statement-breakpoint
-- Snooze: status 'snoozed' until this time; the wake-up job finds the due ones by this index.
ALTER TABLE "conversations" ADD COLUMN "snoozed_until" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "conversations_snoozed_until_idx" ON "conversations" ("snoozed_until")
  WHERE "status" = 'snoozed';
