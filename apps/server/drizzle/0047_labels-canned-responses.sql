-- A business's own labels (name, colour), put on conversations and on customers, and its canned
-- responses (a short code, Liquid text, an optional stored file). Label names and short codes are
-- unique within a business; the services also refuse a name differing only in case.
CREATE TABLE "labels" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses" ("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "color" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "labels_business_name_key" ON "labels" ("business_id", "name");
--> statement-breakpoint
-- A label removed leaves every conversation and customer it was on (the rows cascade).
CREATE TABLE "conversation_labels" (
  "conversation_id" bigint NOT NULL REFERENCES "conversations" ("id") ON DELETE CASCADE,
  "label_id" bigint NOT NULL REFERENCES "labels" ("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "conversation_labels_pkey" PRIMARY KEY ("conversation_id", "label_id")
);
--> statement-breakpoint
-- The list's `label=` filter: a label's conversations.
CREATE INDEX "conversation_labels_label_idx" ON "conversation_labels" ("label_id", "conversation_id");
--> statement-breakpoint
CREATE TABLE "customer_labels" (
  "customer_id" bigint NOT NULL REFERENCES "customers" ("id") ON DELETE CASCADE,
  "label_id" bigint NOT NULL REFERENCES "labels" ("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "customer_labels_pkey" PRIMARY KEY ("customer_id", "label_id")
);
--> statement-breakpoint
CREATE INDEX "customer_labels_label_idx" ON "customer_labels" ("label_id", "customer_id");
--> statement-breakpoint
CREATE TABLE "canned_responses" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses" ("id") ON DELETE CASCADE,
  "short_code" text NOT NULL,
  "content" text NOT NULL,
  -- The stored file (POST /api/upload/) sent with the reply: its key, and what it is (stored files
  -- never change under a key, so these are copied when it is chosen).
  "attachment_key" text,
  "attachment_name" text,
  "attachment_mime_type" text,
  "attachment_size" integer,
  "created_by" bigint REFERENCES "users" ("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "canned_responses_business_code_key" ON "canned_responses" ("business_id", "short_code");
