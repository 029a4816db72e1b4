// The only code that touches `suppressions`: addresses a business must not send to, per channel.
import { createHash } from 'node:crypto';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { suppressions, type SendChannel, type SuppressionReason } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type { SendChannel, SuppressionReason };
export type SuppressionRow = typeof suppressions.$inferSelect;

/**
 * How an erased person's address is kept (GDPR art. 17): only its hash, so the business never
 * mails them again without Titan holding the address. Every lookup matches both forms.
 */
export const hashedAddress = (address: string) =>
  `sha256:${createHash('sha256').update(address).digest('hex')}`;

/** The addresses and their hashed forms, and the way back from a hash to the address asked. */
function withHashes(addresses: string[]): { all: string[]; original: Map<string, string> } {
  const original = new Map<string, string>();
  for (const a of addresses) original.set(hashedAddress(a), a);
  return { all: [...addresses, ...original.keys()], original };
}

/** The suppressions of these addresses are kept hashed from now on (an erased customer's). */
export async function hashSuppressions(
  db: Queryable,
  businessId: number,
  addresses: string[],
): Promise<void> {
  for (const address of addresses) {
    const hashed = hashedAddress(address);
    // A hashed row already there (erased before) stays; the plain one goes.
    await db.execute(sql`update ${suppressions} s set address = ${hashed}, detail = 'Erased (GDPR art. 17)', send_id = null
      where s.business_id = ${businessId} and s.address = ${address}
        and not exists (select 1 from ${suppressions} h where h.business_id = s.business_id
          and h.channel = s.channel and h.address = ${hashed})`);
    await db
      .delete(suppressions)
      .where(and(eq(suppressions.businessId, businessId), eq(suppressions.address, address)));
  }
}

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
        inArray(suppressions.address, [address, hashedAddress(address)]),
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
  const { all, original } = withHashes(addresses);
  const rows = await db
    .select({ address: suppressions.address })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        eq(suppressions.channel, channel),
        // One array parameter, not one per address: a batch holds a thousand.
        sql`${suppressions.address} = any(${sql.param(all)}::text[])`,
      ),
    );
  return new Set(rows.map((r) => original.get(r.address) ?? r.address));
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
  const original = new Map<string, string>();
  const rows = await db
    .select({ channel: suppressions.channel, address: suppressions.address, reason: suppressions.reason })
    .from(suppressions)
    .where(
      and(
        eq(suppressions.businessId, businessId),
        or(
          ...wanted.map((l) =>
            and(
              inArray(suppressions.channel, l.channels),
              sql`${suppressions.address} = any(${sql.param(
                ((h) => {
                  for (const [k, v] of h.original) original.set(k, v);
                  return h.all;
                })(withHashes(l.addresses)),
              )}::text[])`,
            ),
          ),
        ),
      ),
    );
  return rows.map((r) => ({ ...r, address: original.get(r.address) ?? r.address }));
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
