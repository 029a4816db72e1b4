-- Sending domains (engage.md §2): a business's own domains, the last check of each DNS record, and
-- the DKIM keys of each domain. Keys are rows of their own so a domain can publish a second selector
-- (status 'next') before it switches to it, and keep the old one published while mail signed with it
-- may still be checked (status 'retired').
CREATE TABLE "email_domains" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "domain" text NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "ownership_token" text NOT NULL,
  "checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "last_checked_at" timestamp with time zone,
  "verified_at" timestamp with time zone,
  "created_by" bigint,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_domains_business_domain_key" ON "email_domains" ("business_id", "domain");
--> statement-breakpoint
CREATE INDEX "email_domains_domain_idx" ON "email_domains" ("domain");
--> statement-breakpoint
CREATE INDEX "email_domains_status_checked_idx" ON "email_domains" ("status", "last_checked_at");
--> statement-breakpoint
CREATE TABLE "email_domain_keys" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "domain_id" bigint NOT NULL REFERENCES "email_domains"("id") ON DELETE cascade,
  "selector" text NOT NULL,
  "status" text NOT NULL,
  "public_key" text NOT NULL,
  "private_key_sealed" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "activated_at" timestamp with time zone,
  "retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_domain_keys_selector_key" ON "email_domain_keys" ("domain_id", "selector");
--> statement-breakpoint
CREATE UNIQUE INDEX "email_domain_keys_active_key" ON "email_domain_keys" ("domain_id") WHERE "status" = 'active';
--> statement-breakpoint
CREATE UNIQUE INDEX "email_domain_keys_next_key" ON "email_domain_keys" ("domain_id") WHERE "status" = 'next';
