-- Email conversations (issue 30): a business's inbox addresses, one per local part of a sending
-- domain (`support@acme.com`), each optionally routed to a chat group; mail Titan's SMTP listener
-- takes for one opens or continues the sender's email conversation. Addresses are unique across
-- businesses (lower-cased), so one business's address never receives another's mail.
CREATE TABLE "email_inboxes" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE cascade,
  "domain_id" bigint NOT NULL REFERENCES "email_domains"("id") ON DELETE cascade,
  "local_part" text NOT NULL,
  "address" text NOT NULL,
  "chat_group_id" bigint REFERENCES "chat_groups"("id") ON DELETE set null,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_inboxes_address_key" ON "email_inboxes" ("address");
--> statement-breakpoint
CREATE INDEX "email_inboxes_business_idx" ON "email_inboxes" ("business_id", "id");
--> statement-breakpoint
-- Threading: an email message's Message-ID (inbound, and staff replies') finds its conversation.
CREATE INDEX "messages_email_message_id_idx" ON "messages" ("business_id", (("meta_data" ->> 'message_id'))) WHERE ("meta_data" ->> 'message_id') IS NOT NULL;
