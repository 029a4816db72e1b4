-- Journeys and customer events (issue 32, modules/journeys). Customer events: posted ones (API keys,
-- once per idempotency key and business) and Titan's own facts; journeys hear them once
-- (processed_at). A journey's versions keep each published graph; a run is one customer's pass
-- through one version; the step ledger holds one row per run × step visit, and its due rows are the
-- timers a worker claims with FOR UPDATE SKIP LOCKED under a lease.
CREATE TABLE "customer_events" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "source" text NOT NULL,
  "idempotency_key" text,
  "occurred_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_events_idempotency_key" ON "customer_events" ("business_id", "idempotency_key");
--> statement-breakpoint
CREATE INDEX "customer_events_pending_idx" ON "customer_events" ("id") WHERE "processed_at" is null;
--> statement-breakpoint
CREATE INDEX "customer_events_customer_idx" ON "customer_events" ("customer_id", "name", "occurred_at");
--> statement-breakpoint
CREATE TABLE "journeys" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "status" text DEFAULT 'draft' NOT NULL,
  "reentry" text DEFAULT 'never' NOT NULL,
  "version" integer DEFAULT 1 NOT NULL,
  "live_version" integer,
  "event_names" text[] DEFAULT '{}'::text[] NOT NULL,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "journeys_business_idx" ON "journeys" ("business_id", "id");
--> statement-breakpoint
CREATE TABLE "journey_versions" (
  "journey_id" bigint NOT NULL REFERENCES "journeys"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "graph" jsonb NOT NULL,
  "reentry" text NOT NULL,
  "published_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "journey_versions_journey_id_version_pk" PRIMARY KEY ("journey_id", "version")
);
--> statement-breakpoint
CREATE TABLE "journey_runs" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL,
  "journey_id" bigint NOT NULL REFERENCES "journeys"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE cascade,
  "trigger_event_id" bigint,
  "status" text DEFAULT 'active' NOT NULL,
  "entered_at" timestamp with time zone NOT NULL,
  "ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "journey_runs_trigger_key" ON "journey_runs" ("journey_id", "trigger_event_id");
--> statement-breakpoint
CREATE INDEX "journey_runs_customer_idx" ON "journey_runs" ("journey_id", "customer_id", "id");
--> statement-breakpoint
CREATE TABLE "journey_steps" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "run_id" bigint NOT NULL REFERENCES "journey_runs"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL,
  "journey_id" bigint NOT NULL,
  "version" integer NOT NULL,
  "customer_id" bigint NOT NULL,
  "node_id" text NOT NULL,
  "visit" integer DEFAULT 1 NOT NULL,
  "status" text NOT NULL,
  "due_at" timestamp with time zone,
  "wait_event" text,
  "lease_until" timestamp with time zone,
  "outcome" text,
  "detail" jsonb,
  "entered_at" timestamp with time zone NOT NULL,
  "finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "journey_steps_visit_key" ON "journey_steps" ("run_id", "node_id", "visit");
--> statement-breakpoint
CREATE INDEX "journey_steps_due_idx" ON "journey_steps" ("due_at") WHERE "status" in ('pending', 'waiting');
--> statement-breakpoint
CREATE INDEX "journey_steps_event_idx" ON "journey_steps" ("customer_id", "wait_event") WHERE "status" = 'waiting' and "wait_event" is not null;
--> statement-breakpoint
CREATE INDEX "journey_steps_stats_idx" ON "journey_steps" ("journey_id", "node_id", "status");
