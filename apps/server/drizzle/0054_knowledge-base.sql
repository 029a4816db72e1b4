-- The knowledge base (modules/knowledge): categories, Markdown articles, and the chunks (one per
-- section) that full-text search ranks. `tsv` is written by the repository with the article's
-- language configuration plus 'simple' (so words match stemmed and as typed).
CREATE TABLE "kb_categories" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "slug" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "position" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "kb_categories_business_slug_uq" ON "kb_categories" ("business_id", "slug");
--> statement-breakpoint
CREATE TABLE "kb_articles" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "category_id" bigint REFERENCES "kb_categories"("id") ON DELETE set null,
  "title" text NOT NULL,
  "slug" text NOT NULL,
  "body_markdown" text DEFAULT '' NOT NULL,
  "locale" text DEFAULT 'en' NOT NULL,
  "status" text DEFAULT 'draft' NOT NULL,
  "source_url" text,
  "helpful_count" integer DEFAULT 0 NOT NULL,
  "not_helpful_count" integer DEFAULT 0 NOT NULL,
  "created_by" bigint REFERENCES "users"("id") ON DELETE set null,
  "updated_by" bigint REFERENCES "users"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "kb_articles_business_idx" ON "kb_articles" ("business_id", "status", "updated_at" DESC);
--> statement-breakpoint
CREATE UNIQUE INDEX "kb_articles_source_uq" ON "kb_articles" ("business_id", "source_url") WHERE "source_url" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "kb_chunks" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "article_id" bigint NOT NULL REFERENCES "kb_articles"("id") ON DELETE cascade,
  "position" integer NOT NULL,
  "heading" text DEFAULT '' NOT NULL,
  "content" text NOT NULL,
  "tsv" tsvector NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kb_chunks_article_idx" ON "kb_chunks" ("article_id", "position");
--> statement-breakpoint
CREATE INDEX "kb_chunks_business_idx" ON "kb_chunks" ("business_id");
--> statement-breakpoint
CREATE INDEX "kb_chunks_tsv_idx" ON "kb_chunks" USING gin ("tsv");
