-- A conversation's assignee: a member of its business, or none (beside assigned_chat_group).
-- The key names the membership, not the user, so the database itself refuses a member of another
-- business, and removing someone from the business unassigns their conversations (SET NULL of the
-- assignee column only: business_id stays).
ALTER TABLE "conversations" ADD COLUMN "assignee_id" bigint;
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_membership_fk"
  FOREIGN KEY ("business_id", "assignee_id") REFERENCES "memberships" ("business_id", "user_id")
  ON DELETE SET NULL ("assignee_id");
--> statement-breakpoint
-- "Mine" and "by assignee" pages in list order, and the views' counts.
CREATE INDEX "conversations_assignee_idx" ON "conversations"
  ("business_id", "assignee_id", "last_message_at" DESC NULLS LAST, "id" DESC);
