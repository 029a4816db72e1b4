-- CSV imports into the directory (engage.md §3), their refused rows, and a phone index for
-- matching imported rows to customers by phone.
CREATE TABLE "customer_imports" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "file_key" text NOT NULL,
  "file_name" text NOT NULL,
  "mode" text NOT NULL CHECK ("mode" IN ('skip', 'overwrite', 'merge')),
  "encoding" text NOT NULL,
  "list_id" bigint REFERENCES "customer_lists"("id") ON DELETE SET NULL,
  "columns" jsonb NOT NULL,
  "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'done', 'failed')),
  "total_rows" integer,
  "processed_rows" integer NOT NULL DEFAULT 0,
  "inserted" integer NOT NULL DEFAULT 0,
  "updated" integer NOT NULL DEFAULT 0,
  "skipped" integer NOT NULL DEFAULT 0,
  "failed" integer NOT NULL DEFAULT 0,
  "error" text,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz
);
--> statement-breakpoint
CREATE TABLE "customer_import_errors" (
  "id" bigserial PRIMARY KEY,
  "import_id" uuid NOT NULL REFERENCES "customer_imports"("id") ON DELETE CASCADE,
  "row_number" integer NOT NULL,
  "reason" text NOT NULL,
  "values" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "customer_import_errors_import_idx" ON "customer_import_errors" ("import_id", "row_number");
--> statement-breakpoint
CREATE INDEX "customers_business_phone_idx" ON "customers" ("business_id", "phone");
