-- Customer lists (engage.md §3): static lists with members, segments (saved filters), and
-- broadcasts (one send per customer of a list).
CREATE TABLE "customer_lists" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "kind" text NOT NULL CHECK ("kind" IN ('static', 'segment')),
  "filter" jsonb,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  CHECK (("kind" = 'segment') = ("filter" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customer_lists_business_name_key" ON "customer_lists" ("business_id", lower("name"));
--> statement-breakpoint
CREATE INDEX "customer_lists_business_created_idx" ON "customer_lists" ("business_id", "created_at");
--> statement-breakpoint
CREATE TABLE "customer_list_members" (
  "list_id" bigint NOT NULL REFERENCES "customer_lists"("id") ON DELETE CASCADE,
  "customer_id" bigint NOT NULL REFERENCES "customers"("id") ON DELETE CASCADE,
  "added_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("list_id", "customer_id")
);
--> statement-breakpoint
CREATE INDEX "customer_list_members_customer_idx" ON "customer_list_members" ("customer_id");
--> statement-breakpoint
CREATE TABLE "broadcasts" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "channel" text NOT NULL,
  "list_id" bigint REFERENCES "customer_lists"("id") ON DELETE SET NULL,
  "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  "request" jsonb NOT NULL,
  "total" integer NOT NULL DEFAULT 0,
  "queued" integer NOT NULL DEFAULT 0,
  "skipped_reasons" jsonb NOT NULL DEFAULT '{}',
  "cursor" bigint NOT NULL DEFAULT 0,
  "error" text,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "finished_at" timestamptz
);
--> statement-breakpoint
CREATE INDEX "broadcasts_business_created_idx" ON "broadcasts" ("business_id", "created_at");
