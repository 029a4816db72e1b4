-- The inbox's full-text search indexes the first 10,000 characters of a message (issue 30's
-- inbound-email bench): a 50 KB mail made PostgreSQL build a GIN entry for every word of it —
-- thousands per mail, the largest part of its cost — for text no search shows (the page's
-- highlight is one fragment). 10,000 characters hold the reply a person wrote (the quoted history is
-- folded away before it is stored); a word beyond them is not found. The search statement
-- (search.repository.ts) uses the same expression (messageSearchVector in db/schema/inbox.ts).
-- WhatsApp messages are at most 4,096 characters: wa_messages_search_idx stays as it is.
DROP INDEX IF EXISTS "messages_search_idx";
--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages"
  USING gin (to_tsvector('simple', left("content", 10000))) WHERE "message_type" <> 'activity';
