-- The audit log: one append-only row per change a person or an API key makes to a business. Titan
-- has no path that updates a row, and deletes only those older than AUDIT_LOG_RETENTION_DAYS.
CREATE TABLE "audit_log" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "actor_type" text NOT NULL,
  "actor_id" bigint,
  "actor_name" text NOT NULL DEFAULT '',
  "action" text NOT NULL,
  "object_type" text NOT NULL,
  "object_id" text,
  "changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "ip" text,
  "user_agent" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "audit_log_business_created_idx" ON "audit_log" ("business_id", "created_at" DESC, "id" DESC);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" ("created_at");
