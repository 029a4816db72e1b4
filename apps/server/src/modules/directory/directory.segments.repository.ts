// Segments: a saved filter over the directory, compiled to SQL over customers (customer-lists module).
import { and, asc, count, desc, eq, gt, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  groupItems,
  isBareDate,
  isBehaviourRule,
  isSegmentGroup,
  type TSegmentBehaviourRule,
  type TSegmentCondition,
  type TSegmentFilter,
  type TSegmentRule,
  type TSegmentRuleTree,
} from '@titan/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import {
  consentTopicOptouts,
  consentTopics,
  conversations,
  customerListMembers,
  customerLists,
  customers,
} from '../../db/schema';
import {
  customerWroteCondition,
  type InboxScope,
  openConversationCondition,
} from '../../platform/conversation-conditions.repository';
import { campaignBehaviourCondition } from '../sends';
import { hasEveryLabel } from '../labels';
import {
  containing,
  type CustomerRow,
  fragment,
  listColumns,
  visibleCustomers,
} from './directory.repository';
import { CONSENT_FIELD } from './directory.consent.repository';

/** "On or before" a date includes that whole day (UTC); a date-time is the instant itself. */
const onOrBefore = (column: AnyPgColumn, bound: string) =>
  isBareDate(bound)
    ? sql`${column} < ((${bound}::date + 1)::timestamp at time zone 'UTC')`
    : lte(column, new Date(bound));

const RULE_COLUMNS = {
  name: customers.name,
  email: customers.email,
  phone: customers.phone,
  external_id: customers.externalId,
  email_status: customers.emailStatus,
  sms_status: customers.smsStatus,
  whatsapp_status: customers.whatsappStatus,
  created_at: customers.createdAt,
  last_seen_at: customers.lastSeenAt,
} as const;

/** A rule's bound as a timestamp: a bare date is midnight UTC (its whole day for lte/gt). */
function dateBound(op: string, value: string): SQL {
  if (!isBareDate(value)) return sql`${new Date(value).toISOString()}::timestamptz`;
  // "After 2026-05-01" and "on or before 2026-05-01" take the whole day; "before" and "from" its start.
  const day = op === 'gt' || op === 'lte' ? sql`(${value}::date + 1)` : sql`${value}::date`;
  return sql`(${day}::timestamp at time zone 'UTC')`;
}

/**
 * One rule of the segment builder over the business's customers: the customer's own values,
 * custom fields (numbers compare as numbers when both sides read as one), dates (also "within the
 * last N days"), and memberships — a static list, a label, a consent topic — each scoped to the
 * business by its owner's fragment.
 */
function ruleCondition(businessId: number, rule: TSegmentRule): SQL {
  const id = sql`${customers.id}`;
  if (rule.field === 'list' || rule.field === 'topic' || rule.field === 'label') {
    const ref = Number(rule.value);
    const inIt =
      rule.field === 'list'
        ? inStaticListCondition(businessId, ref, id)
        : rule.field === 'topic'
          ? inTopicCondition(businessId, ref, id)
          : hasEveryLabel('customer', customers.id, [ref])[0]!;
    return rule.op === 'in' ? inIt : sql`not ${inIt}`;
  }
  const own = rule.field.startsWith('customer.fields.')
    ? null
    : RULE_COLUMNS[rule.field.slice('customer.'.length) as keyof typeof RULE_COLUMNS];
  const text: SQL = own
    ? sql`${own}::text`
    : sql`(${customers.fields} ->> ${rule.field.slice('customer.fields.'.length)})`;
  const isDate = own === customers.createdAt || own === customers.lastSeenAt;
  const present = isDate ? sql`${own} is not null` : sql`coalesce(${text}, '') <> ''`;
  const v = rule.value;
  switch (rule.op) {
    case 'exists':
      return present;
    case 'not_exists':
      return sql`not (${present})`;
    case 'within_days':
      return sql`${own} >= now() - make_interval(days => ${Number(v)}::int)`;
    case 'not_within_days':
      return sql`(${own} is null or ${own} < now() - make_interval(days => ${Number(v)}::int))`;
    case 'contains':
      return sql`${text} ilike ${containing(String(v))}`;
    case 'not_contains':
      return sql`coalesce(${text}, '') not ilike ${containing(String(v))}`;
    case 'eq':
      return own ? sql`lower(${text}) = lower(${String(v)})` : sql`${text} = ${String(v)}`;
    case 'neq':
      return own
        ? sql`lower(coalesce(${text}, '')) <> lower(${String(v)})`
        : sql`coalesce(${text}, '') <> ${String(v)}`;
    default: {
      const op = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` }[
        rule.op as 'gt' | 'gte' | 'lt' | 'lte'
      ];
      if (isDate) {
        // "On or before" a bare date and "after" it take its whole day.
        const strictOp = rule.op === 'lte' ? sql`<` : rule.op === 'gt' ? sql`>=` : op;
        return sql`${own} ${isBareDate(String(v)) ? strictOp : op} ${dateBound(rule.op, String(v))}`;
      }
      // Numbers compare as numbers (a value that is not one matches no one), anything else as text.
      if (typeof v === 'number' || /^-?\d+(\.\d+)?$/.test(String(v)))
        return sql`(case when ${text} ~ '^-?[0-9]+(\.[0-9]+)?$' then (${text})::numeric end) ${op} ${Number(v)}`;
      return sql`${text} ${op} ${String(v)}`;
    }
  }
}

/**
 * A behaviour rule of the segment builder, read from the send log (a campaign's sends and their
 * opens and clicks) and the inbox (replies, open conversations), each kept to the business.
 */
function behaviourCondition(businessId: number, rule: TSegmentBehaviourRule): SQL {
  const id = sql`${customers.id}`;
  const since =
    rule.within_days === undefined
      ? undefined
      : sql`(now() - make_interval(days => ${rule.within_days}::int))`;
  let holds: SQL;
  if (rule.event === 'open_conversation') holds = openConversationCondition(businessId, id, since);
  else if (rule.event === 'replied')
    holds = rule.campaign_id
      ? // Wrote after receiving the campaign (and within the days).
        campaignBehaviourCondition(businessId, id, {
          event: 'received',
          campaignId: rule.campaign_id,
          also: (sentAt) =>
            customerWroteCondition(businessId, id, since ? sql`greatest(${sentAt}, ${since})` : sentAt),
        })
      : customerWroteCondition(businessId, id, since ?? sql`'-infinity'::timestamptz`);
  else
    holds = campaignBehaviourCondition(businessId, id, {
      event: rule.event,
      campaignId: rule.campaign_id,
      since,
    });
  return rule.not ? sql`not ${holds}` : holds;
}

const conditionOf = (businessId: number, rule: TSegmentCondition) =>
  isBehaviourRule(rule) ? behaviourCondition(businessId, rule) : ruleCondition(businessId, rule);

/** A group of the segment builder: every item holds (`all`) or at least one (`any`). */
function rulesCondition(businessId: number, group: TSegmentRuleTree): SQL {
  const parts = groupItems(group).map((item) =>
    isSegmentGroup(item) ? rulesCondition(businessId, item) : conditionOf(businessId, item),
  );
  const joined = 'all' in group ? and(...parts) : or(...parts);
  return sql`(${joined ?? sql`true`})`;
}

/** A business's customers meeting every condition of a segment's filter. */
export function segmentCondition(businessId: number, filter: TSegmentFilter): SQL {
  const where: SQL[] = [eq(customers.businessId, businessId)];
  if (filter.search) where.push(fragment(filter.search));
  if (filter.has_email !== undefined)
    where.push(
      filter.has_email
        ? sql`coalesce(${customers.email}, '') <> ''`
        : sql`coalesce(${customers.email}, '') = ''`,
    );
  if (filter.has_phone !== undefined)
    where.push(
      filter.has_phone
        ? sql`coalesce(${customers.phone}, '') <> ''`
        : sql`coalesce(${customers.phone}, '') = ''`,
    );
  if (filter.channel)
    where.push(
      sql`exists (select 1 from ${conversations} where ${conversations.initiatorId} = ${customers.id}
        and ${conversations.businessId} = ${businessId} and ${conversations.channel} = ${filter.channel})`,
    );
  if (filter.created_at__gte) where.push(gte(customers.createdAt, new Date(filter.created_at__gte)));
  if (filter.created_at__lte) where.push(onOrBefore(customers.createdAt, filter.created_at__lte));
  if (filter.last_seen_at__gte) where.push(gte(customers.lastSeenAt, new Date(filter.last_seen_at__gte)));
  if (filter.last_seen_at__lte) where.push(onOrBefore(customers.lastSeenAt, filter.last_seen_at__lte));
  for (const channel of ['email', 'sms', 'whatsapp'] as const) {
    const status = filter[`${channel}_status`];
    if (status) where.push(eq(customers[CONSENT_FIELD[channel]], status));
  }
  for (const [key, value] of Object.entries(filter.fields ?? {}))
    where.push(sql`${customers.fields} ->> ${key} = ${String(value)}`);
  if (filter.rules) where.push(rulesCondition(businessId, filter.rules));
  return and(...where)!;
}

export async function countSegment(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
): Promise<number> {
  // Planned for its values every call, as before statements were prepared (db/prepared.ts): a
  // segment's count reads up to every customer, and how much each rule's window or campaign matches
  // decides its plan; a generic plan cannot know it (the planning is nothing beside the count).
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    const [row] = await tx.select({ n: count() }).from(customers).where(segmentCondition(businessId, filter));
    return Number(row?.n ?? 0);
  });
}

/** A page of a segment's customers in id order, after `afterId` (keyset: stable while it grows). */
export async function segmentCustomers(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
  afterId: number,
  limit: number,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(segmentCondition(businessId, filter), gt(customers.id, afterId)))
    .orderBy(asc(customers.id))
    .limit(limit);
}

/** Of these customers, those a segment matches, in id order (an agent's lists narrowed by a segment). */
export async function segmentCustomersAmong(
  db: Queryable,
  businessId: number,
  filter: TSegmentFilter,
  ids: number[],
): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(customers)
    .where(and(segmentCondition(businessId, filter), inArray(customers.id, ids)))
    .orderBy(asc(customers.id));
}

/** A page of a segment for the directory's list shape (newest first), with its count. */
export async function listSegment(
  db: Queryable,
  scope: InboxScope,
  filter: TSegmentFilter,
  limit: number,
  offset: number,
) {
  const where = and(visibleCustomers(scope), segmentCondition(scope.businessId, filter));
  const [rows, [total]] = await Promise.all([
    db
      .select(listColumns(scope))
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

// The segment builder's `topic` and `list` rules read the consent and customer-lists tables (never
// write them): the directory compiles every rule over customers, and both modules build on it.

/**
 * The customer (its id in `customerId`) is in the business's topic `topicId`: the topic is the
 * business's and they have not left it.
 */
function inTopicCondition(businessId: number, topicId: number, customerId: SQL): SQL {
  return sql`(exists (select 1 from ${consentTopics} t where t.id = ${topicId} and t.business_id = ${businessId})
    and not exists (select 1 from ${consentTopicOptouts} o where o.business_id = ${businessId}
      and o.topic_id = ${topicId} and o.customer_id = ${customerId}))`;
}

/**
 * The customer (its id in `customerId`) is a member of the business's static list `listId`,
 * scoped to the business so another business's list matches no one.
 */
function inStaticListCondition(businessId: number, listId: number, customerId: SQL): SQL {
  return sql`exists (select 1 from ${customerListMembers} m join ${customerLists} l on l.id = m.list_id
    where l.business_id = ${businessId} and l.kind = 'static' and m.list_id = ${listId}
      and m.customer_id = ${customerId})`;
}
