-- Knowledge-base imports (modules/knowledge): a job per import, one item per page or file with its
-- own outcome, so a bad page is reported while the rest are imported.
CREATE TABLE "kb_imports" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "status" text DEFAULT 'queued' NOT NULL,
  "sitemap_url" text,
  "locale" text DEFAULT 'en' NOT NULL,
  "category_id" bigint REFERENCES "kb_categories"("id") ON DELETE set null,
  "article_status" text DEFAULT 'draft' NOT NULL,
  "error" text,
  "created_by" bigint REFERENCES "users"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "kb_imports_business_idx" ON "kb_imports" ("business_id", "created_at" DESC);
--> statement-breakpoint
CREATE TABLE "kb_import_items" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "import_id" bigint NOT NULL REFERENCES "kb_imports"("id") ON DELETE cascade,
  "position" integer NOT NULL,
  "kind" text NOT NULL,
  "source" text NOT NULL,
  "file_key" text,
  "status" text DEFAULT 'pending' NOT NULL,
  "article_id" bigint REFERENCES "kb_articles"("id") ON DELETE set null,
  "title" text,
  "error" text
);
--> statement-breakpoint
CREATE INDEX "kb_import_items_import_idx" ON "kb_import_items" ("import_id", "position");
