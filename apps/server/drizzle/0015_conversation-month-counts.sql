-- Month rows in conversation_day_counts: axis 'cm' (UTC month of created_at) and 'lm' (UTC month
-- of last_message_at), day = the month's first day. A year-long range then sums whole months and
-- only the days of its two edge months, instead of every day row of the year.
-- Writers wait from here to commit, so the backfill below sees every conversation and no write
-- lands uncounted between it and the new trigger function taking over.
LOCK TABLE conversations IN SHARE MODE;
--> statement-breakpoint
-- A conversation's bucket day on axis a; null (no last message) means not counted on that axis.
CREATE OR REPLACE FUNCTION titan_conversation_bucket_day(a text, created timestamptz, last_message timestamptz)
RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE a
    WHEN 'c' THEN (created AT TIME ZONE 'UTC')::date
    WHEN 'l' THEN (last_message AT TIME ZONE 'UTC')::date
    WHEN 'cm' THEN date_trunc('month', created AT TIME ZONE 'UTC')::date
    WHEN 'lm' THEN date_trunc('month', last_message AT TIME ZONE 'UTC')::date
  END;
$$;
--> statement-breakpoint
-- Same discipline as before on four axes: a moved row touches its two bucket rows in primary-key
-- order, axes always in the order below, so concurrent moves cannot deadlock.
CREATE OR REPLACE FUNCTION titan_count_conversation_days() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ax text;
  old_day date;
  new_day date;
  same_filters boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    same_filters := (OLD.business_id, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel)
      IS NOT DISTINCT FROM (NEW.business_id, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel);
    -- Most updates are a message on the day of the previous one: no bucket moves, nothing to write.
    -- Equal days mean equal months, so this one test covers all four axes.
    IF same_filters
      AND (OLD.created_at AT TIME ZONE 'UTC')::date = (NEW.created_at AT TIME ZONE 'UTC')::date
      AND (OLD.last_message_at AT TIME ZONE 'UTC')::date
        IS NOT DISTINCT FROM (NEW.last_message_at AT TIME ZONE 'UTC')::date THEN
      RETURN NULL;
    END IF;
  END IF;
  FOREACH ax IN ARRAY ARRAY['c', 'l', 'cm', 'lm'] LOOP
    old_day := NULL;
    new_day := NULL;
    IF TG_OP <> 'INSERT' THEN
      old_day := titan_conversation_bucket_day(ax, OLD.created_at, OLD.last_message_at);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      new_day := titan_conversation_bucket_day(ax, NEW.created_at, NEW.last_message_at);
    END IF;
    -- Only axes whose bucket changed: a new day in the same month moves the day row, not the month's.
    CONTINUE WHEN same_filters AND old_day IS NOT DISTINCT FROM new_day;
    IF new_day IS NOT NULL AND (old_day IS NULL OR
        (NEW.business_id, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel)
        < (OLD.business_id, old_day, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel)) THEN
      PERFORM titan_bump_conversation_day(NEW.business_id, ax, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
      new_day := NULL;
    END IF;
    IF old_day IS NOT NULL THEN
      PERFORM titan_bump_conversation_day(OLD.business_id, ax, old_day, OLD.status, OLD.is_read, OLD.business_replied, OLD.channel, -1);
    END IF;
    IF new_day IS NOT NULL THEN
      PERFORM titan_bump_conversation_day(NEW.business_id, ax, new_day, NEW.status, NEW.is_read, NEW.business_replied, NEW.channel, 1);
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Rebuilds one business's counts, all kinds, from the rows (after bulk loads that bypass triggers).
CREATE OR REPLACE FUNCTION titan_rebuild_conversation_counts(b bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM conversation_counts WHERE business_id = b;
  INSERT INTO conversation_counts (business_id, status, is_read, business_replied, channel, n)
  SELECT business_id, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b
  GROUP BY business_id, status, is_read, business_replied, channel;
  DELETE FROM conversation_day_counts WHERE business_id = b;
  INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
  SELECT business_id, 'c', (created_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
  SELECT business_id, 'l', (last_message_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
  FROM conversations WHERE business_id = b AND last_message_at IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
  -- Month rows summed from the day rows just written ('c' → 'cm', 'l' → 'lm'): at most a few
  -- thousand rows to read instead of every conversation again.
  INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
  SELECT business_id, axis || 'm', date_trunc('month', day::timestamp)::date, status, is_read, business_replied, channel, sum(n)
  FROM conversation_day_counts WHERE business_id = b AND axis IN ('c', 'l')
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
$$;
--> statement-breakpoint
INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
SELECT business_id, 'cm', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
FROM conversations GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO conversation_day_counts (business_id, axis, day, status, is_read, business_replied, channel, n)
SELECT business_id, 'lm', date_trunc('month', last_message_at AT TIME ZONE 'UTC')::date, status, is_read, business_replied, channel, count(*)
FROM conversations WHERE last_message_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
