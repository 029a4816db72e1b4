-- The LLM (engage.md §6): a business's own OpenAI-compatible model (the API key sealed with
-- APP_SECRET), and every call's usage — tokens and duration per business and purpose, which
-- billing and agent runs read.
CREATE TABLE "llm_settings" (
  "business_id" bigint PRIMARY KEY REFERENCES "businesses"("id") ON DELETE CASCADE,
  "base_url" text NOT NULL,
  "model" text NOT NULL,
  "api_key_sealed" text,
  "updated_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "llm_usage" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "purpose" text NOT NULL,
  "ref" text,
  "source" text NOT NULL CHECK ("source" IN ('business', 'server')),
  "model" text NOT NULL,
  "prompt_tokens" integer NOT NULL DEFAULT 0,
  "completion_tokens" integer NOT NULL DEFAULT 0,
  "total_tokens" integer NOT NULL DEFAULT 0,
  "duration_ms" integer NOT NULL,
  "attempts" integer NOT NULL DEFAULT 1,
  "status" text NOT NULL CHECK ("status" IN ('ok', 'error')),
  "error_kind" text,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "llm_usage_business_created_idx" ON "llm_usage" ("business_id", "created_at");
--> statement-breakpoint
CREATE INDEX "llm_usage_business_ref_idx" ON "llm_usage" ("business_id", "purpose", "ref") WHERE "ref" IS NOT NULL;
