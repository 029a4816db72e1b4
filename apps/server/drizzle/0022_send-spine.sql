-- The send spine (engage.md §1): one `sends` row per outbound message of any channel and cause,
-- its history in `send_events`. WhatsApp's own log and status tables move into them with every row:
-- a log keeps its tracking id as the send id, a status becomes an event of the send with its wamid.
CREATE TABLE "sends" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "channel" text NOT NULL,
  "cause" text NOT NULL,
  "cause_id" text,
  "customer_id" bigint,
  "conversation_id" bigint,
  "recipient" text NOT NULL,
  "template_id" bigint,
  "template_name" text,
  "subject" text,
  "status" text NOT NULL,
  "provider_message_id" text,
  "error_code" text,
  "error_message" text,
  "cost" jsonb,
  "idempotency_key" text,
  "created_by" bigint,
  "provider_request" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "provider_response" jsonb,
  "message" jsonb,
  "claimed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sends_provider_message_key" ON "sends" ("business_id", "channel", "provider_message_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "sends_idempotency_key" ON "sends" ("business_id", "idempotency_key");
--> statement-breakpoint
CREATE INDEX "sends_business_channel_created_idx" ON "sends" ("business_id", "channel", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "sends_unfinished_idx" ON "sends" ("updated_at") WHERE "status" in ('queued', 'sending');
--> statement-breakpoint
CREATE TABLE "send_events" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL,
  "channel" text NOT NULL,
  "send_id" uuid REFERENCES "sends"("id") ON DELETE cascade,
  "provider_message_id" text,
  "type" text NOT NULL,
  "occurred_at" timestamp with time zone,
  "received_at" timestamp with time zone DEFAULT now() NOT NULL,
  "payload" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "send_events_whatsapp_status_key" ON "send_events" ("business_id", "channel", "provider_message_id", "type") WHERE "channel" = 'whatsapp';
--> statement-breakpoint
CREATE INDEX "send_events_send_idx" ON "send_events" ("send_id");
--> statement-breakpoint
-- The status order of every channel (engage.md §1): a later, weaker event never lowers a status;
-- final states outrank them all. WhatsApp: queued < sending < accepted < sent < delivered < read.
CREATE OR REPLACE FUNCTION send_status_rank(channel text, status text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN status IN ('failed', 'bounced', 'complained', 'suppressed', 'cancelled') THEN 100
    WHEN status = 'queued' THEN 0
    WHEN status = 'sending' THEN 1
    WHEN status = 'accepted' THEN 2
    WHEN status = 'sent' THEN 3
    WHEN status = 'delivered' THEN 4
    WHEN status IN ('read', 'opened') THEN 5
    WHEN status = 'clicked' AND channel = 'email' THEN 6
    ELSE -1
  END
$$;
--> statement-breakpoint
-- A refused call was logged `error`: in the spine it is `failed` without a provider id.
INSERT INTO "sends" ("id", "business_id", "channel", "cause", "conversation_id", "recipient", "template_name",
  "status", "provider_message_id", "error_code", "error_message", "cost", "created_by", "provider_request",
  "provider_response", "created_at", "updated_at")
SELECT l.tracking_id, l.business_id, 'whatsapp',
  CASE WHEN l.type = 'template' THEN 'template_send' ELSE 'staff_reply' END,
  l.conversation_id, l.recipient, l.template_name,
  CASE WHEN l.status = 'error' THEN 'failed' ELSE l.status END,
  l.wamid, l.error_code::text, l.error_message,
  CASE WHEN l.pricing_category IS NOT NULL OR l.billable IS NOT NULL
    THEN jsonb_build_object('category', l.pricing_category, 'billable', l.billable) END,
  l.sent_by, l.request, l.response, l.created_at, l.updated_at
FROM "whatsapp_logs" l;
--> statement-breakpoint
INSERT INTO "send_events" ("business_id", "channel", "send_id", "provider_message_id", "type", "occurred_at",
  "received_at", "payload")
SELECT e.business_id, 'whatsapp', s.id, e.message_id, e.status,
  CASE WHEN e.timestamp IS NOT NULL THEN to_timestamp(e.timestamp) END, e.received_at, e.payload
FROM "whatsapp_status_events" e
LEFT JOIN "sends" s ON s.business_id = e.business_id AND s.channel = 'whatsapp' AND s.provider_message_id = e.message_id
ORDER BY e.id;
--> statement-breakpoint
-- Nothing is dropped unless every row arrived.
DO $$
BEGIN
  IF (SELECT count(*) FROM "sends") <> (SELECT count(*) FROM "whatsapp_logs")
    OR (SELECT count(*) FROM "send_events") <> (SELECT count(*) FROM "whatsapp_status_events") THEN
    RAISE EXCEPTION 'send spine migration: row counts differ; nothing was changed';
  END IF;
END $$;
--> statement-breakpoint
DROP TABLE "whatsapp_logs";
--> statement-breakpoint
DROP TABLE "whatsapp_status_events";
