// The shared inbox's list engine: one statement per request shape answers the count and the page
// (as the API's JSON), prepared once per shape and run on the driver. Its SQL lives only here.
import { and, eq, getTableName, gt, gte, inArray, is, isNull, lt, lte, or, SQL, sql } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TChatGroup, TConversation, TConversationFilter } from '@titan/contracts';
import type { Db } from '../../../db/client';
import { placeholderFiller, rawStatement, type RawStatement } from '../../../db/statement';
import {
  chatGroups,
  conversationCounts,
  conversationDayCounts,
  conversations,
  customers,
  users,
} from '../../../db/schema';
import { hasEveryLabel, labelsJson } from '../../labels';
import { lastMessagePreviewJson, type InboxScope } from '../conversations.repository';
import { conversationSlaJson } from '../sla';

/**
 * What one list statement depends on besides its values. Each shape is built and prepared once
 * per database (named, so PostgreSQL parses it once per connection), then run with its values.
 */
type ListShape = {
  groups: boolean;
  status: boolean;
  isRead: boolean;
  replied: boolean;
  /** How many distinct channels `channel__in` names; 0 without the filter. */
  channels: number;
  createdGte: boolean;
  createdLte: boolean;
  lastGte: boolean;
  lastLte: boolean;
  /** `assignee=`: none (unassigned), a member (id), or no filter. */
  assignee: 'none' | 'id' | false;
  /** `assigned_chat_group=`: none (no group), a group (id), or no filter. */
  group: 'none' | 'id' | false;
  /** How many distinct labels `label=` names (each one a condition); 0 without the filter. */
  labels: number;
  count: CountKind;
  /**
   * The page size is written into the statement: with a constant LIMIT and no OFFSET PostgreSQL
   * can keep one generic plan instead of planning every call (a parameter there makes it guess
   * that 10% of the rows are wanted, so it never settles on the generic plan).
   */
  limit: number;
  offset: boolean;
};

/**
 * buckets: a sum over conversation_counts (no date range). days: for a range on one date column,
 * sums over conversation_day_counts (its whole months from month rows, its other whole days from
 * day rows) plus the rows of its two edge days. rows: count(*) (group-limited viewers, ranges on both columns, within one day).
 * zero: an empty range.
 */
export type CountKind = 'buckets' | 'days' | 'rows' | 'zero';

type ListValues = Record<string, unknown>;

const param = (name: string) => sql.placeholder(name);
const listOrder = sql`${conversations.lastMessageAt} desc nulls last, ${conversations.id} desc`;

/** The shape of a list request and its statement's values. */
function listRequest(
  scope: InboxScope,
  filter: TConversationFilter,
  limit: number,
  offset: number,
): { shape: ListShape; values: ListValues } {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`bad page size ${limit}`);
  const channels = [...new Set(filter.channel__in ?? [])];
  const values: ListValues = { businessId: scope.businessId, offset, walk: offset + limit };
  if (scope.groupIds !== null) values.groupIds = scope.groupIds;
  if (filter.status) values.status = filter.status;
  if (filter.is_read !== undefined) values.isRead = filter.is_read;
  if (filter.business_replied !== undefined) values.replied = filter.business_replied;
  channels.forEach((channel, i) => (values[`channel${i}`] = channel));
  const dates = {
    createdGte: filter.created_at__gte,
    createdLte: filter.created_at__lte,
    lastGte: filter.last_message_at__gte,
    lastLte: filter.last_message_at__lte,
  };
  for (const [name, date] of Object.entries(dates)) if (date) values[name] = date.toISOString();
  const idFilter = (value: 'me' | 'none' | number | undefined, name: string): 'none' | 'id' | false => {
    if (value === undefined) return false;
    if (value === 'none') return 'none';
    if (value === 'me') throw new Error('assignee=me is resolved to the caller before the list runs');
    values[name] = value;
    return 'id';
  };
  const assignee = idFilter(filter.assignee, 'assignee');
  const group = idFilter(filter.assigned_chat_group, 'group');
  const labels = [...new Set(filter.label ?? [])];
  labels.forEach((label, i) => (values[`label${i}`] = label));

  const created = Boolean(dates.createdGte || dates.createdLte);
  const lastMessage = Boolean(dates.lastGte || dates.lastLte);
  let count: CountKind;
  // The bucket tables hold no assignee or group: those views count their rows (an index range).
  if (scope.groupIds !== null || (created && lastMessage) || assignee || group || labels.length > 0)
    count = 'rows';
  else if (!created && !lastMessage) count = 'buckets';
  else {
    const lo = created ? dates.createdGte : dates.lastGte;
    const hi = created ? dates.createdLte : dates.lastLte;
    const loDay = lo ? utcDay(lo) : null;
    const hiDay = hi ? utcDay(hi) : null;
    if (lo && hi && lo > hi) count = 'zero';
    // Within one day the range is small: count its rows.
    else if (loDay && hiDay && loDay.getTime() === hiDay.getTime()) count = 'rows';
    else {
      count = 'days';
      // Whole months between the bounds' months come from month buckets; the whole days left
      // in the bounds' own months from day buckets (all of them from the low bound's side when
      // both bounds fall in one month); the bounds' own days from their rows.
      const sameMonth = loDay && hiDay && utcMonth(loDay).getTime() === utcMonth(hiDay).getTime();
      if (loDay)
        Object.assign(values, {
          loDay: isoDay(loDay),
          loNext: addDays(loDay, 1).toISOString(),
          loDaysEnd: isoDay(sameMonth ? hiDay : nextMonth(loDay)),
          loMonth: isoDay(utcMonth(loDay)),
        });
      if (hiDay)
        Object.assign(values, {
          hiDay: isoDay(hiDay),
          hiStart: hiDay.toISOString(),
          hiDaysStart: isoDay(sameMonth ? hiDay : utcMonth(hiDay)),
          hiMonth: isoDay(utcMonth(hiDay)),
        });
    }
  }
  const shape: ListShape = {
    groups: scope.groupIds !== null,
    status: 'status' in values,
    isRead: 'isRead' in values,
    replied: 'replied' in values,
    channels: channels.length,
    createdGte: Boolean(dates.createdGte),
    createdLte: Boolean(dates.createdLte),
    lastGte: Boolean(dates.lastGte),
    lastLte: Boolean(dates.lastLte),
    assignee,
    group,
    labels: labels.length,
    count,
    limit,
    offset: offset > 0,
  };
  return { shape, values };
}

/** A short, unique statement name per shape (PostgreSQL keeps 63 bytes of it); made per call. */
function shapeName(s: ListShape): string {
  let name = 'conversations_list';
  if (s.groups) name += '_g';
  if (s.status) name += '_s';
  if (s.isRead) name += '_r';
  if (s.replied) name += '_b';
  if (s.channels > 0) name += `_c${s.channels}`;
  if (s.createdGte) name += '_cg';
  if (s.createdLte) name += '_cl';
  if (s.lastGte) name += '_lg';
  if (s.lastLte) name += '_ll';
  if (s.assignee) name += s.assignee === 'none' ? '_an' : '_a';
  if (s.group) name += s.group === 'none' ? '_gn' : '_gi';
  if (s.labels > 0) name += `_lb${s.labels}`;
  name += `_${s.count}_l${s.limit}`;
  return s.offset ? `${name}_o` : name;
}

/** The list's conditions on conversations: the scope, the filters and (unless left out) the ranges. */
function listConditions(shape: ListShape, ranges = true): SQL[] {
  const c = conversations;
  const where: SQL[] = [eq(c.businessId, param('businessId'))];
  // An empty groupIds array matches no group: only the unassigned conversations.
  if (shape.groups)
    where.push(or(isNull(c.assignedChatGroupId), sql`${c.assignedChatGroupId} = any(${param('groupIds')})`)!);
  if (shape.status) where.push(eq(c.status, param('status')));
  if (shape.isRead) where.push(eq(c.isRead, param('isRead')));
  if (shape.replied) where.push(eq(c.businessReplied, param('replied')));
  if (shape.assignee === 'none') where.push(isNull(c.assigneeId));
  if (shape.assignee === 'id') where.push(eq(c.assigneeId, param('assignee')));
  if (shape.group === 'none') where.push(isNull(c.assignedChatGroupId));
  if (shape.group === 'id') where.push(eq(c.assignedChatGroupId, param('group')));
  if (shape.labels > 0) {
    const ids = Array.from({ length: shape.labels }, (_, i) => param(`label${i}`));
    where.push(...hasEveryLabel('conversation', c.id, ids));
  }
  if (ranges) {
    if (shape.createdGte) where.push(gte(c.createdAt, param('createdGte')));
    if (shape.createdLte) where.push(lte(c.createdAt, param('createdLte')));
    if (shape.lastGte) where.push(gte(c.lastMessageAt, param('lastGte')));
    if (shape.lastLte) where.push(lte(c.lastMessageAt, param('lastLte')));
  }
  // One value per channel, not `= any(array)`: PostgreSQL 15 reads an index in order only for
  // equality on its leading columns, and `channel in ($1)` is `channel = $1`.
  if (shape.channels > 0) where.push(inArray(c.channel, channelParams(shape)));
  return where;
}

const channelParams = (shape: ListShape) =>
  Array.from({ length: shape.channels }, (_, i) => param(`channel${i}`));

/** The status / read / replied / channel filters on a bucket table. */
function bucketConditions(
  table: typeof conversationCounts | typeof conversationDayCounts,
  shape: ListShape,
): SQL[] {
  const where: SQL[] = [];
  if (shape.status) where.push(eq(table.status, param('status')));
  if (shape.isRead) where.push(eq(table.isRead, param('isRead')));
  if (shape.replied) where.push(eq(table.businessReplied, param('replied')));
  if (shape.channels > 0) where.push(inArray(table.channel, channelParams(shape)));
  return where;
}

/**
 * A column named with its table, always: in a select's fields drizzle writes bare column names
 * when the outer query has one table, and the page's JSON is built over joins.
 */
const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds, truncated as the pg
 * driver truncates microseconds), so the list's rows equal toConversation()'s.
 */
const isoText = (column: AnyPgColumn) =>
  sql`to_char(${qualified(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A JSON object of the given keys and columns, or null where `present` is null (a missing join). */
const jsonObject = (fields: Record<string, AnyPgColumn | SQL>, present?: AnyPgColumn): SQL => {
  const pairs = Object.entries(fields).map(
    ([key, value]) => sql`${sql.raw(`'${key}'`)}, ${is(value, SQL) ? value : qualified(value)}`,
  );
  const object = sql`json_build_object(${sql.join(pairs, sql`, `)})`;
  return present ? sql`case when ${qualified(present)} is null then null else ${object} end` : object;
};

/**
 * A conversation as the API's JSON (the shape of service.toConversation), built by PostgreSQL over
 * `conversations` joined with conversationJoins.
 */
const conversationObject = jsonObject({
  id: conversations.id,
  title: conversations.title,
  status: conversations.status,
  is_read: conversations.isRead,
  channel: conversations.channel,
  initiator: jsonObject({ id: customers.id, name: customers.name, email: customers.email }, customers.id),
  // The full record, keyed as chat-groups.service toChatGroup() writes it (TChatGroup).
  assigned_chat_group: jsonObject(
    {
      id: chatGroups.id,
      name: chatGroups.name,
      slug: chatGroups.slug,
      greeting: chatGroups.greeting,
      color: chatGroups.color,
      launcher_position: chatGroups.launcherPosition,
      visitor_form: chatGroups.visitorForm,
      allowed_origins: chatGroups.allowedOrigins,
      created_at: isoText(chatGroups.createdAt),
    } satisfies Record<keyof TChatGroup, AnyPgColumn | SQL>,
    chatGroups.id,
  ),
  last_message_at: isoText(conversations.lastMessageAt),
  created_at: isoText(conversations.createdAt),
  business_replied: conversations.businessReplied,
  engage_business_id: conversations.businessId,
  // As conversations.service toAssignee() writes it: the full name, else the email.
  assignee: jsonObject(
    {
      id: users.id,
      name: sql`coalesce(nullif(btrim(${qualified(users.firstName)} || ' ' || ${qualified(users.lastName)}), ''), ${qualified(users.email)})`,
      avatar_url: sql`null::text`,
    },
    users.id,
  ),
  snoozed_until: sql`case when ${qualified(conversations.status)} = 'snoozed' then ${isoText(conversations.snoozedUntil)} end`,
  labels: labelsJson('conversation', conversations.id),
  last_message_preview: lastMessagePreviewJson(conversations.id, conversations.channel),
  spam: conversations.spam,
  sla: conversationSlaJson(),
} satisfies Record<keyof TConversation, AnyPgColumn | SQL>);

/** The joins conversationObject reads besides `conversations`. */
const conversationJoins = sql`left join ${customers} on ${qualified(customers.id)} = ${qualified(conversations.initiatorId)}
  left join ${chatGroups} on ${qualified(chatGroups.id)} = ${qualified(conversations.assignedChatGroupId)}
  left join ${users} on ${qualified(users.id)} = ${qualified(conversations.assigneeId)}`;

/**
 * The page as the API's JSON array of conversations, built by PostgreSQL: the list is the inbox's
 * hottest call, and handing its rows over as one text value spares the server decoding, mapping,
 * validating and re-encoding every field of every row.
 */
const pageJson = sql<string>`coalesce((select json_agg(${conversationObject} order by ${listOrder})
  from page
  join ${conversations} on ${qualified(conversations.id)} = page.id
  ${conversationJoins}
), '[]')::text`;

/**
 * The API's JSON of the conversation whose id is `id` (an SQL expression of the enclosing
 * statement), as the list writes it: search answers its page's conversations in its own statement.
 */
export const conversationJsonOf = (id: SQL) =>
  sql<TConversation>`(select ${conversationObject} from ${conversations} ${conversationJoins}
    where ${qualified(conversations.id)} = ${id})`;

/**
 * One statement answers a list request, in one row: the count (CTE "total", so an empty page
 * still carries it) and the page (CTE "page": its ids) as JSON text. Built without a database
 * (drizzle's query builder), so the benchmarks run the very same text.
 */
function buildList(shape: ListShape) {
  const qb = new QueryBuilder();
  const created = shape.createdGte || shape.createdLte;
  // Raw CTEs name their columns by the table columns they carry (so they map the same way).
  const page = qb
    .$with('page', { id: conversations.id })
    .as(created ? pageByCreatedMonth(shape) : pageByIndex(shape));
  const total = qb.$with('total', { n: conversationCounts.n }).as(sql`select ${countOf(shape)} as n`);
  return qb.with(page, total).select({ total: total.n, results: pageJson }).from(total);
}

const preparedLists = new WeakMap<Db, Map<string, RawStatement>>();
/**
 * A named statement stays on every pooled connection (~180 kB of PostgreSQL memory each with its
 * plan), and page sizes times filter mixes are many: past this many shapes, a new shape is built
 * per call and runs unnamed, as any query.
 */
const MAX_NAMED_LISTS = 32;

/** A page of the list: its count, and its conversations as a JSON array (TConversation[]). */
export async function listConversations(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  limit: number,
  offset: number,
): Promise<{ count: number; resultsJson: string }> {
  const { shape, values } = listRequest(scope, filter, limit, offset);
  const name = shapeName(shape);
  let statements = preparedLists.get(db);
  if (!statements) preparedLists.set(db, (statements = new Map()));
  let statement = statements.get(name);
  if (!statement) {
    const named = statements.size < MAX_NAMED_LISTS;
    // Run past drizzle: one row of two columns needs no mapping, and this is the inbox's hottest call.
    statement = rawStatement(db, buildList(shape), named ? name : ''); // '' is the unnamed statement
    if (named) statements.set(name, statement);
  }
  const [row] = await statement(values);
  return { count: Number(row?.[0] ?? 0), resultsJson: (row?.[1] as string | undefined) ?? '[]' };
}

/** The page's ids straight from the conversations indexes, in list order. */
function pageByIndex(shape: ListShape): SQL {
  const offset = shape.offset ? sql` offset ${param('offset')}` : sql``;
  return sql`select ${conversations.id} from ${conversations} where ${and(...listConditions(shape))}
    order by ${listOrder} limit ${sql.raw(String(shape.limit))}${offset}`;
}

/**
 * A page of a created_at range in last-message order. Conversations of any age can have the
 * newest messages, so neither index order serves it: walking last-message order discards rows of
 * the wrong age, reading the created range sorts all of it. Instead, for each month of created_at
 * in the range take the month's top `offset + limit` from conversations_created_month_idx
 * (index-only), and order those few. Months span the bounds, or the business's oldest / newest
 * conversation where a bound is open.
 */
function pageByCreatedMonth(shape: ListShape): SQL {
  const edge = (fn: 'min' | 'max') =>
    sql`(select ${sql.raw(fn)}(${conversations.createdAt}) from ${conversations} where ${eq(conversations.businessId, param('businessId'))})`;
  const from = shape.createdGte ? sql`${param('createdGte')}::timestamptz` : edge('min');
  const to = shape.createdLte ? sql`${param('createdLte')}::timestamptz` : edge('max');
  const limit = sql.raw(String(shape.limit));
  const offset = shape.offset ? sql` offset ${param('offset')}` : sql``;
  return sql`select c.id from generate_series(
      date_trunc('month', ${from} at time zone 'UTC'),
      date_trunc('month', ${to} at time zone 'UTC'),
      interval '1 month') as m(month)
    cross join lateral (
      select ${conversations.id} as id, ${conversations.lastMessageAt} as last_message_at
      from ${conversations}
      where ${and(...listConditions(shape))}
        and date_trunc('month', ${conversations.createdAt} at time zone 'UTC') = m.month
      order by ${listOrder}
      limit ${shape.offset ? param('walk') : limit}
    ) as c
    order by c.last_message_at desc nulls last, c.id desc
    limit ${limit}${offset}`;
}

/** The count of the matching rows without reading them where the bucket tables answer it. */
function countOf(shape: ListShape): SQL {
  const rows = (where: SQL[]) => sql`(select count(*) from ${conversations} where ${and(...where)})`;
  switch (shape.count) {
    case 'zero':
      return sql`0`;
    case 'rows':
      return rows(listConditions(shape));
    case 'buckets': {
      const t = conversationCounts;
      const where = and(eq(t.businessId, param('businessId')), ...bucketConditions(t, shape));
      return sql`(select coalesce(sum(${t.n}), 0) from ${t} where ${where})`;
    }
    case 'days': {
      const t = conversationDayCounts;
      const created = shape.createdGte || shape.createdLte;
      const column = created ? conversations.createdAt : conversations.lastMessageAt;
      const lo = created ? shape.createdGte && 'createdGte' : shape.lastGte && 'lastGte';
      const hi = created ? shape.createdLte && 'createdLte' : shape.lastLte && 'lastLte';
      const sum = (axis: 'c' | 'l' | 'cm' | 'lm', ...range: SQL[]) =>
        sql`(select coalesce(sum(${t.n}), 0) from ${t} where ${and(
          eq(t.businessId, param('businessId')),
          eq(t.axis, axis),
          ...range,
          ...bucketConditions(t, shape),
        )})`;
      const parts: SQL[] = [];
      if (lo) parts.push(sum(created ? 'c' : 'l', gt(t.day, param('loDay')), lt(t.day, param('loDaysEnd'))));
      parts.push(
        sum(
          created ? 'cm' : 'lm',
          ...(lo ? [gt(t.day, param('loMonth'))] : []),
          ...(hi ? [lt(t.day, param('hiMonth'))] : []),
        ),
      );
      if (hi)
        parts.push(sum(created ? 'c' : 'l', gte(t.day, param('hiDaysStart')), lt(t.day, param('hiDay'))));
      // The edge days: from the bound to the end of its day, and from the start of its day to the bound.
      const dims = listConditions(shape, false);
      if (lo) parts.push(rows([...dims, gte(column, param(lo)), lt(column, param('loNext'))]));
      if (hi) parts.push(rows([...dims, gte(column, param('hiStart')), lte(column, param(hi))]));
      return sql.join(parts, sql` + `);
    }
    default:
      return shape.count satisfies never;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const utcMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/** A list request's statement as the server runs it: its name, text and positional values. */
export type ListStatement = { name: string; text: string; values: unknown[]; count: CountKind };

/**
 * The statement `listConversations` runs for this request, without running it (benchmarks and
 * plan checks use it, so they can never drift from the server's SQL).
 */
export function listStatement(
  scope: InboxScope,
  filter: TConversationFilter,
  limit: number,
  offset: number,
): ListStatement {
  const { shape, values } = listRequest(scope, filter, limit, offset);
  const { sql: text, params } = buildList(shape).toSQL();
  return { name: shapeName(shape), text, values: placeholderFiller(params)(values), count: shape.count };
}
