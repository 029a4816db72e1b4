-- Inbound mail costs less to store (issue 30, the email-inbound bench): two changes.
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
--> statement-breakpoint
-- The conversation counts (migrations 0007, 0012) are bumped when the transaction commits, not when
-- a conversation is written: every conversation a business opens bumps the same count rows, whose
-- lock was held from the insert to the commit — so two transactions opening conversations (two
-- customers' first mails arriving together) took turns for the whole of the first one's work (its
-- message, attachments, events). Deferred, the rows are locked only while the commit runs. The
-- counts are the same once committed; nothing reads them inside the writing transaction.
DROP TRIGGER IF EXISTS conversations_count ON conversations;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER conversations_count AFTER INSERT OR UPDATE OR DELETE ON conversations
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION titan_count_conversations();
--> statement-breakpoint
DROP TRIGGER IF EXISTS conversations_count_days ON conversations;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER conversations_count_days AFTER INSERT OR UPDATE OR DELETE ON conversations
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION titan_count_conversation_days();
