-- Customers' WhatsApp media (image, video, audio, document, sticker) are files: message_type 'file',
-- as inbound processing now stores them. Rows stored before this said 'text'.
UPDATE "wa_messages" SET "message_type" = 'file'
WHERE "sender_type" = 'customer'
  AND "message_type" = 'text'
  AND "meta_data"->>'type' IN ('image', 'video', 'audio', 'document', 'sticker');
