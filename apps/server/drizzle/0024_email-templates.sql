-- Email templates (engage.md §2): the current source of each template, and every saved version with
-- its MJML already compiled to HTML (compiled once per version, never per recipient).
CREATE TABLE "email_templates" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "subject" text NOT NULL,
  "preheader" text DEFAULT '' NOT NULL,
  "format" text NOT NULL,
  "content" text NOT NULL,
  "text_content" text,
  "variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "version" integer NOT NULL,
  "thumbnail_url" text,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_business_name_key" ON "email_templates" ("business_id", lower("name"));
--> statement-breakpoint
CREATE INDEX "email_templates_business_updated_idx" ON "email_templates" ("business_id", "updated_at");
--> statement-breakpoint
CREATE TABLE "email_template_versions" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "template_id" bigint NOT NULL REFERENCES "email_templates"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "version" integer NOT NULL,
  "name" text NOT NULL,
  "subject" text NOT NULL,
  "preheader" text DEFAULT '' NOT NULL,
  "format" text NOT NULL,
  "content" text NOT NULL,
  "text_content" text,
  "variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "compiled_html" text NOT NULL,
  "compiled_text" text,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_template_versions_template_version_key" ON "email_template_versions" ("template_id", "version");
