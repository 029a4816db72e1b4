// Customer lists (engage.md §3). A static list holds the customers added to it (through the API
// or an import); a segment is a saved filter over the directory, counted and resolved when asked,
// so it always means "who matches now". Sends to a list walk it with `walkListCustomers`.
import {
  CUSTOMER_LIST_MESSAGES,
  type TCreateCustomerListRequest,
  type TCustomerList,
  type TCustomerListQuery,
  type TDirectoryVisitor,
  type TListMembersResult,
  type TListMembersQuery,
  type TSegmentFilter,
  type TUpdateCustomerListRequest,
  ZSegmentFilter,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { InboxScope } from '../conversations';
import * as directory from '../directory';
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
  if (!filter) throw new AppError('conflict', CUSTOMER_LIST_MESSAGES.invalidFilter);
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
  const base = { id: row.id, name: row.name, description: row.description, kind: row.kind };
  if (row.kind === 'segment') {
    const filter = storedFilter(row);
    if (!filter)
      return {
        ...base,
        filter: null,
        filter_error: CUSTOMER_LIST_MESSAGES.invalidFilter,
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

const nameTaken = () => AppError.fields({ name: [CUSTOMER_LIST_MESSAGES.nameTaken] });

async function mustFind(db: Queryable, businessId: number, id: number): Promise<repo.CustomerListRow> {
  const row = await repo.findList(db, businessId, id);
  if (!row) throw AppError.notFound(CUSTOMER_LIST_MESSAGES.notFound);
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

export async function createList(
  db: Db,
  businessId: number,
  input: TCreateCustomerListRequest,
): Promise<TCustomerList> {
  try {
    const row = await repo.insertList(db, {
      businessId,
      name: input.name,
      description: input.description,
      kind: input.kind,
      filter: input.kind === 'segment' ? (input.filter ?? null) : null,
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
  if (input.filter !== undefined) {
    if (current.kind === 'static')
      throw AppError.fields({ filter: [CUSTOMER_LIST_MESSAGES.staticHasNoFilter] });
    if (!Object.values(input.filter).some((v) => v !== undefined))
      throw AppError.fields({ filter: [CUSTOMER_LIST_MESSAGES.segmentNeedsFilter] });
  }
  try {
    const row = await repo.updateList(db, businessId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.filter !== undefined ? { filter: input.filter } : {}),
    });
    if (!row) throw AppError.notFound(CUSTOMER_LIST_MESSAGES.notFound);
    return toList(db, row);
  } catch (err) {
    if (repo.isNameTaken(err)) throw nameTaken();
    throw err;
  }
}

export async function deleteList(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteList(db, businessId, id))) throw AppError.notFound(CUSTOMER_LIST_MESSAGES.notFound);
}

/** The distinct ids, all of them the business's customers (else 400 naming the others). */
async function ownCustomers(db: Db, businessId: number, customerIds: number[]): Promise<number[]> {
  const wanted = [...new Set(customerIds)];
  const known = new Set(await directory.existingCustomerIds(db, businessId, wanted));
  const unknown = wanted.filter((c) => !known.has(c));
  if (unknown.length > 0)
    throw AppError.fields({
      customer_ids: [`${CUSTOMER_LIST_MESSAGES.unknownCustomers} (${unknown.slice(0, 20).join(', ')})`],
    });
  return wanted;
}

/** Adds customers to a static list; every id must be a customer of the business (else 400, nothing added). */
export async function addMembers(
  db: Db,
  businessId: number,
  id: number,
  customerIds: number[],
): Promise<TListMembersResult> {
  const list = await mustFind(db, businessId, id);
  if (list.kind === 'segment')
    throw AppError.fields({ customer_ids: [CUSTOMER_LIST_MESSAGES.membersOfSegment] });
  const wanted = await ownCustomers(db, businessId, customerIds);
  return { added: await repo.addMembers(db, list.id, wanted), removed: 0 };
}

export async function removeMembers(
  db: Db,
  businessId: number,
  id: number,
  customerIds: number[],
): Promise<TListMembersResult> {
  const list = await mustFind(db, businessId, id);
  if (list.kind === 'segment')
    throw AppError.fields({ customer_ids: [CUSTOMER_LIST_MESSAGES.membersOfSegment] });
  const wanted = await ownCustomers(db, businessId, customerIds);
  return { added: 0, removed: await repo.removeMembers(db, list.id, wanted) };
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
  return repo.addMembers(tx, list.id, [...new Set(customerIds)]);
}

/** Whether the business has this static list (imports add to static lists only). */
export async function isStaticList(db: Queryable, businessId: number, id: number): Promise<boolean> {
  return (await repo.findList(db, businessId, id))?.kind === 'static';
}

export type ListSelection =
  | { kind: 'segment'; name: string; filter: TSegmentFilter }
  | { kind: 'static'; name: string; memberIdsAfter: (afterId: number, limit: number) => Promise<number[]> };

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
