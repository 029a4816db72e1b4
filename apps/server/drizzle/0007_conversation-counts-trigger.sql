-- Keeps conversation_counts exact. An update that moves a row between buckets touches the two
-- bucket rows in key order, so concurrent moves in opposite directions cannot deadlock.
CREATE OR REPLACE FUNCTION titan_bump_conversation_count(b bigint, s text, r boolean, br boolean, c text, delta integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO conversation_counts AS cc (business_id, status, is_read, business_replied, channel, n)
  VALUES (b, s, r, br, c, delta)
  ON CONFLICT (business_id, status, is_read, business_replied, channel)
  DO UPDATE SET n = cc.n + excluded.n;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION titan_count_conversations() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_key text;
  new_key text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM titan_bump_conversation_count(NEW.business_id, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM titan_bump_conversation_count(OLD.business_id, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel, -1);
  ELSE
    old_key := concat_ws('|', OLD.business_id, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel);
    new_key := concat_ws('|', NEW.business_id, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel);
    IF old_key = new_key THEN
      RETURN NULL;
    END IF;
    IF old_key < new_key THEN
      PERFORM titan_bump_conversation_count(OLD.business_id, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel, -1);
      PERFORM titan_bump_conversation_count(NEW.business_id, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
    ELSE
      PERFORM titan_bump_conversation_count(NEW.business_id, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
      PERFORM titan_bump_conversation_count(OLD.business_id, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel, -1);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER conversations_count AFTER INSERT OR UPDATE OR DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION titan_count_conversations();
--> statement-breakpoint
-- Rebuilds one business's counts from the rows (after bulk loads that bypass triggers).
CREATE OR REPLACE FUNCTION titan_rebuild_conversation_counts(b bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM conversation_counts WHERE business_id = b;
  INSERT INTO conversation_counts (business_id, status, is_read, business_replied, channel, n)
  SELECT business_id, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b
  GROUP BY business_id, status, is_read, business_replied, channel;
$$;
--> statement-breakpoint
INSERT INTO conversation_counts (business_id, status, is_read, business_replied, channel, n)
SELECT business_id, status, is_read, business_replied, channel, count(*)
FROM conversations
GROUP BY business_id, status, is_read, business_replied, channel;
