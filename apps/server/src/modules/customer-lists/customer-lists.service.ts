// Customer lists (engage.md §3). A static list holds the customers added to it (through the API
// or an import); a segment is a saved filter over the directory, counted and resolved when asked,
// so it always means "who matches now". Sends to a list walk it with `walkListCustomers`.
import {
  CUSTOMER_LIST_ERRORS,
  type TCreateCustomerListRequest,
  type TCustomerList,
  type TCustomerListQuery,
  type TCustomerListRef,
  type TDirectoryVisitor,
  type TListMembersResult,
  type TListMembersQuery,
  type TSegmentFilter,
  type TSegmentRules,
  type TUpdateCustomerListRequest,
  SEGMENT_RULE_ERRORS,
  segmentRulesOf,
  ZSegmentFilter,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { InboxScope } from '../../platform/inbox-scope';
import { askToConfirmJoin, type DoubleOptInDeps, topicIdsAmong } from '../consent';
import { findLabels } from '../labels';
import * as directory from '../directory';
import { emitCustomerEvents } from '../journeys';
import * as repo from './customer-lists.repository';

/**
 * A stored segment's conditions as the schema reads them now, or null when they no longer read
 * (saved by an older version, or written around the API): such a segment is shown as invalid and
 * matches no one, rather than failing every answer that includes it.
 */
function storedFilter(row: repo.CustomerListRow): TSegmentFilter | null {
  const parsed = ZSegmentFilter.safeParse(row.filter ?? {});
  return parsed.success ? parsed.data : null;
}

/** The conditions of a segment about to be evaluated (409 when they no longer read). */
function usableFilter(row: repo.CustomerListRow): TSegmentFilter {
  const filter = storedFilter(row);
  if (!filter) throw new AppError('conflict', CUSTOMER_LIST_ERRORS.invalidFilter);
  return filter;
}

async function toList(
  db: Queryable,
  row: repo.CustomerListRow,
  counts?: Map<number, number>,
): Promise<TCustomerList> {
  const dates = {
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
  const base = {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    double_opt_in: row.doubleOptIn,
  };
  if (row.kind === 'segment') {
    const filter = storedFilter(row);
    if (!filter)
      return {
        ...base,
        filter: null,
        filter_error: CUSTOMER_LIST_ERRORS.invalidFilter,
        member_count: 0,
        ...dates,
      };
    return {
      ...base,
      filter,
      member_count: await directory.countSegment(db, row.businessId, filter),
      ...dates,
    };
  }
  const memberCount = (counts ?? (await repo.countMembers(db, [row.id]))).get(row.id) ?? 0;
  return { ...base, filter: null, member_count: memberCount, ...dates };
}

const nameTaken = () => AppError.fields({ name: [CUSTOMER_LIST_ERRORS.nameTaken] });

async function mustFind(db: Queryable, businessId: number, id: number): Promise<repo.CustomerListRow> {
  const row = await repo.findList(db, businessId, id);
  if (!row) throw AppError.notFound(CUSTOMER_LIST_ERRORS.notFound);
  return row;
}

export async function findLists(db: Db, businessId: number, query: TCustomerListQuery) {
  const { rows, count } = await repo.listLists(
    db,
    businessId,
    query.search || undefined,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  const counts = await repo.countMembers(
    db,
    rows.filter((r) => r.kind === 'static').map((r) => r.id),
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: await Promise.all(rows.map((r) => toList(db, r, counts))),
  };
}

export async function findList(db: Db, businessId: number, id: number): Promise<TCustomerList> {
  return toList(db, await mustFind(db, businessId, id));
}

/**
 * The lists, labels, topics and campaigns a segment's rules name are the business's (else 400 on `path`,
 * naming them): another business's ids would match no one, and saying so beats a silent zero.
 */
async function checkRuleRefs(
  db: Queryable,
  businessId: number,
  rules: TSegmentRules | undefined,
  path: string,
) {
  if (!rules) return;
  const wanted = { list: new Set<number>(), label: new Set<number>(), topic: new Set<number>() };
  const wantedCampaigns = new Set<string>();
  for (const r of segmentRulesOf(rules).rules) {
    if ('field' in r && (r.field === 'list' || r.field === 'label' || r.field === 'topic'))
      wanted[r.field].add(Number(r.value));
    if ('event' in r && r.campaign_id) wantedCampaigns.add(r.campaign_id);
  }
  const [lists, labels, topics, campaignIds] = await Promise.all([
    repo.staticListIdsAmong(db, businessId, [...wanted.list]),
    wanted.label.size > 0 ? findLabels(db, businessId, [...wanted.label]) : [],
    topicIdsAmong(db, businessId, [...wanted.topic]),
    repo.campaignIdsAmong(db, businessId, [...wantedCampaigns]),
  ]);
  const problems: string[] = [];
  const missing = (set: Set<number>, found: number[]) => [...set].filter((id) => !found.includes(id));
  const unknown = [
    [missing(wanted.list, lists), SEGMENT_RULE_ERRORS.unknownList],
    [
      missing(
        wanted.label,
        labels.map((l) => l.id),
      ),
      SEGMENT_RULE_ERRORS.unknownLabel,
    ],
    [missing(wanted.topic, topics), SEGMENT_RULE_ERRORS.unknownTopic],
  ] as const;
  for (const [ids, words] of unknown) if (ids.length > 0) problems.push(`${words} (${ids.join(', ')})`);
  const strangers = [...wantedCampaigns].filter((id) => !campaignIds.includes(id));
  if (strangers.length > 0) problems.push(`${SEGMENT_RULE_ERRORS.unknownCampaign} (${strangers.join(', ')})`);
  if (problems.length > 0) throw AppError.fields({ [path]: problems });
}

/** A segment's filter with the builder's rules folded in (`rules` is `filter.rules` at the top). */
function withRules(filter: TSegmentFilter | null | undefined, rules: TSegmentRules | undefined) {
  if (!rules) return filter ?? null;
  return { ...(filter ?? {}), rules };
}

/** POST …/segments/count/: how many of the business's customers the rules match now. */
export async function countRules(db: Db, businessId: number, rules: TSegmentRules): Promise<number> {
  await checkRuleRefs(db, businessId, rules, 'rules');
  return directory.countSegment(db, businessId, { rules });
}

export async function createList(
  db: Db,
  businessId: number,
  input: TCreateCustomerListRequest,
): Promise<TCustomerList> {
  await checkRuleRefs(db, businessId, input.rules, 'rules');
  await checkRuleRefs(db, businessId, input.filter?.rules, 'filter.rules');
  try {
    const row = await repo.insertList(db, {
      businessId,
      name: input.name,
      description: input.description,
      kind: input.kind,
      doubleOptIn: input.double_opt_in,
      filter: input.kind === 'segment' ? withRules(input.filter, input.rules) : null,
    });
    return toList(db, row, new Map());
  } catch (err) {
    if (repo.isNameTaken(err)) throw nameTaken();
    throw err;
  }
}

export async function updateList(
  db: Db,
  businessId: number,
  id: number,
  input: TUpdateCustomerListRequest,
): Promise<TCustomerList> {
  const current = await mustFind(db, businessId, id);
  if (input.rules !== undefined && current.kind === 'static')
    throw AppError.fields({ rules: [CUSTOMER_LIST_ERRORS.staticHasNoFilter] });
  if (input.filter !== undefined) {
    if (current.kind === 'static')
      throw AppError.fields({ filter: [CUSTOMER_LIST_ERRORS.staticHasNoFilter] });
    if (!input.rules && !Object.values(input.filter).some((v) => v !== undefined))
      throw AppError.fields({ filter: [CUSTOMER_LIST_ERRORS.segmentNeedsFilter] });
  }
  await checkRuleRefs(db, businessId, input.rules, 'rules');
  await checkRuleRefs(db, businessId, input.filter?.rules, 'filter.rules');
  // New rules alone replace the stored rules and keep the other conditions.
  const filter =
    input.filter !== undefined
      ? (withRules(input.filter, input.rules) ?? undefined)
      : input.rules !== undefined
        ? (withRules(storedFilter(current), input.rules) ?? undefined)
        : undefined;
  try {
    const row = await repo.updateList(db, businessId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.double_opt_in !== undefined ? { doubleOptIn: input.double_opt_in } : {}),
      ...(filter !== undefined ? { filter } : {}),
    });
    if (!row) throw AppError.notFound(CUSTOMER_LIST_ERRORS.notFound);
    return toList(db, row);
  } catch (err) {
    if (repo.isNameTaken(err)) throw nameTaken();
    throw err;
  }
}

export async function deleteList(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteList(db, businessId, id))) throw AppError.notFound(CUSTOMER_LIST_ERRORS.notFound);
}

/** The distinct ids, all of them the business's customers (else 400 naming the others). */
async function ownCustomers(db: Db, businessId: number, customerIds: number[]): Promise<number[]> {
  const wanted = [...new Set(customerIds)];
  const known = new Set(await directory.existingCustomerIds(db, businessId, wanted));
  const unknown = wanted.filter((c) => !known.has(c));
  if (unknown.length > 0)
    throw AppError.fields({
      customer_ids: [`${CUSTOMER_LIST_ERRORS.unknownCustomers} (${unknown.slice(0, 20).join(', ')})`],
    });
  return wanted;
}

/** Adds customers to a static list; every id must be a customer of the business (else 400, nothing added). */
export async function addMembers(
  db: Db,
  businessId: number,
  id: number,
  customerIds: number[],
  doubleOptIn?: DoubleOptInDeps,
): Promise<TListMembersResult> {
  const list = await mustFind(db, businessId, id);
  if (list.kind === 'segment')
    throw AppError.fields({ customer_ids: [CUSTOMER_LIST_ERRORS.membersOfSegment] });
  const wanted = await ownCustomers(db, businessId, customerIds);
  const added = await db.transaction(async (tx) => {
    const ids = await repo.addMembers(tx, list.id, wanted);
    await emitListEvents(tx, businessId, list, 'list.joined', ids);
    return ids.length;
  });
  // A double opt-in list asks each member to confirm (after the members are written).
  if (list.doubleOptIn && doubleOptIn)
    await askToConfirmJoin(doubleOptIn, {
      businessId,
      customerIds: wanted,
      listId: list.id,
      listName: list.name,
      source: 'api',
    });
  return { added, removed: 0 };
}

/** A list's name (the double opt-in confirmation page names the list joined). */
export async function listNameOf(db: Queryable, businessId: number, id: number): Promise<string | null> {
  return (await repo.findList(db, businessId, id))?.name ?? null;
}

/**
 * Whether a list asks its members to confirm, and its name (imports and forms that add to it ask
 * after their rows commit); null for no such list.
 */
export async function doubleOptInOf(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<{ doubleOptIn: boolean; name: string } | null> {
  const row = await repo.findList(db, businessId, id);
  return row ? { doubleOptIn: row.doubleOptIn, name: row.name } : null;
}

export async function removeMembers(
  db: Db,
  businessId: number,
  id: number,
  customerIds: number[],
): Promise<TListMembersResult> {
  const list = await mustFind(db, businessId, id);
  if (list.kind === 'segment')
    throw AppError.fields({ customer_ids: [CUSTOMER_LIST_ERRORS.membersOfSegment] });
  const wanted = await ownCustomers(db, businessId, customerIds);
  const removed = await db.transaction(async (tx) => {
    const ids = await repo.removeMembers(tx, list.id, wanted);
    await emitListEvents(tx, businessId, list, 'list.left', ids);
    return ids.length;
  });
  return { added: 0, removed };
}

/** Joining and leaving a static list are customer events journeys start on or wait for. */
async function emitListEvents(
  tx: Queryable,
  businessId: number,
  list: { id: number; name: string },
  name: 'list.joined' | 'list.left',
  customerIds: number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await emitCustomerEvents(
    tx,
    ...customerIds.map((customerId) => ({
      businessId,
      customerId,
      name,
      properties: { list_id: list.id, list_name: list.name },
    })),
  );
}

/**
 * A page of the list's customers as directory visitors: those the viewer may see (agents: the
 * people behind their inbox's conversations, as in the directory), paged and counted as such.
 */
export async function findMembers(
  db: Db,
  scope: InboxScope,
  id: number,
  query: TListMembersQuery,
): Promise<{ count: number; next: number | null; previous: number | null; results: TDirectoryVisitor[] }> {
  const list = await mustFind(db, scope.businessId, id);
  let count: number;
  let results: TDirectoryVisitor[];
  if (list.kind === 'segment') {
    ({ count, results } = await directory.findSegmentVisitors(
      db,
      scope,
      usableFilter(list),
      query.page,
      query.page_size,
    ));
  } else {
    const page = await repo.memberPage(
      db,
      list.id,
      (customerId) => directory.visibleCustomerIds(scope, customerId),
      query.page_size,
      (query.page - 1) * query.page_size,
    );
    count = page.count;
    results = await directory.findVisitorsByIds(db, scope, page.ids);
  }
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results,
  };
}

/** Whether the business has this list (for callers that take a list_id). */
export async function listExists(db: Queryable, businessId: number, id: number): Promise<boolean> {
  return (await repo.findList(db, businessId, id)) !== null;
}

/**
 * Every customer of a list, in id order, `batchSize` at a time: a static list's members or the
 * customers a segment matches as the walk reaches them, after `afterId` (to resume a walk). Keyset
 * paging, so a list of any size is walked in flat memory; customers added during the walk with a
 * higher id are included.
 */
export async function* walkListCustomers(
  db: Queryable,
  businessId: number,
  id: number,
  options: { batchSize?: number; afterId?: number } = {},
): AsyncGenerator<directory.CustomerRow[]> {
  const list = await mustFind(db, businessId, id);
  const filter = list.kind === 'segment' ? usableFilter(list) : null;
  const batchSize = options.batchSize ?? 1000;
  let after = options.afterId ?? 0;
  for (;;) {
    if (filter) {
      const batch = await directory.segmentCustomers(db, businessId, filter, after, batchSize);
      if (batch.length > 0) yield batch;
      if (batch.length < batchSize) return;
      after = batch[batch.length - 1]!.id;
    } else {
      const ids = await repo.memberIdsAfter(db, list.id, after, batchSize);
      if (ids.length === 0) return;
      const batch = await directory.findCustomersByIds(db, businessId, ids);
      if (batch.length > 0) yield batch;
      after = ids[ids.length - 1]!;
    }
  }
}

/** How many customers a list holds now (a segment's as it matches now). */
export async function countListCustomers(db: Queryable, businessId: number, id: number): Promise<number> {
  return (await toList(db, await mustFind(db, businessId, id))).member_count;
}

/**
 * Adds customers already known to be the business's to a static list, inside the caller's
 * transaction (an import's batch); a segment takes none (it follows its conditions).
 */
export async function addKnownMembers(
  tx: Queryable,
  businessId: number,
  listId: number,
  customerIds: number[],
): Promise<number> {
  const list = await repo.findList(tx, businessId, listId);
  if (!list || list.kind !== 'static') return 0;
  const added = await repo.addMembers(tx, list.id, [...new Set(customerIds)]);
  await emitListEvents(tx, businessId, list, 'list.joined', added);
  return added.length;
}

/**
 * Removes customers from a static list inside the caller's transaction (a journey's update step);
 * answers how many were members.
 */
export async function removeKnownMembers(
  tx: Queryable,
  businessId: number,
  listId: number,
  customerIds: number[],
): Promise<number> {
  const list = await repo.findList(tx, businessId, listId);
  if (!list || list.kind !== 'static') return 0;
  const removed = await repo.removeMembers(tx, list.id, [...new Set(customerIds)]);
  await emitListEvents(tx, businessId, list, 'list.left', removed);
  return removed.length;
}

/** Whether the business has this static list (imports add to static lists only). */
export async function isStaticList(db: Queryable, businessId: number, id: number): Promise<boolean> {
  return (await repo.findList(db, businessId, id))?.kind === 'static';
}

/** The directory's export walks it (customer-lists builds on the directory: the type is the directory's). */
export type ListSelection = directory.ListSelection;

/**
 * What a list of the business selects, for a reader that walks the customers itself with its own
 * conditions (the directory's CSV export): a segment's filter, or a static list's member ids in
 * id order, `limit` after `afterId`. 404 when the business has no such list.
 */
export async function listSelection(db: Queryable, businessId: number, id: number): Promise<ListSelection> {
  const list = await mustFind(db, businessId, id);
  if (list.kind === 'segment') return { kind: 'segment', name: list.name, filter: usableFilter(list) };
  return {
    kind: 'static',
    name: list.name,
    memberIdsAfter: (afterId, limit) => repo.memberIdsAfter(db, list.id, afterId, limit),
  };
}

/**
 * The static lists a customer belongs to (the inbox's customer panel), for whoever may see the
 * customer. Segments are left out: a segment is a rule over everyone, not a membership.
 */
export async function findListsOfCustomer(
  db: Db,
  scope: InboxScope,
  customerId: number,
): Promise<TCustomerListRef[]> {
  // Whom the caller may not see in the directory answers 404 here too (agents: their inbox's people).
  const visitor = await directory.findVisitor(db, scope, customerId);
  return repo.listsOfCustomer(db, scope.businessId, visitor.id);
}
