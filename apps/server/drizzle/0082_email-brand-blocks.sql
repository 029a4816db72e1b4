-- Email that marketers can write (issue 31): a business's brand for mail (logo, colours, font,
-- footer address), which the visual editor turns into ready-made blocks, and the blocks staff save
-- from the editor (MJML fragments) for every template of the business. Only modules/templates
-- touches them.
CREATE TABLE "email_brands" (
  "business_id" bigint PRIMARY KEY NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "logo_url" text,
  "primary_color" text NOT NULL,
  "text_color" text NOT NULL,
  "font_family" text NOT NULL,
  "footer_address" text DEFAULT '' NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_blocks" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "content" text NOT NULL,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_blocks_business_name_key" ON "email_blocks" ("business_id", lower("name"));
