// The visitor directory: find, read, correct and remove the people who wrote to a business.
import type {
  TDirectoryPage,
  TDirectoryQuery,
  TDirectoryVisitor,
  TSegmentFilter,
  TUpdateDirectoryVisitorRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { phoneForStorage } from '../../platform/phone-numbers';
import { findBusiness } from '../business';
import { forgetCustomer } from '../auth';
import { businessScope, type InboxScope } from '../conversations';
import * as repo from './directory.repository';

function toVisitor(row: { customer: repo.CustomerRow; conversationCount: number }): TDirectoryVisitor {
  const c = row.customer;
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    external_id: c.externalId,
    fields: c.fields,
    conversation_count: Number(row.conversationCount),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
    last_seen_at: c.lastSeenAt?.toISOString() ?? null,
    email_status: c.emailStatus,
    sms_status: c.smsStatus,
    whatsapp_status: c.whatsappStatus,
  };
}

/** Agents see the people behind the conversations they may see (docs/design/inbox.md "Who sees which conversation"). */
export async function findVisitors(
  db: Db,
  scope: InboxScope,
  query: TDirectoryQuery,
): Promise<TDirectoryPage> {
  const { rows, count, capped, hasMore } = await repo.listCustomers(
    db,
    scope,
    query.search || undefined,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    count_capped: capped,
    next: hasMore ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toVisitor),
  };
}

export async function findVisitor(db: Db, scope: InboxScope, id: number): Promise<TDirectoryVisitor> {
  const row = await repo.findCustomer(db, scope, id);
  if (!row) throw AppError.notFound();
  return toVisitor(row);
}

export async function updateVisitor(
  db: Db,
  businessId: number,
  id: number,
  input: Omit<TUpdateDirectoryVisitorRequest, 'email_status' | 'sms_status' | 'whatsapp_status'>,
): Promise<TDirectoryVisitor> {
  const current = await repo.findCustomer(db, businessScope(businessId), id);
  if (!current) throw AppError.notFound();
  const phone =
    input.phone !== undefined
      ? phoneForStorage(input.phone, (await findBusiness(db, businessId)).dial_code)
      : undefined;
  await repo.updateCustomer(db, businessId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email?.toLowerCase() ?? null } : {}),
    ...(phone !== undefined ? { phone } : {}),
    ...(input.fields !== undefined ? { fields: { ...current.customer.fields, ...input.fields } } : {}),
  });
  return findVisitor(db, businessScope(businessId), id);
}

/**
 * Removes the person; their conversations stay, shown as "Anonymous Customer". Their visitor
 * tokens stop working with the record, and open chat sockets close.
 */
export async function deleteVisitor(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteCustomer(db, businessId, id))) throw AppError.notFound();
  forgetCustomer(db, id);
}

/**
 * Signs the visitor out everywhere: every token issued so far stops working and open chat
 * sockets close. The record and its conversations stay; the visitor starts a new chat session.
 */
export async function endVisitorSessions(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.bumpVisitorTokenVersion(db, businessId, id))) throw AppError.notFound();
  forgetCustomer(db, id);
}

// ---- What other modules may do with customers (the directory owns the table) ----

export {
  importCustomers,
  matchImportRows,
  type ImportedRow,
  type ImportKey,
  type ImportMode,
  countSegment,
  existingCustomerIds,
  findCustomersByIds,
  segmentCustomers,
  segmentCustomersAmong,
  findCustomerById,
  findCustomerByExternalId,
  findCustomerExternalId,
  findCustomerNames,
  findCustomersByPhone,
  insertCustomer,
  upsertContacts,
  upsertVerifiedCustomer,
  type ContactValues,
  type CustomerRow,
  CONSENT_FIELD,
  setConsentForAddress,
  subscribeWhereUnknown,
  updateCustomerConsent,
  type ConsentChannel,
  visibleCustomerIds,
} from './directory.repository';

/** A page of the directory visitors a segment matches that the viewer may see (newest first), with their count. */
export async function findSegmentVisitors(
  db: Db,
  scope: InboxScope,
  filter: TSegmentFilter,
  page: number,
  pageSize: number,
) {
  const { rows, count } = await repo.listSegment(db, scope, filter, pageSize, (page - 1) * pageSize);
  return { count, results: rows.map(toVisitor) };
}

/** Directory visitors by id that the viewer may see, in the order of `ids` (a static list's page). */
export async function findVisitorsByIds(
  db: Db,
  scope: InboxScope,
  ids: number[],
): Promise<TDirectoryVisitor[]> {
  const rows = await repo.findCustomersForList(db, scope, ids);
  const byId = new Map(rows.map((r) => [r.customer.id, toVisitor(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The customer's current visitor-token version; null when the record is gone. */
export async function visitorTokenVersion(
  db: Db,
  businessId: number,
  customerId: number,
): Promise<number | null> {
  return (await repo.findCustomerById(db, businessId, customerId))?.visitorTokenVersion ?? null;
}
