-- Vector embeddings of knowledge-base chunks (pgvector: Debian's postgresql-15-pgvector, or built
-- from tools/pgvector by .ci/run; PGlite loads its vector extension). One row per chunk and
-- embedding model; the dimension is the model's, so the column has none and search compares only
-- rows of one model. A business may name its embedding model next to its chat model.
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
CREATE TABLE "kb_embeddings" (
  "chunk_id" bigint NOT NULL REFERENCES "kb_chunks"("id") ON DELETE cascade,
  "model" text NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "embedding" vector NOT NULL,
  CONSTRAINT "kb_embeddings_chunk_id_model_pk" PRIMARY KEY("chunk_id","model")
);
--> statement-breakpoint
CREATE INDEX "kb_embeddings_business_idx" ON "kb_embeddings" ("business_id", "model");
--> statement-breakpoint
ALTER TABLE "llm_settings" ADD COLUMN "embedding_model" text;
--> statement-breakpoint
-- The AI in the inbox (modules/ai): a chat group's first-responder settings, and every AI run (the
-- responder's answer or handoff, a staff copilot call) with its steps, tokens and outcome. A
-- responder run is claimed once per customer message (the unique index), so a retried job never
-- answers twice.
ALTER TABLE "chat_groups" ADD COLUMN "ai_responder" jsonb;
--> statement-breakpoint
CREATE TABLE "ai_runs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "conversation_id" bigint REFERENCES "conversations"("id") ON DELETE cascade,
  "trigger_message_id" bigint REFERENCES "messages"("id") ON DELETE set null,
  "kind" text NOT NULL,
  "status" text DEFAULT 'running' NOT NULL,
  "outcome" text,
  "steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "prompt_tokens" integer DEFAULT 0 NOT NULL,
  "completion_tokens" integer DEFAULT 0 NOT NULL,
  "rating" text,
  "created_by" bigint REFERENCES "users"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "ai_runs_business_idx" ON "ai_runs" ("business_id", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX "ai_runs_conversation_idx" ON "ai_runs" ("conversation_id", "created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "ai_runs_trigger_uq" ON "ai_runs" ("trigger_message_id") WHERE "kind" = 'responder';
