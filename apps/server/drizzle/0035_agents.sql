-- AI agents (engage.md §5): the agent, its config versions (immutable: a trigger refuses updates),
-- its schedule checked by a one-minute job, and the ledger of schedule slots fired (one per agent ×
-- slot), which the run loop consumes.
CREATE TABLE "agents" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "avatar_key" text,
  "status" text NOT NULL DEFAULT 'draft' CHECK ("status" IN ('draft', 'active', 'paused', 'archived')),
  "config_version" integer,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "agents_business_updated_idx" ON "agents" ("business_id", "updated_at");
--> statement-breakpoint
CREATE TABLE "agent_config_versions" (
  "id" bigserial PRIMARY KEY,
  "agent_id" bigint NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "version" integer NOT NULL,
  "config" jsonb NOT NULL,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_config_versions_agent_version_key" ON "agent_config_versions" ("agent_id", "version");
--> statement-breakpoint
CREATE FUNCTION agent_config_versions_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'agent config versions are immutable';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER agent_config_versions_no_update BEFORE UPDATE ON agent_config_versions
  FOR EACH ROW EXECUTE FUNCTION agent_config_versions_immutable();
--> statement-breakpoint
CREATE TABLE "agent_schedules" (
  "agent_id" bigint PRIMARY KEY REFERENCES "agents"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "kind" text NOT NULL CHECK ("kind" IN ('cron', 'interval', 'once')),
  "cron" text,
  "every_minutes" integer,
  "run_at" timestamptz,
  "timezone" text NOT NULL,
  "start_at" timestamptz,
  "end_at" timestamptz,
  "missed" text NOT NULL CHECK ("missed" IN ('skip', 'run_once')),
  "anchor_at" timestamptz NOT NULL DEFAULT now(),
  "next_run_at" timestamptz,
  "last_fired_at" timestamptz,
  "last_error" text,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "agent_schedules_due_idx" ON "agent_schedules" ("next_run_at") WHERE "next_run_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "agent_schedule_fires" (
  "id" bigserial PRIMARY KEY,
  "agent_id" bigint NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "slot" timestamptz NOT NULL,
  "catch_up" boolean NOT NULL DEFAULT false,
  "fired_at" timestamptz NOT NULL DEFAULT now(),
  "consumed_at" timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX "agent_schedule_fires_agent_slot_key" ON "agent_schedule_fires" ("agent_id", "slot");
--> statement-breakpoint
CREATE INDEX "agent_schedule_fires_pending_idx" ON "agent_schedule_fires" ("fired_at") WHERE "consumed_at" IS NULL;
