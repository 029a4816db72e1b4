-- Customers' phones in E.164 (+12015550123), the form every write now stores and inbound SMS and
-- WhatsApp match on: a phone kept as typed ("+1 (201) 555-0123") was never found by a text from
-- it. Only what reads one way is converted; anything else stays as it was, never lost, and
-- `select id, business_id, phone from customers where phone !~ '^\+[1-9][0-9]{6,14}$'` lists it.
-- There is no unique index on (business_id, phone): two customers may now share a number, as they
-- could before (inbound texts take the oldest; an opt-out marks them all). Suppression addresses
-- of SMS and WhatsApp are converted the same way, skipping any that would repeat an address the
-- list already holds (it is suppressed either way).
CREATE FUNCTION titan_0042_e164(phone text, dial_code text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  -- "+44 (0)20 …": the national prefix written beside the country code is not dialled.
  cleaned text := regexp_replace(
    regexp_replace(btrim(phone), '^(\+[0-9]{1,3})[[:space:]]*\(0\)', '\1'),
    '[[:space:]().-]', '', 'g');
  dial text := regexp_replace(coalesce(btrim(dial_code), ''), '^\+', '');
  result text;
BEGIN
  IF cleaned ~ '^00[1-9]' THEN
    cleaned := '+' || substr(cleaned, 3);
  END IF;
  IF cleaned ~ '^\+' THEN
    result := cleaned;
  ELSIF cleaned ~ '^[0-9]+$' AND dial ~ '^[1-9][0-9]{0,3}$' THEN
    IF dial = '1' THEN
      -- North America: ten digits, or eleven with the trunk prefix 1.
      result := CASE
        WHEN cleaned ~ '^[2-9][0-9]{9}$' THEN '+1' || cleaned
        WHEN cleaned ~ '^1[2-9][0-9]{9}$' THEN '+' || cleaned
      END;
    ELSIF dial IN ('39', '378', '379') THEN
      -- Italy, San Marino, Vatican: the leading 0 of a landline is part of the number.
      result := '+' || dial || cleaned;
    ELSIF dial = '7' AND cleaned ~ '^8[0-9]{10}$' THEN
      result := '+7' || substr(cleaned, 2);
    ELSIF dial = '36' AND cleaned ~ '^06' THEN
      result := '+36' || substr(cleaned, 3);
    ELSE
      -- Elsewhere a national number starts with the trunk prefix 0, not dialled from abroad.
      result := '+' || dial || regexp_replace(cleaned, '^0', '');
    END IF;
  END IF;
  RETURN CASE WHEN result ~ '^\+[1-9][0-9]{6,14}$' THEN result ELSE phone END;
END
$$;
--> statement-breakpoint
UPDATE customers SET phone = NULL WHERE phone IS NOT NULL AND btrim(phone) = '';
--> statement-breakpoint
UPDATE customers c SET phone = titan_0042_e164(c.phone, b.dial_code)
FROM businesses b
WHERE b.id = c.business_id
  AND c.phone IS NOT NULL
  AND c.phone !~ '^\+[1-9][0-9]{6,14}$'
  AND titan_0042_e164(c.phone, b.dial_code) <> c.phone;
--> statement-breakpoint
-- An address already in E.164 converts to itself, so no row takes an address another row is
-- leaving in this statement; of several that convert to one address, the oldest takes it.
WITH converted AS (
  SELECT s.id, s.business_id, s.channel, titan_0042_e164(s.address, b.dial_code) AS address,
    row_number() OVER (
      PARTITION BY s.business_id, s.channel, titan_0042_e164(s.address, b.dial_code) ORDER BY s.id
    ) AS nth
  FROM suppressions s JOIN businesses b ON b.id = s.business_id
  WHERE s.channel IN ('sms', 'whatsapp') AND s.address !~ '^\+[1-9][0-9]{6,14}$'
)
UPDATE suppressions s SET address = v.address
FROM converted v
WHERE s.id = v.id
  AND v.nth = 1
  AND v.address <> s.address
  AND NOT EXISTS (
    SELECT 1 FROM suppressions o
    WHERE o.business_id = v.business_id AND o.channel = v.channel AND o.address = v.address
  );
--> statement-breakpoint
DROP FUNCTION titan_0042_e164(text, text);
