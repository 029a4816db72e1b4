-- The AI first responder everywhere it answers, and what makes it trustworthy to run (issue 33).
-- WhatsApp: a customer's WhatsApp message (wa_messages, keyed by the business's wamid) triggers a
-- run as a widget, SMS or email message does; claimed once per message like theirs.
ALTER TABLE "ai_runs" ADD COLUMN "trigger_wa_message_id" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "ai_runs_trigger_wa_uq" ON "ai_runs" ("business_id", "trigger_wa_message_id")
  WHERE "kind" = 'responder' AND "trigger_wa_message_id" IS NOT NULL;
--> statement-breakpoint
-- A responder run is held by a lease while it works: a run whose process died (its lease ran out
-- while still running) is taken again by the recovery pass, which retries it once or hands the
-- conversation to a person; its reply is a send keyed by the run, so it is never answered twice.
ALTER TABLE "ai_runs" ADD COLUMN "locked_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "ai_runs" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE INDEX "ai_runs_running_idx" ON "ai_runs" ("locked_until") WHERE "status" = 'running';
--> statement-breakpoint
-- Staff rating of an AI answer: good or bad, why, by whom and when.
ALTER TABLE "ai_runs" ADD COLUMN "rating_reason" text;
--> statement-breakpoint
ALTER TABLE "ai_runs" ADD COLUMN "rated_by" bigint REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "ai_runs" ADD COLUMN "rated_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "ai_runs_rated_idx" ON "ai_runs" ("business_id", "rated_at") WHERE "rating" IS NOT NULL;
--> statement-breakpoint
-- A reopened conversation (resolved, then active again) is the AI's again per its group's settings:
-- the handoff of its earlier opening no longer holds. Kept by a trigger, so every path that
-- reopens (the customer writing again, staff reopening it) does it alike.
CREATE FUNCTION conversations_ai_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'resolved' AND NEW.status <> 'resolved' THEN
    NEW.ai_handed_off_at := NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER conversations_ai_reopen BEFORE UPDATE OF status ON conversations
  FOR EACH ROW EXECUTE FUNCTION conversations_ai_reopen();
