// The visitor directory: find, read, correct and remove the people who wrote to a business.
import type {
  TLabelRef,
  TDirectoryPage,
  TDirectoryQuery,
  TDirectoryVisitor,
  TSegmentFilter,
  TUpdateDirectoryVisitorRequest,
} from '@titan/contracts';
import { START_CONVERSATION_ERRORS } from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { phoneForStorage } from '../../platform/phone-numbers';
import { findBusiness } from '../business';
import { forgetCustomer } from '../auth';
import { businessScope, type InboxScope } from '../../platform/inbox-scope';
import { applyLabels, resolveLabels } from '../labels';
import { emitCustomerEvents } from '../journeys';
import { listeningBusinesses, recordEvent, recordEventsOfType } from '../webhooks';
import * as repo from './directory.repository';
import * as consentRepo from './directory.consent.repository';
import * as segmentsRepo from './directory.segments.repository';
import * as exportRepo from './directory.export.repository';
import * as importsRepo from './directory.imports.repository';

function toVisitor(row: {
  customer: repo.CustomerRow;
  conversationCount: number;
  labels: TLabelRef[];
}): TDirectoryVisitor {
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
    labels: row.labels,
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
    query.label,
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
  // Checked before anything is written: a label of another business is 404 naming label_ids.
  if (input.label_ids) await resolveLabels(db, businessId, input.label_ids);
  const phone =
    input.phone !== undefined
      ? phoneForStorage(input.phone, (await findBusiness(db, businessId)).dial_code)
      : undefined;
  await db.transaction(async (tx) => {
    await repo.updateCustomer(tx, businessId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.email !== undefined ? { email: input.email?.toLowerCase() ?? null } : {}),
      ...(phone !== undefined ? { phone } : {}),
      ...(input.fields !== undefined ? { fields: { ...current.customer.fields, ...input.fields } } : {}),
    });
    const row = await repo.findCustomerById(tx, businessId, id);
    if (row)
      await recordEvent(tx, {
        businessId,
        type: 'customer.updated',
        objectKey: `customer:${id}`,
        data: { ...customerEventData(row), changed: Object.keys(input).join(',') },
      });
    await emitCustomerEvents(tx, {
      businessId,
      customerId: id,
      name: 'customer.updated',
      properties: { changed: Object.keys(input) },
    });
  });
  const labelIds = input.label_ids;
  if (labelIds) {
    await db.transaction((tx) => applyLabels(tx, businessId, 'customer', [id], labelIds, 'set'));
  }
  return findVisitor(db, businessScope(businessId), id);
}

/**
 * Removes the person; their conversations stay, shown as "Anonymous Customer". Their visitor
 * tokens stop working with the record, and open chat sockets close.
 */
export async function deleteVisitor(db: Db, businessId: number, id: number): Promise<void> {
  const erased = await db.transaction(async (tx) => {
    if (!(await repo.deleteCustomer(tx, businessId, id))) return false;
    await recordEvent(tx, {
      businessId,
      type: 'customer.erased',
      objectKey: `customer:${id}`,
      data: { id },
    });
    return true;
  });
  if (!erased) throw AppError.notFound();
  forgetCustomer(db, id);
}

/**
 * Erase (GDPR art. 17), inside the erase's transaction: the customer's record goes (lists, labels
 * and topics with it) and `customer.erased` is recorded; false when there is no such customer.
 * Call `forgetErasedCustomer` after the commit (closes their chat sockets).
 */
export async function eraseCustomerRecord(tx: Queryable, businessId: number, id: number): Promise<boolean> {
  if (!(await repo.deleteCustomer(tx, businessId, id))) return false;
  await recordEvent(tx, { businessId, type: 'customer.erased', objectKey: `customer:${id}`, data: { id } });
  return true;
}

export function forgetErasedCustomer(db: Db, id: number): void {
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

/** The business's customer with this id, or a 404 on `customer_id` (a conversation staff start). */
export async function customerToWrite(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<repo.CustomerRow> {
  const row = await repo.findCustomerById(db, businessId, id);
  if (!row)
    throw new AppError('not_found', START_CONVERSATION_ERRORS.noCustomer, {
      customer_id: [START_CONVERSATION_ERRORS.noCustomer],
    });
  return row;
}

export {
  matchImportRows,
  type ImportedRow,
  type ImportKey,
  type ImportMode,
} from './directory.imports.repository';
export { countSegment, segmentCustomers, segmentCustomersAmong } from './directory.segments.repository';
export { existingCustomerIds, findCustomersByIds } from './directory.export.repository';
export {
  findCustomerById,
  findCustomerByExternalId,
  findCustomerExternalId,
  findCustomerNames,
  findCustomersByEmail,
  findCustomersByPhone,
  type ContactValues,
  type CustomerRow,
  visibleCustomerIds,
} from './directory.repository';
export { CONSENT_FIELD, customerIdsAtAddress, type ConsentChannel } from './directory.consent.repository';

// ---- Webhook events (recorded in the transaction of the change) ----

/** A customer as webhook events carry it: flat. */
export function customerEventData(row: repo.CustomerRow): Record<string, unknown> {
  return {
    id: row.id,
    external_id: row.externalId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    email_status: row.emailStatus,
    sms_status: row.smsStatus,
    whatsapp_status: row.whatsappStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A new customer, and its `customer.created` event in the same transaction (`db` should be one). */
export async function insertCustomer(
  db: Queryable,
  values: Parameters<typeof repo.insertCustomer>[1],
): Promise<repo.CustomerRow> {
  const row = await repo.insertCustomer(db, values);
  await recordEvent(db, {
    businessId: row.businessId,
    type: 'customer.created',
    objectKey: `customer:${row.id}`,
    data: customerEventData(row),
  });
  await emitCustomerEvents(db, { businessId: row.businessId, customerId: row.id, name: 'customer.created' });
  return row;
}

/**
 * `customer.created` / `customer.updated` for customers a bulk path wrote (an import, a
 * WhatsApp contact, a verified widget visitor), when an endpoint of the business listens: the rows
 * are read only then, so an import nobody listens to reads nothing more.
 */
async function recordCustomerWrites(
  db: Queryable,
  businessId: number,
  type: 'customer.created' | 'customer.updated',
  ids: number[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (ids.length === 0 || (await listeningBusinesses(db, [businessId], type)).size === 0) return;
  const rows = await exportRepo.findCustomersByIds(db, businessId, ids);
  await recordEventsOfType(db, type, rows, (row) => ({
    objectKey: `customer:${row.id}`,
    data: { ...customerEventData(row), ...extra },
  }));
}

/**
 * One batch of import rows (see the repository's `importCustomers`), with `customer.created` for
 * the rows inserted and `customer.updated` for those written over, in the batch's transaction.
 */
export async function importCustomers(
  db: Queryable,
  businessId: number,
  rows: importsRepo.ImportedRow[],
  mode: importsRepo.ImportMode,
  earlierRow?: (customerId: number) => number | undefined,
): Promise<importsRepo.ImportOutcome> {
  const outcome = await importsRepo.importCustomers(db, businessId, rows, mode, earlierRow);
  await recordCustomerWrites(
    db,
    businessId,
    'customer.created',
    outcome.inserted.map((r) => r.id),
    { source: 'import' },
  );
  await recordCustomerWrites(
    db,
    businessId,
    'customer.updated',
    outcome.updated.map((r) => r.id),
    { source: 'import' },
  );
  return outcome;
}

/** WhatsApp contacts as customers (see the repository's `upsertContacts`); `customer.created` for the new ones. */
export async function upsertContacts(
  db: Queryable,
  contacts: repo.ContactValues[],
): Promise<{ id: number; businessId: number; externalId: string }[]> {
  const rows = await repo.upsertContacts(db, contacts);
  const created = new Map<number, number[]>();
  for (const r of rows)
    if (r.created) created.set(r.businessId, [...(created.get(r.businessId) ?? []), r.id]);
  for (const [businessId, ids] of created)
    await recordCustomerWrites(db, businessId, 'customer.created', ids, { source: 'whatsapp' });
  return rows.map(({ id, businessId, externalId }) => ({ id, businessId, externalId }));
}

/** A visitor the embedding site vouched for (see the repository); `customer.created` when new. */
export async function upsertVerifiedCustomer(
  db: Queryable,
  values: Parameters<typeof repo.upsertVerifiedCustomer>[1],
): Promise<repo.CustomerRow> {
  const { created, ...row } = await repo.upsertVerifiedCustomer(db, values);
  if (created)
    await recordCustomerWrites(db, row.businessId, 'customer.created', [row.id], { source: 'widget' });
  return row;
}

/**
 * Sets `status` on the channel for those of `ids` whose consent there is still unknown (an
 * import's word, double opt-in's `pending`); `consent.changed` for each marked.
 */
export async function setConsentWhereUnknown(
  db: Queryable,
  businessId: number,
  ids: number[],
  channel: consentRepo.ConsentChannel,
  status: Parameters<typeof consentRepo.setConsentWhereUnknown>[4],
): Promise<number[]> {
  const marked = await consentRepo.setConsentWhereUnknown(db, businessId, ids, channel, status);
  await recordEventsOfType(
    db,
    'consent.changed',
    marked.map((id) => ({ id, businessId })),
    ({ id }) => ({ objectKey: `customer:${id}`, data: { customer_id: id, channel, status } }),
  );
  return marked;
}

/** `setConsentWhereUnknown` with `subscribed` (an import that says they agreed). */
export function subscribeWhereUnknown(
  db: Queryable,
  businessId: number,
  ids: number[],
  channel: consentRepo.ConsentChannel,
): Promise<number[]> {
  return setConsentWhereUnknown(db, businessId, ids, channel, 'subscribed');
}

/** Consent set for everyone with an address on a channel (an unsubscribe, a bounce, STOP): `consent.changed` each. */
export async function setConsentForAddress(
  db: Queryable,
  businessId: number,
  channel: consentRepo.ConsentChannel,
  address: string,
  status: Parameters<typeof consentRepo.setConsentForAddress>[4],
): Promise<number> {
  const ids = await consentRepo.setConsentForAddress(db, businessId, channel, address, status);
  await recordEvent(
    db,
    ...ids.map((id) => ({
      businessId,
      type: 'consent.changed' as const,
      objectKey: `customer:${id}`,
      data: { customer_id: id, channel, status, address },
    })),
  );
  await emitCustomerEvents(
    db,
    ...ids.map((id) => ({
      businessId,
      customerId: id,
      name: 'consent.changed' as const,
      properties: { channel, status },
    })),
  );
  return ids.length;
}

export async function updateCustomerConsent(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Parameters<typeof consentRepo.updateCustomerConsent>[3],
): Promise<void> {
  await consentRepo.updateCustomerConsent(db, businessId, id, patch);
  const channels = Object.entries(consentRepo.CONSENT_FIELD) as [
    consentRepo.ConsentChannel,
    keyof typeof patch,
  ][];
  await recordEvent(
    db,
    ...channels
      .filter(([, field]) => patch[field] !== undefined)
      .map(([channel, field]) => ({
        businessId,
        type: 'consent.changed' as const,
        objectKey: `customer:${id}`,
        data: { customer_id: id, channel, status: patch[field] },
      })),
  );
  await emitCustomerEvents(
    db,
    ...channels
      .filter(([, field]) => patch[field] !== undefined)
      .map(([channel, field]) => ({
        businessId,
        customerId: id,
        name: 'consent.changed' as const,
        properties: { channel, status: patch[field] },
      })),
  );
}

/** A page of the directory visitors a segment matches that the viewer may see (newest first), with their count. */
export async function findSegmentVisitors(
  db: Db,
  scope: InboxScope,
  filter: TSegmentFilter,
  page: number,
  pageSize: number,
) {
  const { rows, count } = await segmentsRepo.listSegment(db, scope, filter, pageSize, (page - 1) * pageSize);
  return { count, results: rows.map(toVisitor) };
}

/** Directory visitors by id that the viewer may see, in the order of `ids` (a static list's page). */
export async function findVisitorsByIds(
  db: Db,
  scope: InboxScope,
  ids: number[],
): Promise<TDirectoryVisitor[]> {
  const rows = await exportRepo.findCustomersForList(db, scope, ids);
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
