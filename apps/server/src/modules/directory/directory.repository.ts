// The visitor directory owns `customers`: every read and write of the table is here. Other modules
// reach it through directory.service.ts (functions take a transaction handle where callers need one).
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  ilike,
  inArray,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import {
  DIRECTORY_COUNT_CAP,
  groupItems,
  isBareDate,
  isBehaviourRule,
  isSegmentGroup,
  type TLabelRef,
  type TSegmentBehaviourRule,
  type TSegmentCondition,
  type TSegmentFilter,
  type TSegmentRule,
  type TSegmentRuleTree,
} from '@titan/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import {
  consentTopicOptouts,
  consentTopics,
  conversations,
  customerListMembers,
  customerLists,
  customers,
  type ConsentStatus,
} from '../../db/schema';
import {
  customerWroteCondition,
  type InboxScope,
  openConversationCondition,
  scopeConditions,
} from '../../platform/conversation-conditions.repository';
import { campaignBehaviourCondition } from '../sends';
import { hasEveryLabel, labelsJson } from '../labels';
import { rowsOf } from '../../db/sql';

export type CustomerRow = typeof customers.$inferSelect;

/** The customer's conversations the viewer may see (drizzle qualifies every column). */
const visibleConversations = (scope: InboxScope) =>
  and(eq(conversations.initiatorId, customers.id), ...scopeConditions(scope))!;

const conversationCount = (scope: InboxScope) =>
  sql<number>`(select count(*)::int from ${conversations} where ${visibleConversations(scope)})`;

/**
 * The customers a viewer may see: a whole business, or (agents) the people who started a
 * conversation the agent may see — a directory entry shows nothing its inbox would not.
 */
function visibleCustomers(scope: InboxScope): SQL {
  const base = eq(customers.businessId, scope.businessId);
  if (scope.groupIds === null) return base;
  return and(base, sql`exists (select 1 from ${conversations} where ${visibleConversations(scope)})`)!;
}

/**
 * The same rule as a condition on another table's customer id (list members, an agent run's
 * deliveries and steps), for statements already kept to the business; undefined when the viewer
 * sees the whole business. Every read of customers outside the directory goes through this.
 */
export function visibleCustomerIds(scope: InboxScope, customerId: AnyPgColumn): SQL | undefined {
  if (scope.groupIds === null) return undefined;
  return sql`${customerId} in (select ${customers.id} from ${customers} where ${visibleCustomers(scope)})`;
}

/**
 * Name, email and phone as one text: the expression the trigram index `customers_search_trgm_idx`
 * (migration 0032) is built on, so a search must use exactly this.
 */
const searchable = sql`(coalesce(${customers.name}, '') || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.phone}, ''))`;

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A fragment of the name, email or phone, case-insensitively; a fragment that looks like a phone
 * number ("415 555-01") also finds the digits as stored ("+1415555012…").
 */
function fragment(search: string): SQL {
  const matches = [ilike(searchable, containing(search))];
  const digits = search.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(search) && digits.length >= 3 && digits !== search)
    matches.push(ilike(searchable, containing(digits)));
  return matches.length === 1 ? matches[0]! : or(...matches)!;
}

function searchCondition(scope: InboxScope, search: string | undefined, labelIds: number[] = []): SQL {
  const base = and(visibleCustomers(scope), ...hasEveryLabel('customer', customers.id, labelIds))!;
  if (!search) return base;
  return and(base, fragment(search))!;
}

/** A search counts exactly up to this many matches (see listCustomers). */
export const COUNT_CAP = DIRECTORY_COUNT_CAP;

const listColumns = (scope: InboxScope) => ({
  customer: customers,
  conversationCount: conversationCount(scope),
  labels: labelsJson('customer', customers.id),
});

type ListedCustomer = { customer: CustomerRow; conversationCount: number; labels: TLabelRef[] };
export type CustomerPage = { rows: ListedCustomer[]; count: number; capped: boolean; hasMore: boolean };

/**
 * A page of the directory, newest first, and how many match — fast at a million customers. The
 * count stops at COUNT_CAP + 1 rows (`capped`: there are more): counting a million rows, or every
 * match of a common fragment, is the slow part of a page (~50–150 ms at 1M), and "1,000+" says
 * what a person needs. Without a search the page walks the (business, created_at) index; with one,
 * the trigram index `customers_search_trgm_idx` serves fragments of 3+ characters. The planner
 * chooses between its bitmap (rare fragments) and the created_at walk that stops at the page's end
 * (common ones) from the index expression's statistics, kept at 1,000 (migration 0032) so a fragment
 * as common as 0.1% is seen as such. `hasMore`: a row follows the page.
 */
export async function listCustomers(
  db: Db,
  scope: InboxScope,
  search: string | undefined,
  limit: number,
  offset: number,
  /** `label=`: customers carrying every one of these labels. */
  labelIds: number[] = [],
): Promise<CustomerPage> {
  const where = searchCondition(scope, search, labelIds);
  const [rows, [total]] = await Promise.all([
    db
      .select(listColumns(scope))
      .from(customers)
      .where(where)
      .orderBy(desc(customers.createdAt), desc(customers.id))
      .limit(limit + 1)
      .offset(offset),
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(customers)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('m'),
    ),
  ]);
  const n = Number(total?.n ?? 0);
  return {
    rows: rows.slice(0, limit),
    count: Math.min(n, COUNT_CAP),
    capped: n > COUNT_CAP,
    hasMore: rows.length > limit,
  };
}

export async function findCustomer(db: Db, scope: InboxScope, id: number) {
  const [row] = await db
    .select(listColumns(scope))
    .from(customers)
    .where(and(visibleCustomers(scope), eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function updateCustomer(
  db: Db,
  businessId: number,
  id: number,
  patch: Partial<typeof customers.$inferInsert>,
) {
  const rows = await db
    .update(customers)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}

/** Revokes every visitor token issued to the customer so far (see visitor-tokens.ts). */
export async function bumpVisitorTokenVersion(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(customers)
    .set({ visitorTokenVersion: sql`${customers.visitorTokenVersion} + 1`, updatedAt: new Date() })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}

export async function deleteCustomer(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return rows.length === 1;
}

// ---- For other modules (through directory.service.ts) ----

export async function findCustomerById(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findCustomerByExternalId(
  db: Queryable,
  businessId: number,
  externalId: string,
): Promise<CustomerRow | null> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.externalId, externalId)))
    .limit(1);
  return row ?? null;
}

/** The external id a customer is reached at (`wa:<digits>` for WhatsApp contacts), if any. */
export async function findCustomerExternalId(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ externalId: customers.externalId })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, customerId)))
    .limit(1);
  return row?.externalId ?? null;
}

/** Names and emails of a business's customers, for message senders. */
export async function findCustomerNames(db: Queryable, businessId: number, customerIds: number[]) {
  if (customerIds.length === 0) return [];
  return db
    .select({ id: customers.id, name: customers.name, email: customers.email })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, customerIds)));
}

export async function insertCustomer(
  db: Queryable,
  values: typeof customers.$inferInsert,
): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(values).returning();
  return row!;
}

/** A visitor the embedding site vouched for: found by its external id, its details merged in. */
export async function upsertVerifiedCustomer(
  db: Queryable,
  values: typeof customers.$inferInsert & { externalId: string },
): Promise<CustomerRow & { created: boolean }> {
  const [row] = await db
    .insert(customers)
    .values(values)
    .onConflictDoUpdate({
      target: [customers.businessId, customers.externalId],
      set: {
        name: sql`coalesce(excluded.name, ${customers.name})`,
        email: sql`coalesce(excluded.email, ${customers.email})`,
        phone: sql`coalesce(excluded.phone, ${customers.phone})`,
        fields: sql`${customers.fields} || excluded.fields`,
        lastSeenAt: new Date(),
        updatedAt: new Date(),
      },
    })
    // A row the insert made has no deleting transaction id: created, not merged into.
    .returning({ ...getTableColumns(customers), created: sql<boolean>`(xmax = 0)` });
  return row!;
}

export type ContactValues = {
  businessId: number;
  externalId: string;
  name: string | null;
  phone: string | null;
};

/**
 * Each contact as a customer, set-based inside the caller's transaction, as
 * `upsertVerifiedCustomer` does one: a new name or phone replaces the stored one, a missing one
 * keeps it. A contact new to the business first claims the oldest customer already holding its
 * number (E.164) under no other identity — someone who typed it into the widget, a form or an
 * import — so the number's person stays one customer. Answers the customer ids.
 */
export async function upsertContacts(
  db: Queryable,
  contacts: ContactValues[],
): Promise<{ id: number; businessId: number; externalId: string; created: boolean }[]> {
  if (contacts.length === 0) return [];
  const recordset = contacts.map((k) => ({
    business_id: k.businessId,
    external_id: k.externalId,
    name: k.name,
    phone: k.phone,
  }));
  const values = JSON.stringify(recordset);
  await db.execute(
    sql`update customers c set external_id = v.external_id
      from jsonb_to_recordset(${values}::jsonb) as v(business_id bigint, external_id text, name text, phone text)
      where v.phone is not null
        and c.id = (select min(o.id) from customers o
          where o.business_id = v.business_id and o.phone = v.phone and o.external_id is null)
        and not exists (select 1 from customers k
          where k.business_id = v.business_id and k.external_id = v.external_id)`,
  );
  const result = await db.execute(
    sql`insert into customers as c (business_id, external_id, name, phone)
      select business_id, external_id, name, phone
      from jsonb_to_recordset(${values}::jsonb)
        as v(business_id bigint, external_id text, name text, phone text)
      order by business_id, external_id
      on conflict (business_id, external_id) do update set
        name = coalesce(excluded.name, c.name),
        phone = coalesce(excluded.phone, c.phone),
        last_seen_at = now(),
        updated_at = now()
      returning c.id, c.business_id, c.external_id, (c.xmax = 0) as created`,
  );
  // Both drivers answer { rows }; the generic PgDatabase type cannot say so.
  const rows = (
    result as unknown as {
      rows: { id: string | number; business_id: string | number; external_id: string; created: boolean }[];
    }
  ).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    externalId: r.external_id,
    created: r.created === true,
  }));
}

// ---- Consent (modules/consent keeps it in step with the suppression list) ----

export type ConsentChannel = 'email' | 'sms' | 'whatsapp';

/** The customers property holding each channel's consent. */
export const CONSENT_FIELD = { email: 'emailStatus', sms: 'smsStatus', whatsapp: 'whatsappStatus' } as const;

/** The column a channel's address lives in: email for email, the E.164 phone otherwise. */
function addressColumn(channel: ConsentChannel): SQL {
  return channel === 'email' ? sql`lower(${customers.email})` : sql`lower(${customers.phone})`;
}

/** The ids of the business's customers reached at `address` (lower-cased) on a channel. */
export async function customerIdsAtAddress(
  db: Queryable,
  businessId: number,
  channel: ConsentChannel,
  address: string,
): Promise<number[]> {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), sql`${addressColumn(channel)} = ${address}`))
    .orderBy(asc(customers.id));
  return rows.map((r) => r.id);
}

/** Sets the channel's consent on every customer of the business reached at `address` (lower-cased). */
export async function setConsentForAddress(
  db: Queryable,
  businessId: number,
  channel: ConsentChannel,
  address: string,
  status: ConsentStatus,
): Promise<number[]> {
  const field = CONSENT_FIELD[channel];
  const rows = await db
    .update(customers)
    .set({ [field]: status, updatedAt: new Date() })
    .where(
      and(
        eq(customers.businessId, businessId),
        sql`${addressColumn(channel)} = ${address}`,
        sql`${customers[field]} <> ${status}`,
      ),
    )
    .returning({ id: customers.id });
  return rows.map((r) => r.id);
}

/**
 * Marks subscribed on the channel those of `ids` who have an address for it and whose consent
 * there is still unknown (an import's word never overrides what a person or a bounce said);
 * returns the ids it marked.
 */
export async function subscribeWhereUnknown(
  db: Queryable,
  businessId: number,
  ids: number[],
  channel: ConsentChannel,
): Promise<number[]> {
  return setConsentWhereUnknown(db, businessId, ids, channel, 'subscribed');
}

/**
 * Sets `status` on the channel for those of `ids` who have an address for it and whose consent
 * there is still unknown (double opt-in marks them `pending`); returns the ids it marked.
 */
export async function setConsentWhereUnknown(
  db: Queryable,
  businessId: number,
  ids: number[],
  channel: ConsentChannel,
  status: ConsentStatus,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const field = CONSENT_FIELD[channel];
  const rows = await db
    .update(customers)
    .set({ [field]: status, updatedAt: new Date() })
    .where(
      and(
        eq(customers.businessId, businessId),
        sql`${customers.id} = any(${sql.param(ids)}::bigint[])`,
        sql`coalesce(${channel === 'email' ? customers.email : customers.phone}, '') <> ''`,
        eq(customers[field], 'unknown'),
      ),
    )
    .returning({ id: customers.id });
  return rows.map((r) => r.id);
}

export async function updateCustomerConsent(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Partial<Pick<CustomerRow, (typeof CONSENT_FIELD)[ConsentChannel]>>,
): Promise<void> {
  await db
    .update(customers)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(customers.businessId, businessId), eq(customers.id, id)));
}

// ---- Segments: a saved filter over the directory (customer-lists module) ----

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
function segmentCondition(businessId: number, filter: TSegmentFilter): SQL {
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
  const [row] = await db.select({ n: count() }).from(customers).where(segmentCondition(businessId, filter));
  return Number(row?.n ?? 0);
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

// ---- The CSV export: keyset pages in id order, the cells as text straight from PostgreSQL ----

export type ExportRow = {
  id: string | number;
  name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  email_status: string;
  sms_status: string;
  whatsapp_status: string;
  created_at: string;
  last_seen_at: string | null;
  /** The custom fields as JSON text. */
  fields: string;
};

/** Which customers an export holds, beside what the viewer may see. */
export type ExportSelection = {
  search?: string;
  /** A segment's filter. */
  segment?: TSegmentFilter;
  /** A static list's members (one batch of them). */
  ids?: number[];
};

const iso = (column: AnyPgColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Up to `limit` customers after `afterId`, in id order (the (business_id, id) index: each page is
 * one short index range, so an export of any size reads in flat memory and never holds a
 * transaction or a cursor open while the client reads slowly).
 */
export async function exportPage(
  db: Queryable,
  scope: InboxScope,
  selection: ExportSelection,
  afterId: number,
  limit: number,
): Promise<ExportRow[]> {
  const where: SQL[] = [visibleCustomers(scope), gt(customers.id, afterId)];
  if (selection.search) where.push(fragment(selection.search));
  if (selection.segment) where.push(segmentCondition(scope.businessId, selection.segment));
  if (selection.ids) {
    if (selection.ids.length === 0) return [];
    where.push(inArray(customers.id, selection.ids));
  }
  return rowsOf<ExportRow>(
    db,
    sql`select ${customers.id} as id, ${customers.name} as name, ${customers.email} as email,
        ${customers.phone} as phone, ${customers.externalId} as external_id,
        ${customers.emailStatus} as email_status, ${customers.smsStatus} as sms_status,
        ${customers.whatsappStatus} as whatsapp_status, ${iso(customers.createdAt)} as created_at,
        ${iso(customers.lastSeenAt)} as last_seen_at, ${customers.fields}::text as fields
      from ${customers} where ${and(...where)} order by ${customers.id} limit ${limit}`,
  );
}

/** Customers by id that the viewer may see, in the directory's list shape (for a static list's page). */
export async function findCustomersForList(db: Queryable, scope: InboxScope, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(listColumns(scope))
    .from(customers)
    .where(and(visibleCustomers(scope), inArray(customers.id, ids)));
}

/** Of the given ids, those that are customers of the business. */
export async function existingCustomerIds(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, ids)));
  return rows.map((r) => r.id);
}

/** Customers of a business by id, whole rows (for sends). */
export async function findCustomersByIds(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<CustomerRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), inArray(customers.id, ids)))
    .orderBy(asc(customers.id));
}

// ---- Imports: many rows matched and written set-based (customer-imports module) ----

export type ImportedRow = {
  rowNumber: number;
  name: string | null;
  /** Lower-cased. */
  email: string | null;
  /** E.164. */
  phone: string | null;
  /** Namespaced (`widget:<id>`). */
  externalId: string | null;
  fields: Record<string, string>;
};

export type ImportMode = 'skip' | 'overwrite' | 'merge';

/** The key a row matched an existing customer by, as the errors CSV names it. */
export type ImportKey = 'external id' | 'email address' | 'phone number';

/**
 * Per row: inserted, updated, matched but left as it was (skip mode), lost to a concurrent insert,
 * or matched a customer an earlier row of the same file already had (`duplicates`: not written).
 */
export type ImportOutcome = {
  inserted: { rowNumber: number; id: number }[];
  updated: { rowNumber: number; id: number }[];
  unchanged: { rowNumber: number; id: number }[];
  lost: number[];
  duplicates: { rowNumber: number; of: number; key: ImportKey }[];
};

/** Array parameters: one bind value per column, whatever the batch's size (no IN lists). */
const textArray = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;

/**
 * The existing customer of the business each row matches — by external id, else email
 * (case-insensitive), else phone — in one query over the batch's keys, or null.
 */
export async function matchImportRows(
  db: Queryable,
  businessId: number,
  rows: ImportedRow[],
): Promise<({ id: number; key: ImportKey } | null)[]> {
  if (rows.length === 0) return [];
  const emails = [...new Set(rows.flatMap((r) => (r.email ? [r.email] : [])))];
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  const externals = [...new Set(rows.flatMap((r) => (r.externalId ? [r.externalId] : [])))];
  // One index probe per key (a lateral lookup the planner may not flatten: `offset 0`), whatever
  // the table's statistics say: with the keys as a filter or a join, a table grown fast since it
  // was last analysed (by an import) looked small to the planner, and was read whole every batch.
  const lookups = (
    [
      [sql`c.external_id`, externals],
      [sql`lower(c.email)`, emails],
      [sql`c.phone`, phones],
    ] as const
  ).flatMap(([column, values]) =>
    values.length
      ? [
          sql`select m.* from unnest(${textArray(values)}) as k(value) cross join lateral (
              select c.id, lower(c.email) as email, c.phone, c.external_id from customers c
              where c.business_id = ${businessId} and ${column} = k.value offset 0) m`,
        ]
      : [],
  );
  if (lookups.length === 0) return rows.map(() => null);
  const { rows: existing } = (await db.execute(
    sql`${sql.join(lookups, sql` union all `)} order by id`,
  )) as unknown as {
    rows: { id: string | number; email: string | null; phone: string | null; external_id: string | null }[];
  };
  const byExternal = new Map<string, number>();
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  for (const c of existing) {
    const id = Number(c.id);
    if (c.external_id) byExternal.set(c.external_id, id);
    if (c.email && !byEmail.has(c.email)) byEmail.set(c.email, id);
    if (c.phone && !byPhone.has(c.phone)) byPhone.set(c.phone, id);
  }
  const found = (id: number | undefined, key: ImportKey) => (id === undefined ? null : { id, key });
  return rows.map(
    (r) =>
      (r.externalId ? found(byExternal.get(r.externalId), 'external id') : null) ??
      (r.email ? found(byEmail.get(r.email), 'email address') : null) ??
      (r.phone ? found(byPhone.get(r.phone), 'phone number') : null),
  );
}

/**
 * One batch of import rows, set-based: each row is matched to an existing customer of the
 * business (`matchImportRows`); unmatched rows are inserted; matched ones are skipped,
 * overwritten (the row's non-empty values replace the stored ones) or merged (only empty stored
 * values are filled; stored custom fields win), by `mode` — unless `earlierRow` names the row of
 * the same file that already had that customer: then the row is a duplicate, and not written.
 */
export async function importCustomers(
  db: Queryable,
  businessId: number,
  rows: ImportedRow[],
  mode: ImportMode,
  earlierRow: (customerId: number) => number | undefined = () => undefined,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { inserted: [], updated: [], unchanged: [], lost: [], duplicates: [] };
  if (rows.length === 0) return outcome;
  const matches = await matchImportRows(db, businessId, rows);
  const fresh: ImportedRow[] = [];
  const matched: { row: ImportedRow; id: number }[] = [];
  rows.forEach((row, i) => {
    const match = matches[i];
    if (!match) return fresh.push(row);
    const of = earlierRow(match.id);
    if (of !== undefined) outcome.duplicates.push({ rowNumber: row.rowNumber, of, key: match.key });
    else matched.push({ row, id: match.id });
  });
  const column = <K extends keyof ImportedRow>(list: ImportedRow[], key: K) => list.map((r) => r[key]);
  const returned = fresh.length
    ? (
        (await db.execute(sql`insert into customers (business_id, name, email, phone, external_id, fields)
          select ${businessId}, v.name, v.email, v.phone, v.external_id, v.fields::jsonb
          from unnest(${sql.param(column(fresh, 'rowNumber'))}::int[], ${textArray(column(fresh, 'name'))},
            ${textArray(column(fresh, 'email'))}, ${textArray(column(fresh, 'phone'))},
            ${textArray(column(fresh, 'externalId'))}, ${textArray(fresh.map((r) => JSON.stringify(r.fields)))})
            as v("row", name, email, phone, external_id, fields)
          order by v."row"
          on conflict (business_id, external_id) do nothing
          returning id, external_id`)) as unknown as {
          rows: { id: string | number; external_id: string | null }[];
        }
      ).rows
    : [];
  // A row whose external id another writer took meanwhile is skipped; the others come back in order.
  const byReturnedExternal = new Map(
    returned.flatMap((r) => (r.external_id ? [[r.external_id, Number(r.id)]] : [])),
  );
  const withoutExternal = returned.filter((r) => !r.external_id).map((r) => Number(r.id));
  for (const r of fresh) {
    const id = r.externalId ? byReturnedExternal.get(r.externalId) : withoutExternal.shift();
    if (id === undefined) outcome.lost.push(r.rowNumber);
    else outcome.inserted.push({ rowNumber: r.rowNumber, id });
  }
  const ids = matched.map((m) => ({ rowNumber: m.row.rowNumber, id: m.id }));
  if (mode === 'skip' || matched.length === 0) return { ...outcome, unchanged: ids };
  const m = matched.map((x) => x.row);
  const set =
    mode === 'overwrite'
      ? sql`name = coalesce(v.name, c.name), email = coalesce(v.email, c.email), phone = coalesce(v.phone, c.phone),
          external_id = coalesce(c.external_id, v.external_id), fields = c.fields || v.fields`
      : sql`name = coalesce(nullif(c.name, ''), v.name), email = coalesce(nullif(c.email, ''), v.email),
          phone = coalesce(nullif(c.phone, ''), v.phone), external_id = coalesce(c.external_id, v.external_id),
          fields = v.fields || c.fields`;
  await db.execute(sql`update customers c set ${set}, updated_at = now()
    from (select distinct on (id) id, name, email, phone, external_id, fields::jsonb as fields
      from unnest(${sql.param(matched.map((x) => x.id))}::bigint[], ${sql.param(column(m, 'rowNumber'))}::int[],
        ${textArray(column(m, 'name'))}, ${textArray(column(m, 'email'))}, ${textArray(column(m, 'phone'))},
        ${textArray(column(m, 'externalId'))}, ${textArray(m.map((r) => JSON.stringify(r.fields)))})
        as x(id, "row", name, email, phone, external_id, fields)
      order by id, "row" desc) v
    where c.id = v.id and c.business_id = ${businessId}`);
  return { ...outcome, updated: ids };
}

/** The business's customers with this phone number (E.164 as stored), oldest first. */
export async function findCustomersByPhone(
  db: Queryable,
  businessId: number,
  phone: string,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.phone, phone)))
    .orderBy(customers.id)
    .limit(10);
}

/** The customers of a business with this email address (any case), oldest first. */
export async function findCustomersByEmail(
  db: Queryable,
  businessId: number,
  email: string,
): Promise<CustomerRow[]> {
  return db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), sql`lower(${customers.email}) = ${email.toLowerCase()}`))
    .orderBy(customers.id)
    .limit(10);
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
