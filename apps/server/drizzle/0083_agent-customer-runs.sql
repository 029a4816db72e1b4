-- A journey's "hand to an AI agent" step starts a run for one customer (issue 32): the run names
-- its customer (its whole audience) and the step's key, so a step retried after a crash finds the
-- run it started instead of starting another. Many such runs of an agent start in the same instant:
-- the agent × channel × slot key stays for runs over the audience only.
ALTER TABLE "agent_runs" ADD COLUMN "customer_id" bigint REFERENCES "customers"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "idempotency_key" text;
--> statement-breakpoint
ALTER TABLE "agent_runs" DROP CONSTRAINT "agent_runs_trigger_check";
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_trigger_check"
  CHECK ("trigger" IN ('schedule', 'manual', 'preview', 'journey'));
--> statement-breakpoint
DROP INDEX IF EXISTS "agent_runs_agent_channel_slot_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_runs_agent_channel_slot_key" ON "agent_runs" ("agent_id", "channel", "slot")
  WHERE "customer_id" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_runs_business_idempotency_key" ON "agent_runs" ("business_id", "idempotency_key")
  WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
-- The journeys' loop guard (issue 32): an event a journey's update step caused (label.added,
-- list.joined…) names the chain of journeys that led to it; a journey in that chain (or a chain
-- longer than the engine allows) is not started by it, and the step says so.
ALTER TABLE "customer_events" ADD COLUMN "origin" jsonb;
