// The only code writing conversation_away_replies, conversation_sla_alerts and csat_surveys (issue 29):
// part of the conversations module, whose tables they hang from.
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';
import {
  conversationAwayReplies,
  conversationSlaAlerts,
  csatSurveys,
  messages,
  waMessages,
} from '../../db/schema';
import { slaDue } from './sla';

/** Claims the away reply of one closed period: false when it was already sent (by any instance). */
export async function claimAwayReply(
  db: Queryable,
  businessId: number,
  conversationId: number,
  period: string,
): Promise<boolean> {
  const rows = await db
    .insert(conversationAwayReplies)
    .values({ businessId, conversationId, period })
    .onConflictDoNothing()
    .returning({ id: conversationAwayReplies.conversationId });
  return rows.length === 1;
}

/** Who wrote a message the feed announced, what it is and its details (null: not found). */
export async function messageInfo(
  db: Queryable,
  table: 'messages' | 'wa_messages',
  businessId: number,
  id: string,
): Promise<{ senderType: string; messageType: string; metaData: Record<string, unknown> } | null> {
  if (table === 'messages') {
    if (!/^\d+$/.test(id)) return null;
    const [row] = await db
      .select({
        senderType: messages.senderType,
        messageType: messages.messageType,
        metaData: messages.metaData,
      })
      .from(messages)
      .where(and(eq(messages.id, Number(id)), eq(messages.businessId, businessId)))
      .limit(1);
    return row ?? null;
  }
  const [row] = await db
    .select({
      senderType: waMessages.senderType,
      messageType: waMessages.messageType,
      metaData: waMessages.metaData,
    })
    .from(waMessages)
    .where(and(eq(waMessages.id, id), eq(waMessages.businessId, businessId)))
    .limit(1);
  return row ?? null;
}

export type SlaBreach = {
  conversationId: number;
  businessId: number;
  assigneeId: number | null;
  chatGroupId: number;
  title: string;
  kind: 'first_response' | 'resolution';
  dueAt: Date;
};

/**
 * Open conversations whose first-response or resolution deadline passed before `now` and whose
 * breach was not alerted yet, oldest deadline first.
 */
export async function findUnalertedBreaches(db: Queryable, now: Date, limit = 200): Promise<SlaBreach[]> {
  const fr = slaDue('first_response_minutes');
  const rd = slaDue('resolution_minutes');
  const at = now.toISOString();
  const rows = await rowsOf<{
    conversation_id: string | number;
    business_id: string | number;
    assignee_id: string | number | null;
    chat_group_id: string | number;
    title: string;
    kind: SlaBreach['kind'];
    due_at: string | Date;
  }>(
    db,
    sql`select * from (
      select "conversations"."id" as conversation_id, "conversations"."business_id",
        "conversations"."assignee_id", "conversations"."assigned_chat_group_id" as chat_group_id,
        "conversations"."title", k.kind, k.due_at
      from "conversations"
      join "chat_groups" on "chat_groups"."id" = "conversations"."assigned_chat_group_id"
      cross join lateral (values
        ('first_response', case when "conversations"."first_response_at" is null then ${fr} end),
        ('resolution', ${rd})) as k(kind, due_at)
      where "chat_groups"."sla" is not null and "conversations"."status" <> 'resolved'
    ) due
    where due.due_at is not null and due.due_at < ${at}::timestamptz
      and not exists (select 1 from conversation_sla_alerts a
        where a.conversation_id = due.conversation_id and a.kind = due.kind and a.due_at = due.due_at)
    order by due.due_at limit ${limit}`,
  );
  return rows.map((r) => ({
    conversationId: Number(r.conversation_id),
    businessId: Number(r.business_id),
    assigneeId: r.assignee_id === null ? null : Number(r.assignee_id),
    chatGroupId: Number(r.chat_group_id),
    title: r.title,
    kind: r.kind,
    dueAt: new Date(r.due_at),
  }));
}

/** Claims one breach's alert: false when another instance (or an earlier pass) alerted it. */
export async function claimSlaAlert(db: Queryable, breach: SlaBreach): Promise<boolean> {
  const rows = await db
    .insert(conversationSlaAlerts)
    .values({
      conversationId: breach.conversationId,
      businessId: breach.businessId,
      kind: breach.kind,
      dueAt: breach.dueAt,
    })
    .onConflictDoNothing()
    .returning({ id: conversationSlaAlerts.conversationId });
  return rows.length === 1;
}

export type CsatRow = typeof csatSurveys.$inferSelect;

export async function insertCsatSurvey(db: Queryable, values: typeof csatSurveys.$inferInsert) {
  const [row] = await db.insert(csatSurveys).values(values).returning();
  return row!;
}

export async function findCsatByToken(db: Queryable, token: string): Promise<CsatRow | null> {
  const [row] = await db.select().from(csatSurveys).where(eq(csatSurveys.token, token)).limit(1);
  return row ?? null;
}

export async function findLatestCsatOf(db: Queryable, conversationId: number): Promise<CsatRow | null> {
  const [row] = await db
    .select()
    .from(csatSurveys)
    .where(eq(csatSurveys.conversationId, conversationId))
    .orderBy(sql`${csatSurveys.id} desc`)
    .limit(1);
  return row ?? null;
}

export async function answerCsat(
  db: Queryable,
  id: number,
  answer: { rating: number; comment: string | null },
  at: Date,
): Promise<CsatRow | null> {
  const [row] = await db
    .update(csatSurveys)
    .set({ rating: answer.rating, comment: answer.comment, answeredAt: at })
    .where(eq(csatSurveys.id, id))
    .returning();
  return row ?? null;
}

type LevelRow = {
  key: string | number;
  name: string;
  conversations: number;
  frt: string | number | null;
  rt: string | number | null;
  csat: string | number | null;
  csat_n: number;
};

const toLevel = (r: LevelRow) => ({
  key: Number(r.key),
  name: r.name,
  conversations: Number(r.conversations),
  first_response_seconds: r.frt === null ? null : Math.round(Number(r.frt)),
  resolution_seconds: r.rt === null ? null : Math.round(Number(r.rt)),
  csat_average: r.csat === null ? null : Math.round(Number(r.csat) * 100) / 100,
  csat_responses: Number(r.csat_n),
});

/**
 * Service levels per member (assignee) and per chat group, over conversations opened or reopened
 * in the range: average first response and resolution, and the CSAT of their surveys answered.
 */
export async function serviceLevels(db: Queryable, businessId: number, range: { from: Date; to: Date }) {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const per = (
    column: 'assignee_id' | 'assigned_chat_group_id',
    name: ReturnType<typeof sql>,
    join: ReturnType<typeof sql>,
  ) =>
    rowsOf<LevelRow>(
      db,
      sql`with c as (
          select c.id, c.${sql.raw(column)} as key,
            extract(epoch from c.first_response_at - coalesce(c.opened_at, c.created_at)) as frt,
            case when c.status = 'resolved' then extract(epoch from c.resolved_at - coalesce(c.opened_at, c.created_at)) end as rt
          from conversations c
          where c.business_id = ${businessId} and c.${sql.raw(column)} is not null
            and coalesce(c.opened_at, c.created_at) between ${from}::timestamptz and ${to}::timestamptz),
        s as (
          select ${sql.raw(column === 'assignee_id' ? 'assignee_id' : 'chat_group_id')} as key,
            avg(rating) as csat, count(rating)::int as csat_n
          from csat_surveys
          where business_id = ${businessId} and answered_at is not null
            and created_at between ${from}::timestamptz and ${to}::timestamptz
          group by 1),
        k as (select key from c union select key from s where key is not null)
      select k.key, ${name} as name,
        (select count(*)::int from c where c.key = k.key) as conversations,
        (select avg(frt) from c where c.key = k.key) as frt,
        (select avg(rt) from c where c.key = k.key) as rt,
        s.csat, coalesce(s.csat_n, 0) as csat_n
      from k left join s on s.key = k.key ${join}
      order by 2, 1`,
    );
  const [members, groups] = await Promise.all([
    per(
      'assignee_id',
      sql`coalesce(nullif(btrim(u.first_name || ' ' || u.last_name), ''), u.email, '')`,
      sql`left join users u on u.id = k.key`,
    ),
    per(
      'assigned_chat_group_id',
      sql`coalesce(g.name, '')`,
      sql`left join chat_groups g on g.id = k.key and g.business_id = ${businessId}`,
    ),
  ]);
  return { members: members.map(toLevel), groups: groups.map(toLevel) };
}
