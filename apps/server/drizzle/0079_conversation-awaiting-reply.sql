-- Journeys (issue 32): "conversation unanswered for N hours". awaiting_reply_since is when the
-- customer's first message since the business last answered arrived (null once the business
-- answers; automatic messages such as the away reply do not answer). The journeys scan reads
-- the conversations waiting since before a cutoff through the partial index.
ALTER TABLE "conversations" ADD COLUMN "awaiting_reply_since" timestamp with time zone;
--> statement-breakpoint
UPDATE "conversations" SET "awaiting_reply_since" = coalesce("last_message_at", "created_at")
  WHERE NOT "business_replied" AND "status" <> 'resolved' AND "last_message_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "conversations_awaiting_reply_idx" ON "conversations" USING btree ("business_id", "awaiting_reply_since", "id")
  WHERE "awaiting_reply_since" IS NOT NULL;
