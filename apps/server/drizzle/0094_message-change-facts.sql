-- The change feed's announcement of a message names who wrote it and what it is (sender_type,
-- message_type and, for an activity line, meta_data's action), so the instance's listeners can pass
-- by what does not concern them without reading the row: the away-message responder looks only at
-- customers' messages and resolves, the notifications at notes, assignments, SLA breaches and
-- customers' messages, the AI responder's loop wakes only for a customer's message. Before, every
-- instance read every new message once per listener (auto-assigning 1,000 conversations on two
-- instances made 6,000 such reads). The change_log row is unchanged; conversations' announcements are
-- as before. Everything else as in 0004.
CREATE OR REPLACE FUNCTION titan_log_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec jsonb;
  old_lma timestamptz;
  next_seq bigint;
  is_message boolean := TG_TABLE_NAME IN ('messages', 'wa_messages');
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
      'old_last_message_at', old_lma,
      'sender_type', CASE WHEN is_message THEN rec->>'sender_type' END,
      'message_type', CASE WHEN is_message THEN rec->>'message_type' END,
      'action', CASE WHEN is_message THEN left(rec->'meta_data'->>'action', 64) END
    )::text
  );
  RETURN NULL;
END;
$$;
