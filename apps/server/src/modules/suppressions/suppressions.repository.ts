// The only code that touches `suppressions`: addresses a business must not send to, per channel.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { suppressions, type SendChannel, type SuppressionReason } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type { SendChannel, SuppressionReason };
export type SuppressionRow = typeof suppressions.$inferSelect;

export async function findSuppression(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  address: string,
): Promise<SuppressionRow | null> {
  const [row] = await db
    .select()
    .from(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        eq(suppressions.channel, channel),
        eq(suppressions.address, address),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Of `addresses`, those suppressed (one query for a whole batch). */
export async function findSuppressed(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  addresses: string[],
): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: suppressions.address })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        eq(suppressions.channel, channel),
        // One array parameter, not one per address: a batch holds a thousand.
        sql`${suppressions.address} = any(${sql.param(addresses)}::text[])`,
      ),
    );
  return new Set(rows.map((r) => r.address));
}

/**
 * The suppressions among addresses of several channels, in one query (an import's batch: its
 * emails, and its phones for SMS and WhatsApp) — one array parameter a list.
 */
export async function findSuppressionsAmong(
  db: Queryable,
  businessId: number,
  lists: { channels: SendChannel[]; addresses: string[] }[],
): Promise<{ channel: SendChannel; address: string; reason: SuppressionReason }[]> {
  const wanted = lists.filter((l) => l.channels.length && l.addresses.length);
  if (wanted.length === 0) return [];
  return db
    .select({ channel: suppressions.channel, address: suppressions.address, reason: suppressions.reason })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        or(
          ...wanted.map((l) =>
            and(
              inArray(suppressions.channel, l.channels),
              sql`${suppressions.address} = any(${sql.param(l.addresses)}::text[])`,
            ),
          ),
        ),
      ),
    );
}

/**
 * Adds the address, or updates its reason: a later, graver reason (a complaint after an
 * unsubscribe) replaces the earlier one; the first send and time are kept otherwise.
 */
export async function upsertSuppression(
  db: Queryable,
  values: {
    businessId: number;
    channel: SendChannel;
    address: string;
    reason: SuppressionReason;
    sendId: string | null;
    detail: string | null;
  },
): Promise<SuppressionRow> {
  const [row] = await db
    .insert(suppressions)
    .values(values)
    .onConflictDoUpdate({
      target: [suppressions.businessId, suppressions.channel, suppressions.address],
      set: {
        reason: sql`excluded.reason`,
        sendId: sql`coalesce(excluded.send_id, ${suppressions.sendId})`,
        detail: sql`coalesce(excluded.detail, ${suppressions.detail})`,
      },
    })
    .returning();
  return row!;
}

export async function deleteSuppression(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  address: string,
  reasons?: SuppressionReason[],
): Promise<boolean> {
  const rows = await db
    .delete(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        eq(suppressions.channel, channel),
        eq(suppressions.address, address),
        ...(reasons ? [inArray(suppressions.reason, reasons)] : []),
      ),
    )
    .returning({ id: suppressions.id });
  return rows.length > 0;
}
