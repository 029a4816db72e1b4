-- Visitor tokens can be revoked: a token carries the customer's visitor_token_version when signed
-- and is refused once the version moved on (staff ended the visitor's session). Existing rows
-- start at 0, which is also what tokens signed before this column existed count as, so they keep
-- working until revoked. Adding a column with a constant default rewrites no rows.
ALTER TABLE customers ADD COLUMN visitor_token_version integer NOT NULL DEFAULT 0;
--> statement-breakpoint
-- Announce revocations (a bumped version, or the customer deleted) on "titan_changes" like the
-- session and membership triggers of 0014, so every instance closes that visitor's sockets at once.
CREATE TRIGGER customers_notify_auth AFTER UPDATE OF visitor_token_version OR DELETE ON customers
  FOR EACH ROW EXECUTE FUNCTION titan_notify_auth_change();
