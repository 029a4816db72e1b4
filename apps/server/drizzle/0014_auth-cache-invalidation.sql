-- Auth cache invalidation: each instance remembers for a few seconds that a session is live and
-- which role its user holds in a business. These triggers announce, on "titan_changes", every change
-- that can alter that answer, so all instances drop it at once. The payload is the row as it was
-- (OLD): cached answers are keyed by the old values. Users need no trigger: deleting one cascades
-- to its sessions and memberships, whose triggers fire. Inserts need none: only positive answers
-- are cached. These tables are not realtime tables (no change_log seq), so the realtime hub skips them.
CREATE OR REPLACE FUNCTION titan_notify_auth_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  rec jsonb := to_jsonb(OLD);
BEGIN
  PERFORM pg_notify(
    'titan_changes',
    json_build_object(
      'table', TG_TABLE_NAME,
      'op', TG_OP,
      'id', rec->>'id',
      'business_id', rec->>'business_id',
      'conversation_id', NULL,
      'user_id', rec->>'user_id'
    )::text
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_auth AFTER UPDATE OF revoked_at, expires_at, user_id OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER memberships_notify_auth AFTER UPDATE OF role, business_id, user_id OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER businesses_notify_auth AFTER UPDATE OF unique_code OR DELETE ON businesses
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();
