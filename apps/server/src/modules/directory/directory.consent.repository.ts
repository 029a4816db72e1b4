// The directory's consent columns, kept in step with the suppression list by modules/consent.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { customers, type ConsentStatus } from '../../db/schema';

import type { CustomerRow } from './directory.repository';

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
