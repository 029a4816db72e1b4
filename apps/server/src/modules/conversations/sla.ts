// A conversation's SLA clocks (issue 29): its group's targets counted from when it was (re)opened.
// One SQL expression serves the list (built by PostgreSQL) and single conversations alike; it reads
// the row of "conversations" and its joined "chat_groups" (null without a group: no targets).
// A deadline shows while it is pending (no first reply yet; not resolved yet); `breached` stays true
// once a target was missed in this opening.
import { sql, type SQL } from 'drizzle-orm';
import type { TConversationSla } from '@titan/contracts';

const iso = (value: SQL) => sql`to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The deadline of one target: the opening plus the group's minutes (null without a target). */
export const slaDue = (target: 'first_response_minutes' | 'resolution_minutes') =>
  sql`(coalesce("conversations"."opened_at", "conversations"."created_at")
    + ("chat_groups"."sla" ->> ${sql.raw(`'${target}'`)})::int * interval '1 minute')`;

export function conversationSlaJson(): SQL<TConversationSla> {
  const fr = slaDue('first_response_minutes');
  const rd = slaDue('resolution_minutes');
  const answered = sql`"conversations"."first_response_at"`;
  const resolved = sql`"conversations"."resolved_at"`;
  return sql<TConversationSla>`json_build_object(
    'first_response_due_at', case when ${answered} is null and "conversations"."status" <> 'resolved' then ${iso(fr)} end,
    'resolution_due_at', case when "conversations"."status" <> 'resolved' then ${iso(rd)} end,
    'breached', coalesce(${fr} < coalesce(${answered}, case when "conversations"."status" = 'resolved' then ${resolved} end, now()), false)
      or coalesce(${rd} < coalesce(case when "conversations"."status" = 'resolved' then ${resolved} end, now()), false))`;
}
