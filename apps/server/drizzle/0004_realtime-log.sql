-- Realtime: each change to a realtime table is appended to change_log (its seq numbers the event
-- for resume after reconnect) and announced on "titan_changes" with that seq. The payload holds
-- ids only (NOTIFY payloads are capped at 8000 bytes); listeners load the row themselves.
CREATE OR REPLACE FUNCTION titan_log_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec jsonb;
  old_lma timestamptz;
  next_seq bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    rec := to_jsonb(OLD);
  ELSE
    rec := to_jsonb(NEW);
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'conversations' THEN
    old_lma := OLD.last_message_at;
  END IF;
  INSERT INTO change_log (business_id, table_name, op, row_id, conversation_id, old_last_message_at)
  VALUES (
    (rec->>'business_id')::bigint,
    TG_TABLE_NAME,
    TG_OP,
    rec->>'id',
    CASE WHEN TG_TABLE_NAME = 'conversations' THEN (rec->>'id')::bigint ELSE (rec->>'conversation_id')::bigint END,
    old_lma
  )
  RETURNING seq INTO next_seq;
  PERFORM pg_notify(
    'titan_changes',
    json_build_object(
      'seq', next_seq,
      'table', TG_TABLE_NAME,
      'op', TG_OP,
      'id', rec->>'id',
      'business_id', rec->>'business_id',
      'conversation_id', CASE WHEN TG_TABLE_NAME = 'conversations' THEN rec->>'id' ELSE rec->>'conversation_id' END,
      'old_last_message_at', old_lma
    )::text
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER conversations_log_change AFTER INSERT OR UPDATE ON conversations
  FOR EACH ROW EXECUTE FUNCTION titan_log_change();
--> statement-breakpoint
CREATE TRIGGER messages_log_change AFTER INSERT OR UPDATE ON messages
  FOR EACH ROW EXECUTE FUNCTION titan_log_change();
--> statement-breakpoint
CREATE TRIGGER wa_messages_log_change AFTER INSERT OR UPDATE ON wa_messages
  FOR EACH ROW EXECUTE FUNCTION titan_log_change();
