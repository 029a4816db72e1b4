-- Email conversations (issue 30): a conversation is marked spam when the latest mail its customer
-- sent scored as spam (modules/email/email.spam.ts: authentication results and content heuristics).
ALTER TABLE "conversations" ADD COLUMN "spam" boolean DEFAULT false NOT NULL;
