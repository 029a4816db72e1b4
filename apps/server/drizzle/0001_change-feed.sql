-- Change feed: realtime tables attach this trigger; every committed change is announced on the
-- "titan_changes" channel, which every app instance LISTENs to. The payload stays small (ids only)
-- because NOTIFY payloads are capped at 8000 bytes; listeners load the row themselves.
CREATE OR REPLACE FUNCTION titan_notify_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN
    rec := to_jsonb(OLD);
  ELSE
    rec := to_jsonb(NEW);
  END IF;
  PERFORM pg_notify(
    'titan_changes',
    json_build_object(
      'table', TG_TABLE_NAME,
      'op', TG_OP,
      'id', rec->>'id',
      'business_id', rec->>'business_id',
      'conversation_id', rec->>'conversation_id'
    )::text
  );
  RETURN NULL;
END;
$$;
