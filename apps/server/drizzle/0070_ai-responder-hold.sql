-- The AI first responder's hold on a conversation (issue 33). While a chat group's responder is
-- always on for a conversation's channel, the AI holds the conversation: auto-assignment passes it
-- by until the AI hands it to a person, which ai_handed_off_at records (from then on it is given out
-- like any other, and the AI no longer answers in it).
ALTER TABLE "conversations" ADD COLUMN "ai_handed_off_at" timestamp with time zone;
