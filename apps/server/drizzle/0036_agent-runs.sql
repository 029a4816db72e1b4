-- The AI agents' run loop (engage.md §5): runs (one per agent × channel × slot), their steps (LLM
-- calls, tool calls, guardrail decisions, errors) and deliveries (one per recipient, the
-- idempotency key (agent, channel, customer, slot) unique, so a retried run never sends twice).
-- An agent paused after repeated failed runs says why in status_reason.
ALTER TABLE "agents" ADD COLUMN "status_reason" text;
--> statement-breakpoint
CREATE TABLE "agent_runs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "agent_id" bigint NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "slot" timestamptz NOT NULL,
  "trigger" text NOT NULL CHECK ("trigger" IN ('schedule', 'manual', 'preview')),
  "config_version" integer NOT NULL,
  "send_mode" text NOT NULL CHECK ("send_mode" IN ('auto', 'review', 'dry_run')),
  "status" text NOT NULL DEFAULT 'running' CHECK ("status" IN ('running', 'awaiting_approval', 'completed', 'failed')),
  "cursor" bigint NOT NULL DEFAULT 0,
  "counts" jsonb NOT NULL DEFAULT '{}',
  "prompt_tokens" integer NOT NULL DEFAULT 0,
  "completion_tokens" integer NOT NULL DEFAULT 0,
  "cost" double precision,
  "error" text,
  "attempts" integer NOT NULL DEFAULT 0,
  "locked_until" timestamptz,
  "created_by" bigint,
  "started_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_runs_agent_channel_slot_key" ON "agent_runs" ("agent_id", "channel", "slot");
--> statement-breakpoint
CREATE INDEX "agent_runs_business_agent_started_idx" ON "agent_runs" ("business_id", "agent_id", "started_at");
--> statement-breakpoint
CREATE INDEX "agent_runs_running_idx" ON "agent_runs" ("locked_until") WHERE "status" = 'running';
--> statement-breakpoint
CREATE TABLE "agent_run_steps" (
  "id" bigserial PRIMARY KEY,
  "run_id" uuid NOT NULL REFERENCES "agent_runs"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "seq" integer NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('llm', 'tool', 'guardrail', 'error')),
  "name" text NOT NULL,
  "customer_id" bigint,
  "input" jsonb,
  "output" jsonb,
  "duration_ms" integer NOT NULL DEFAULT 0,
  "tokens" integer NOT NULL DEFAULT 0,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_run_steps_run_seq_key" ON "agent_run_steps" ("run_id", "seq");
--> statement-breakpoint
CREATE TABLE "agent_deliveries" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "run_id" uuid NOT NULL REFERENCES "agent_runs"("id") ON DELETE CASCADE,
  "agent_id" bigint NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "channel" text NOT NULL CHECK ("channel" IN ('email', 'sms', 'whatsapp')),
  "customer_id" bigint NOT NULL,
  "status" text NOT NULL CHECK ("status" IN ('planned', 'pending_approval', 'approved', 'rejected', 'sent', 'failed', 'suppressed', 'skipped', 'dry_run')),
  "reason" text NOT NULL DEFAULT '',
  "guardrail" text,
  "template_id" bigint,
  "variables" jsonb NOT NULL DEFAULT '{}',
  "subject" text,
  "body" text,
  "send_id" uuid,
  "idempotency_key" text NOT NULL,
  "decided_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_deliveries_idempotency_key" ON "agent_deliveries" ("idempotency_key");
--> statement-breakpoint
CREATE INDEX "agent_deliveries_run_status_idx" ON "agent_deliveries" ("run_id", "status");
--> statement-breakpoint
CREATE INDEX "agent_deliveries_business_customer_idx" ON "agent_deliveries" ("business_id", "customer_id", "created_at");
