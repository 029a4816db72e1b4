// Email metrics, and a campaign's results (modules/campaigns): its broadcasts' sends and their
// events. Part of the send spine's repository (sends.repository.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { broadcasts, sendEvents, sends, type SendChannel } from '../../db/schema';
import { SEND_OUTCOME_STATUSES } from '@titan/contracts';
import { rowsOf } from '../../db/sql';

/** Statuses of an email the mail server accepted. */
const EMAIL_DELIVERED = SEND_OUTCOME_STATUSES.email.delivered;
const EMAIL_SENT = [...EMAIL_DELIVERED, 'bounced'];

/** `s.status in (…)` over a fixed list of statuses (never empty: an empty list matches nothing). */
export function statusIn(statuses: readonly string[]): SQL {
  if (statuses.length === 0) return sql`false`;
  return sql`s.status in (${sql.join(
    statuses.map((st) => sql`${st}`),
    sql`, `,
  )})`;
}

export type EmailMetricsDayRow = {
  date: string;
  sent: number;
  delivered: number;
  opened: number;
  opened_human: number;
  clicked: number;
  clicked_human: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
};

/**
 * A business's email sends created in [from, to], counted per UTC day of creation: one statement
 * over the sends (their index on business, channel, created_at) and their opens, clicks and
 * unsubscribes (by send id). A send counts once per measure however often it was opened; a click
 * is also an open; machine hits count in the totals, not in the `_human` ones.
 */
export async function emailMetricsByDay(
  db: Queryable,
  businessId: number,
  filter: { from: Date; to: Date; templateId?: number; agentId?: string; timeZone?: string },
): Promise<EmailMetricsDayRow[]> {
  const tz = filter.timeZone ?? 'UTC';
  const where: SQL[] = [
    sql`s.business_id = ${businessId}`,
    sql`s.channel = 'email'`,
    sql`s.created_at >= ${filter.from.toISOString()}::timestamptz`,
    sql`s.created_at <= ${filter.to.toISOString()}::timestamptz`,
  ];
  if (filter.templateId !== undefined) where.push(sql`s.template_id = ${filter.templateId}`);
  // An agent's sends carry its run's id (cause_id), not the agent's.
  if (filter.agentId !== undefined)
    where.push(sql`s.cause = 'agent' and s.cause_id in (select r.id::text from agent_runs r
      where r.business_id = ${businessId} and r.agent_id::text = ${filter.agentId})`);
  const rows = await rowsOf<Record<keyof EmailMetricsDayRow, string | number>>(
    db,
    sql`with s as (
        select s.id, s.status, to_char(s.created_at at time zone ${tz}, 'YYYY-MM-DD') as day
        from sends s where ${sql.join(where, sql` and `)}
      ), e as (
        select e.send_id,
          bool_or(e.type in ('opened', 'clicked')) as opened,
          bool_or(e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)) as opened_human,
          bool_or(e.type = 'clicked') as clicked,
          bool_or(e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)) as clicked_human,
          bool_or(e.type = 'unsubscribed') as unsubscribed
        from send_events e join s on s.id = e.send_id
        where e.type in ('opened', 'clicked', 'unsubscribed')
        group by e.send_id
      )
      select s.day as date,
        count(*) filter (where ${statusIn(EMAIL_SENT)})::int as sent,
        count(*) filter (where ${statusIn(EMAIL_DELIVERED)})::int as delivered,
        count(*) filter (where e.opened)::int as opened,
        count(*) filter (where e.opened_human)::int as opened_human,
        count(*) filter (where e.clicked)::int as clicked,
        count(*) filter (where e.clicked_human)::int as clicked_human,
        count(*) filter (where s.status = 'bounced')::int as bounced,
        count(*) filter (where s.status = 'complained')::int as complained,
        count(*) filter (where e.unsubscribed)::int as unsubscribed
      from s left join e on e.send_id = s.id
      group by s.day order by s.day`,
  );
  return rows.map((r) => ({
    date: String(r.date),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    opened: Number(r.opened),
    opened_human: Number(r.opened_human),
    clicked: Number(r.clicked),
    clicked_human: Number(r.clicked_human),
    bounced: Number(r.bounced),
    complained: Number(r.complained),
    unsubscribed: Number(r.unsubscribed),
  }));
}

// ---- A campaign's results (modules/campaigns): its broadcasts' sends and their events ----

export type CampaignSendTotals = {
  sent: number;
  delivered: number;
  opened: number;
  opened_machine: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  replied: number;
  failed: number;
};

/**
 * What happened to the sends of some broadcasts (a campaign's), per broadcast: the same rows and
 * events the send log shows. A send counts once per figure however many events it has; opens by
 * machines (`payload.machine`) count apart and only when no person opened; clicks are people's.
 */
export async function campaignTotals(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  causeIds: string[],
): Promise<(CampaignSendTotals & { cause_id: string })[]> {
  if (causeIds.length === 0) return [];
  const outcome = SEND_OUTCOME_STATUSES[channel];
  const rows = await rowsOf<Record<string, string | number>>(
    db,
    sql`with s as (
        select s.id, s.status, s.cause_id from sends s
        where s.business_id = ${businessId} and s.cause = 'broadcast'
          and s.cause_id in (${sql.join(
            causeIds.map((c) => sql`${c}`),
            sql`, `,
          )})
      ), e as (
        select e.send_id,
          bool_or(e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)) as opened,
          bool_or(e.type = 'opened' and coalesce((e.payload->>'machine')::boolean, false)) as opened_machine,
          bool_or(e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)) as clicked,
          bool_or(e.type = 'unsubscribed') as unsubscribed,
          bool_or(e.type = 'complained') as complained,
          bool_or(e.type = 'replied') as replied
        from send_events e join s on s.id = e.send_id
        group by e.send_id
      )
      select s.cause_id,
        count(*) filter (where s.status not in ('queued', 'sending', 'suppressed', 'cancelled', 'failed'))::int as sent,
        count(*) filter (where ${statusIn(outcome.delivered)})::int as delivered,
        count(*) filter (where e.opened)::int as opened,
        count(*) filter (where e.opened_machine and not coalesce(e.opened, false))::int as opened_machine,
        count(*) filter (where e.clicked)::int as clicked,
        count(*) filter (where s.status = 'bounced')::int as bounced,
        count(*) filter (where s.status = 'complained' or e.complained)::int as complained,
        count(*) filter (where e.unsubscribed)::int as unsubscribed,
        count(*) filter (where e.replied)::int as replied,
        count(*) filter (where s.status in ('failed', 'undelivered'))::int as failed
      from s left join e on e.send_id = s.id
      group by s.cause_id`,
  );
  return rows.map((r) => ({
    cause_id: String(r.cause_id),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    opened: Number(r.opened),
    opened_machine: Number(r.opened_machine),
    clicked: Number(r.clicked),
    bounced: Number(r.bounced),
    complained: Number(r.complained),
    unsubscribed: Number(r.unsubscribed),
    replied: Number(r.replied),
    failed: Number(r.failed),
  }));
}

/** People's clicks on each link of some broadcasts' sends: clicks, and sends that clicked it. */
export async function campaignLinks(
  db: Queryable,
  businessId: number,
  causeIds: string[],
): Promise<{ url: string; clicks: number; unique_clickers: number }[]> {
  if (causeIds.length === 0) return [];
  const rows = await rowsOf<{ url: string; clicks: number; unique_clickers: number }>(
    db,
    sql`select e.payload->>'url' as url, count(*)::int as clicks, count(distinct e.send_id)::int as unique_clickers
      from send_events e join sends s on s.id = e.send_id
      where s.business_id = ${businessId} and s.cause = 'broadcast'
        and s.cause_id in (${sql.join(
          causeIds.map((c) => sql`${c}`),
          sql`, `,
        )})
        and e.type = 'clicked' and not coalesce((e.payload->>'machine')::boolean, false)
        and e.payload ? 'url'
      group by 1 order by 2 desc, 1 limit 500`,
  );
  return rows.map((r) => ({
    url: r.url,
    clicks: Number(r.clicks),
    unique_clickers: Number(r.unique_clickers),
  }));
}

/** Per hour: sends recorded, people's opens and clicks (events) of some broadcasts' sends. */
export async function campaignSeries(
  db: Queryable,
  businessId: number,
  causeIds: string[],
): Promise<{ at: string; sent: number; opened: number; clicked: number }[]> {
  if (causeIds.length === 0) return [];
  const rows = await rowsOf<{ at: Date | string; sent: number; opened: number; clicked: number }>(
    db,
    sql`with s as (
        select s.id, s.created_at from sends s
        where s.business_id = ${businessId} and s.cause = 'broadcast'
          and s.cause_id in (${sql.join(
            causeIds.map((c) => sql`${c}`),
            sql`, `,
          )})
          and s.status not in ('suppressed', 'cancelled')
      ), h as (
        select date_trunc('hour', s.created_at) as at, 1 as sent, 0 as opened, 0 as clicked from s
        union all
        select date_trunc('hour', coalesce(e.occurred_at, e.received_at)),
          0, (e.type = 'opened')::int, (e.type = 'clicked')::int
        from send_events e join s on s.id = e.send_id
        where e.type in ('opened', 'clicked') and not coalesce((e.payload->>'machine')::boolean, false)
      )
      select at, sum(sent)::int as sent, sum(opened)::int as opened, sum(clicked)::int as clicked
      from h group by at order by at limit 2000`,
  );
  return rows.map((r) => ({
    at: new Date(r.at).toISOString(),
    sent: Number(r.sent),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
  }));
}

/** Sends recorded under some broadcasts for these customers: each one's send id and status. */
export async function campaignSendsOf(
  db: Queryable,
  businessId: number,
  keys: string[],
): Promise<{ idempotency_key: string; id: string; status: string; recipient: string }[]> {
  if (keys.length === 0) return [];
  return rowsOf(
    db,
    sql`select idempotency_key, id::text, status, recipient from sends
      where business_id = ${businessId} and idempotency_key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})`,
  );
}

/** A send the customer got: recorded and passed on, not held back, failed or bounced. */
const RECEIVED_EXCLUDED = [
  'queued',
  'sending',
  'suppressed',
  'cancelled',
  'failed',
  'bounced',
  'undelivered',
];

/**
 * The segment builder's campaign behaviour (directory): the customer (its id in `customerId`) got a
 * send of one of the business's campaigns (`campaignId`, else any) — and, for `opened`/`clicked`,
 * a person (not a machine) opened or clicked it (a click is an open too, as the report counts).
 * `since` bounds the send (received) or the event; `also` adds a condition on the send's time (a
 * reply after it). Every table is kept to the business, so another business's sends never match.
 */
export function campaignBehaviourCondition(
  businessId: number,
  customerId: SQL,
  q: {
    event: 'received' | 'opened' | 'clicked';
    campaignId?: string;
    since?: SQL;
    also?: (sentAt: SQL) => SQL;
  },
): SQL {
  const ofCampaign = sql`select b.id::text from ${broadcasts} b where b.business_id = ${businessId} and ${
    q.campaignId ? sql`b.campaign_id = ${q.campaignId}::uuid` : sql`b.campaign_id is not null`
  }`;
  const send = sql`bs.business_id = ${businessId} and bs.customer_id = ${customerId} and bs.cause = 'broadcast'
    and bs.cause_id in (${ofCampaign})
    and bs.status not in (${sql.join(
      RECEIVED_EXCLUDED.map((s) => sql`${s}`),
      sql`, `,
    )})`;
  const also = q.also ? sql` and ${q.also(sql`bs.created_at`)}` : sql``;
  if (q.event === 'received')
    return sql`exists (select 1 from ${sends} bs where ${send}${
      q.since ? sql` and bs.created_at >= ${q.since}` : sql``
    }${also})`;
  const types = q.event === 'opened' ? sql`be.type in ('opened', 'clicked')` : sql`be.type = 'clicked'`;
  return sql`exists (select 1 from ${sends} bs join ${sendEvents} be on be.send_id = bs.id
    where ${send} and be.business_id = ${businessId} and ${types}
      and not coalesce((be.payload->>'machine')::boolean, false)${
        q.since ? sql` and coalesce(be.occurred_at, be.received_at) >= ${q.since}` : sql``
      }${also})`;
}
