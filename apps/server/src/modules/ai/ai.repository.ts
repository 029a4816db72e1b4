// The only code that writes ai_runs.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { TAiRunStep } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { aiRuns } from '../../db/schema';
import { rowsOf } from '../../db/sql';

export type AiRunRow = typeof aiRuns.$inferSelect;

export async function insertRun(
  db: Queryable,
  row: Pick<typeof aiRuns.$inferInsert, 'businessId' | 'conversationId' | 'kind' | 'createdBy'>,
): Promise<AiRunRow> {
  const [created] = await db.insert(aiRuns).values(row).returning();
  return created!;
}

/** A run's end: its outcome, steps and tokens. */
export async function finishRun(
  db: Queryable,
  id: string,
  values: {
    status: AiRunRow['status'];
    outcome: string | null;
    steps: TAiRunStep[];
    promptTokens: number;
    completionTokens: number;
  },
): Promise<void> {
  await db
    .update(aiRuns)
    .set({ ...values, finishedAt: new Date() })
    .where(eq(aiRuns.id, id));
}

export async function findRun(db: Queryable, businessId: number, id: string): Promise<AiRunRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(aiRuns)
    .where(and(eq(aiRuns.businessId, businessId), eq(aiRuns.id, id)));
  return row;
}

/** Tokens the business's AI runs (of `kind`, when named) spent since `since`. */
export async function tokensSince(
  db: Queryable,
  businessId: number,
  since: Date,
  kind?: AiRunRow['kind'],
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${aiRuns.promptTokens} + ${aiRuns.completionTokens}), 0)::int` })
    .from(aiRuns)
    .where(
      and(
        eq(aiRuns.businessId, businessId),
        sql`${aiRuns.createdAt} >= ${since}`,
        kind ? eq(aiRuns.kind, kind) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** How long a responder run holds its claim before recovery may take it (renewed while it works). */
export const RUN_LEASE_MS = 2 * 60 * 1000;

export type AwaitingMessage = {
  /** The customer message: a widget, SMS or email message by id, a WhatsApp one by its wamid. */
  trigger: { kind: 'message'; id: number } | { kind: 'wa'; id: string };
  conversationId: number;
  businessId: number;
  chatGroupId: number;
};

/**
 * Claims the responder's run for a customer message: once per message (the partial unique indexes:
 * a widget, SMS or email message by id, a WhatsApp message by the business's wamid), so two
 * instances or a retried pass never answer it twice. Null: already claimed. The run holds a lease.
 */
export async function claimResponderRun(
  db: Queryable,
  row: { businessId: number; conversationId: number; trigger: AwaitingMessage['trigger'] },
  now = new Date(),
): Promise<AiRunRow | null> {
  const [created] = await db
    .insert(aiRuns)
    .values({
      businessId: row.businessId,
      conversationId: row.conversationId,
      kind: 'responder',
      ...(row.trigger.kind === 'wa'
        ? { triggerWaMessageId: row.trigger.id }
        : { triggerMessageId: row.trigger.id }),
      lockedUntil: new Date(now.getTime() + RUN_LEASE_MS),
    })
    .onConflictDoNothing()
    .returning();
  return created ?? null;
}

/** Keeps a run's lease while it works (false: it is finished, or was taken up again meanwhile). */
export async function renewLease(db: Queryable, id: string, attempts: number): Promise<boolean> {
  const rows = await db
    .update(aiRuns)
    .set({ lockedUntil: new Date(Date.now() + RUN_LEASE_MS) })
    .where(and(eq(aiRuns.id, id), eq(aiRuns.status, 'running'), eq(aiRuns.attempts, attempts)))
    .returning({ id: aiRuns.id });
  return rows.length === 1;
}

/**
 * Responder runs whose process stopped: still running with their lease run out. Each is taken by
 * one caller (its attempts counted up and a new lease, under `for update skip locked`): the one
 * that took it resolves it.
 */
export async function takeInterruptedRuns(db: Queryable, now: Date, limit: number): Promise<AiRunRow[]> {
  const lease = new Date(now.getTime() + RUN_LEASE_MS);
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`update ai_runs set attempts = attempts + 1, locked_until = ${lease}
      where id in (select id from ai_runs
        where status = 'running' and kind = 'responder' and locked_until < ${now}
        order by locked_until limit ${limit} for update skip locked)
      returning id`,
  );
  if (rows.length === 0) return [];
  return db
    .select()
    .from(aiRuns)
    .where(
      sql`${aiRuns.id} in (${sql.join(
        rows.map((r) => sql`${r.id}::uuid`),
        sql`, `,
      )})`,
    );
}

/** The conversations the responder may hold: in a group whose responder is on for their channel. */
const heldByResponder = sql`c.awaiting_assignment_at is not null and c.assignee_id is null
        and c.status = 'active' and c.ai_handed_off_at is null
        and g.ai_responder->>'mode' in ('always', 'after_hours')
        and (g.ai_responder->'channels') @> jsonb_build_array(
          case when c.channel = 'titan_message' then 'widget' else c.channel end)
        and (g.ai_responder->>'mode' = 'always' or not exists (
          select 1 from chat_group_members gm
          join user_presence p on p.user_id = gm.user_id and p.status = 'online'
          where gm.group_id = g.id))`;

/**
 * Customer messages the first responder should answer: the newest message of a conversation the AI
 * holds (active, waiting for a person, not handed off since it was last opened) in a group whose
 * responder is on for the conversation's channel — always, or after hours while none of the
 * group's members is online — written since `since`, and not yet claimed. Widget, SMS and email
 * messages live in `messages`, WhatsApp's in `wa_messages`. Oldest first. Reads the inbox's tables;
 * writes none.
 */
export async function messagesAwaitingResponder(
  db: Queryable,
  opts: { since: Date; limit: number },
): Promise<AwaitingMessage[]> {
  const rows = await rowsOf<{
    message_id: string | number | null;
    wa_message_id: string | null;
    conversation_id: string | number;
    business_id: string | number;
    chat_group_id: string | number;
    created_at: string | Date;
  }>(
    db,
    // The groups whose responder is on come first (few, usually none): their waiting conversations
    // are found through conversations_awaiting_assignment_idx. Joined the other way, every pass —
    // one per customer message — read every conversation waiting for a person, in any group or none.
    sql`with g as materialized (
        select id, ai_responder from chat_groups where ai_responder->>'mode' in ('always', 'after_hours')
      )
      (select m.id as message_id, null::text as wa_message_id, c.id as conversation_id, c.business_id,
        c.assigned_chat_group_id as chat_group_id, m.created_at
      from g
      join conversations c on c.assigned_chat_group_id = g.id and c.awaiting_assignment_at is not null
      join lateral (
        select x.id, x.sender_type, x.message_type, x.created_at from messages x
        where x.conversation_id = c.id and x.message_type in ('text', 'file')
        order by x.id desc limit 1
      ) m on true
      where c.channel <> 'whatsapp' and ${heldByResponder}
        and m.sender_type = 'customer' and m.message_type = 'text' and m.created_at >= ${opts.since}
        and not exists (select 1 from ai_runs r where r.trigger_message_id = m.id and r.kind = 'responder')
      order by m.id
      limit ${opts.limit})
      union all
      (select null, w.id, c.id, c.business_id, c.assigned_chat_group_id, w.created_at
      from g
      join conversations c on c.assigned_chat_group_id = g.id and c.awaiting_assignment_at is not null
      join lateral (
        select x.id, x.sender_type, x.message_type, x.created_at from wa_messages x
        where x.conversation_id = c.id and x.message_type in ('text', 'file')
        order by x.position desc limit 1
      ) w on true
      where c.channel = 'whatsapp' and ${heldByResponder}
        and w.sender_type = 'customer' and w.message_type = 'text' and w.created_at >= ${opts.since}
        and not exists (select 1 from ai_runs r where r.business_id = c.business_id
          and r.trigger_wa_message_id = w.id and r.kind = 'responder')
      order by w.created_at
      limit ${opts.limit})`,
  );
  return rows
    .map((r) => ({
      trigger:
        r.wa_message_id !== null
          ? { kind: 'wa' as const, id: r.wa_message_id }
          : { kind: 'message' as const, id: Number(r.message_id) },
      conversationId: Number(r.conversation_id),
      businessId: Number(r.business_id),
      chatGroupId: Number(r.chat_group_id),
      at: new Date(r.created_at).getTime(),
    }))
    .sort((a, b) => a.at - b.at)
    .slice(0, opts.limit)
    .map(({ at: _at, ...m }) => m);
}

/** How many times the responder answered in the conversation since it was last (re)opened. */
export async function answeredTurns(db: Queryable, conversationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(aiRuns)
    .where(
      and(
        eq(aiRuns.conversationId, conversationId),
        eq(aiRuns.kind, 'responder'),
        eq(aiRuns.status, 'answered'),
        sql`${aiRuns.createdAt} >= (select coalesce(c.opened_at, c.created_at) from conversations c
          where c.id = ${conversationId})`,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Staff's rating of a run (null takes it back); undefined when the business has no such run. */
export async function rateRun(
  db: Queryable,
  businessId: number,
  id: string,
  rating: { rating: AiRunRow['rating']; reason: string | null; userId: number | null },
): Promise<AiRunRow | undefined> {
  const rated = rating.rating !== null;
  const [row] = await db
    .update(aiRuns)
    .set({
      rating: rating.rating,
      ratingReason: rated ? rating.reason : null,
      ratedBy: rated ? rating.userId : null,
      ratedAt: rated ? new Date() : null,
    })
    .where(and(eq(aiRuns.businessId, businessId), eq(aiRuns.id, id)))
    .returning();
  return row;
}

export type ResponderReport = {
  runs: number;
  answered: number;
  handedOff: number;
  reasons: { reason: string; count: number }[];
  good: number;
  bad: number;
  tokens: number;
  recentBad: { id: string; conversationId: number | null; reason: string | null; ratedAt: Date }[];
};

/** The responder's runs started in [from, to), counted: outcomes, handoff reasons, ratings, tokens. */
export async function responderReport(
  db: Queryable,
  businessId: number,
  from: Date,
  to: Date,
): Promise<ResponderReport> {
  const period = and(
    eq(aiRuns.businessId, businessId),
    eq(aiRuns.kind, 'responder'),
    sql`${aiRuns.createdAt} >= ${from}`,
    sql`${aiRuns.createdAt} < ${to}`,
  );
  const [totals] = await db
    .select({
      runs: sql<number>`count(*)::int`,
      answered: sql<number>`(count(*) filter (where ${aiRuns.status} = 'answered'))::int`,
      handedOff: sql<number>`(count(*) filter (where ${aiRuns.status} = 'handed_off'))::int`,
      good: sql<number>`(count(*) filter (where ${aiRuns.rating} = 'good'))::int`,
      bad: sql<number>`(count(*) filter (where ${aiRuns.rating} = 'bad'))::int`,
      tokens: sql<number>`coalesce(sum(${aiRuns.promptTokens} + ${aiRuns.completionTokens}), 0)::int`,
    })
    .from(aiRuns)
    .where(period);
  const reasons = await db
    .select({ reason: aiRuns.outcome, count: sql<number>`count(*)::int` })
    .from(aiRuns)
    .where(and(period, eq(aiRuns.status, 'handed_off')))
    .groupBy(aiRuns.outcome)
    .orderBy(desc(sql`count(*)`), aiRuns.outcome);
  const recentBad = await db
    .select({
      id: aiRuns.id,
      conversationId: aiRuns.conversationId,
      reason: aiRuns.ratingReason,
      ratedAt: aiRuns.ratedAt,
    })
    .from(aiRuns)
    .where(and(period, eq(aiRuns.rating, 'bad')))
    .orderBy(desc(aiRuns.ratedAt))
    .limit(20);
  return {
    runs: Number(totals?.runs ?? 0),
    answered: Number(totals?.answered ?? 0),
    handedOff: Number(totals?.handedOff ?? 0),
    reasons: reasons.map((r) => ({ reason: r.reason ?? 'unknown', count: Number(r.count) })),
    good: Number(totals?.good ?? 0),
    bad: Number(totals?.bad ?? 0),
    tokens: Number(totals?.tokens ?? 0),
    recentBad: recentBad.map((r) => ({ ...r, ratedAt: r.ratedAt ?? new Date(0) })),
  };
}

/** A conversation's AI runs, newest first. */
export async function listConversationRuns(
  db: Queryable,
  businessId: number,
  conversationId: number,
): Promise<AiRunRow[]> {
  return db
    .select()
    .from(aiRuns)
    .where(and(eq(aiRuns.businessId, businessId), eq(aiRuns.conversationId, conversationId)))
    .orderBy(desc(aiRuns.createdAt))
    .limit(200);
}
