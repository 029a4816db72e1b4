// Suppression (engage.md §2): per business and per channel, an address with a reason
// (unsubscribed|bounced|complained|manual). Every send checks it and records `suppressed`.
import type { Queryable } from '../../db/client';
import * as repo from './suppressions.repository';
import type { SendChannel, SuppressionReason } from './suppressions.repository';

export type { SuppressionReason };
export type { SuppressionRow } from './suppressions.repository';

/** Addresses compare case-insensitively: kept lower-cased and trimmed. */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

export async function isSuppressed(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  address: string,
): Promise<boolean> {
  return (await repo.findSuppression(db, businessId, channel, normalizeAddress(address))) !== null;
}

export async function findSuppression(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  address: string,
): Promise<repo.SuppressionRow | null> {
  return repo.findSuppression(db, businessId, channel, normalizeAddress(address));
}

/**
 * The suppressions of addresses (any case) on several channels at once: each list's addresses on
 * each of its channels, in one query.
 */
export async function suppressionsAmong(
  db: Queryable,
  businessId: number,
  lists: { channels: SendChannel[]; addresses: string[] }[],
) {
  return repo.findSuppressionsAmong(
    db,
    businessId,
    lists.map((l) => ({ channels: l.channels, addresses: [...new Set(l.addresses.map(normalizeAddress))] })),
  );
}

/** Of these addresses (any case), the suppressed ones, lower-cased. */
export async function suppressedAmong(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  addresses: string[],
): Promise<Set<string>> {
  return repo.findSuppressed(db, businessId, channel, [...new Set(addresses.map(normalizeAddress))]);
}

export async function suppress(
  db: Queryable,
  input: {
    businessId: number;
    channel: SendChannel;
    address: string;
    reason: SuppressionReason;
    sendId?: string | null;
    detail?: string | null;
  },
): Promise<repo.SuppressionRow> {
  return repo.upsertSuppression(db, {
    businessId: input.businessId,
    channel: input.channel,
    address: normalizeAddress(input.address),
    reason: input.reason,
    sendId: input.sendId ?? null,
    detail: input.detail ?? null,
  });
}

/**
 * Lifts a suppression; with `reasons`, only one of those (a person resubscribing lifts their
 * unsubscribe, not a hard bounce). True when one was lifted.
 */
export async function unsuppress(
  db: Queryable,
  input: { businessId: number; channel: SendChannel; address: string; reasons?: SuppressionReason[] },
): Promise<boolean> {
  return repo.deleteSuppression(
    db,
    input.businessId,
    input.channel,
    normalizeAddress(input.address),
    input.reasons,
  );
}

/** An erased customer's addresses stay suppressed, kept only as hashes (GDPR art. 17). */
export async function keepHashedSuppressions(
  db: Queryable,
  businessId: number,
  entries: { channel: 'email' | 'sms' | 'whatsapp'; address: string }[],
): Promise<void> {
  for (const e of entries) {
    const address = normalizeAddress(e.address);
    if (!(await repo.findSuppression(db, businessId, e.channel, address)))
      await repo.upsertSuppression(db, {
        businessId,
        channel: e.channel,
        address,
        reason: 'manual',
        sendId: null,
        detail: null,
      });
  }
  await repo.hashSuppressions(db, businessId, [...new Set(entries.map((e) => normalizeAddress(e.address)))]);
}
