-- Public chat boundaries (security audit): widget identities get their own namespace, visitor
-- uploads a per-business daily allowance, and the retention jobs the indexes they delete by.
--
-- 1. Verified widget identities were stored under the embedding site's user_id as it came, in
-- the namespace of WhatsApp contacts (wa:<wa_id>): a user_id "wa:<phone>" merged into that
-- contact. Every external_id that is not a WhatsApp id is a widget identity: it becomes
-- widget:<user_id>. Ids that already start with "widget:" go first, longest first, so no rename
-- meets a value still waiting for its own (the unique index is checked row by row).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT id FROM customers
    WHERE external_id LIKE 'widget:%'
    ORDER BY length(external_id) DESC
  LOOP
    UPDATE customers SET external_id = 'widget:' || external_id WHERE id = r.id;
  END LOOP;
END;
$$;
--> statement-breakpoint
UPDATE customers SET external_id = 'widget:' || external_id
WHERE external_id IS NOT NULL AND external_id !~ '^wa:[0-9]+$' AND external_id NOT LIKE 'widget:%';
--> statement-breakpoint
-- 2. A widget identity that did merge into a WhatsApp contact (user_id "wa:<digits>") is split off
-- again: only the public chat starts titan_message conversations, so those, and the customer's
-- messages in them, move to a widget customer of their own, a copy of the contact's details. The
-- WhatsApp contact keeps its WhatsApp conversations; nothing is deleted.
INSERT INTO customers (business_id, external_id, name, email, phone, fields, created_at, updated_at, last_seen_at)
SELECT c.business_id, 'widget:' || c.external_id, c.name, c.email, c.phone, c.fields, c.created_at, now(), c.last_seen_at
FROM customers c
WHERE c.external_id ~ '^wa:[0-9]+$'
  AND EXISTS (SELECT 1 FROM conversations v WHERE v.initiator_id = c.id AND v.channel = 'titan_message')
ON CONFLICT (business_id, external_id) DO NOTHING;
--> statement-breakpoint
WITH moved AS (
  SELECT v.id AS conversation_id, c.id AS old_id, w.id AS new_id
  FROM conversations v
  JOIN customers c ON c.id = v.initiator_id AND c.external_id ~ '^wa:[0-9]+$'
  JOIN customers w ON w.business_id = c.business_id AND w.external_id = 'widget:' || c.external_id
  WHERE v.channel = 'titan_message'
), senders AS (
  UPDATE messages m SET sender_id = moved.new_id
  FROM moved
  WHERE m.conversation_id = moved.conversation_id AND m.sender_type = 'customer' AND m.sender_id = moved.old_id
  RETURNING m.id
)
UPDATE conversations v SET initiator_id = moved.new_id
FROM moved
WHERE v.id = moved.conversation_id;
--> statement-breakpoint
-- 3. What visitors uploaded per business and UTC day, against VISITOR_UPLOADS_DAILY_MB / _FILES.
CREATE TABLE "visitor_upload_days" (
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  "files" integer DEFAULT 0 NOT NULL,
  "bytes" bigint DEFAULT 0 NOT NULL,
  CONSTRAINT "visitor_upload_days_pkey" PRIMARY KEY ("business_id", "day")
);
--> statement-breakpoint
-- 4. Retention (public-retention.ts): analytics events by age, chat media by age, and whether a
-- message still holds a chat file.
CREATE INDEX "analytics_events_created_idx" ON "analytics_events" USING btree ("created_at", "id");
--> statement-breakpoint
CREATE INDEX "stored_files_chat_media_created_idx" ON "stored_files" USING btree ("created_at", "id")
  WHERE "stored_files"."key" LIKE 'public/public_chat_media/%';
--> statement-breakpoint
CREATE INDEX "messages_file_key_idx" ON "messages" USING btree (("meta_data" ->> 'key'))
  WHERE "messages"."message_type" = 'file';
