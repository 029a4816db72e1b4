-- Outbound webhooks: endpoints, the outbox of events (written in the transaction of the change)
-- and one delivery per event and endpoint, claimed by the delivery loop with `skip locked`.
CREATE TABLE "webhook_endpoints" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "url" text NOT NULL,
  "description" text DEFAULT '' NOT NULL,
  "event_types" text[] NOT NULL,
  "secret_sealed" text NOT NULL,
  "enabled" boolean DEFAULT true NOT NULL,
  "disabled_reason" text,
  "failing_since" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_business_idx" ON "webhook_endpoints" ("business_id");--> statement-breakpoint
CREATE TABLE "webhook_events" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "type" text NOT NULL,
  "payload" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" ("created_at");--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "endpoint_id" bigint NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE cascade,
  "event_id" uuid NOT NULL REFERENCES "webhook_events"("id") ON DELETE cascade,
  "business_id" bigint NOT NULL,
  "event_type" text NOT NULL,
  "object_key" text,
  "status" text DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_attempt_at" timestamp with time zone,
  "delivered_at" timestamp with time zone,
  "response_status" integer,
  "response_body" text,
  "error" text,
  "duration_ms" integer,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_object_idx" ON "webhook_deliveries" ("endpoint_id","object_key","id") WHERE "status" = 'pending' and "object_key" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id","id" DESC);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("event_id");
