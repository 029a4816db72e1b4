// The directory's CSV export and lookups of customers by id, for lists and sends.
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { type TSegmentFilter } from '@titan/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import { customers } from '../../db/schema';
import { type InboxScope } from '../../platform/conversation-conditions.repository';
import { rowsOf } from '../../db/sql';

import { type CustomerRow, fragment, listColumns, visibleCustomers } from './directory.repository';
import { segmentCondition } from './directory.segments.repository';

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
