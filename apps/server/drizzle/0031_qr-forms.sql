-- QR visitor forms (engage.md §3): one public form per business and the submissions it took,
-- each with the consent given and the words it was given in.
CREATE TABLE "qr_forms" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL UNIQUE REFERENCES "businesses"("id") ON DELETE CASCADE,
  "slug" text NOT NULL,
  "title" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "fields" jsonb NOT NULL,
  "consent" jsonb NOT NULL,
  "list_id" bigint REFERENCES "customer_lists"("id") ON DELETE SET NULL,
  "thank_you" text NOT NULL DEFAULT '',
  "active" boolean NOT NULL DEFAULT true,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE "qr_form_submissions" (
  "id" bigserial PRIMARY KEY,
  "form_id" bigint NOT NULL REFERENCES "qr_forms"("id") ON DELETE CASCADE,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "customer_id" bigint REFERENCES "customers"("id") ON DELETE SET NULL,
  "created" boolean NOT NULL,
  "consent" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "qr_form_submissions_form_idx" ON "qr_form_submissions" ("form_id", "created_at");
--> statement-breakpoint
CREATE INDEX "qr_form_submissions_customer_idx" ON "qr_form_submissions" ("customer_id");
