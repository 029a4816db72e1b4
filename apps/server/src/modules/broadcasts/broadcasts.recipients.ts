// One batch of a broadcast's customers turned into recorded sends, for every channel that sends to
// an address (email, SMS): the channel says whom it can address and how one send is built; the
// suppression, consent and rendering rules — and how the passed-over are counted — are the same.
import type { TConsentStatus } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { CustomerRow } from '../directory';
import { createMany, type QueuedSend } from '../sends';
import { normalizeAddress, suppressedAmong } from '../suppressions';
import type { BroadcastRow } from './broadcasts.repository';
import { consentSkipOf } from './broadcasts.service';

/** What a channel tells `queueAddressedSends` about one batch. */
export type AddressedBatch = {
  channel: 'email' | 'sms';
  /** The batch's customers the channel can address, each with the address its send goes to. */
  addressed: { customer: CustomerRow; address: string }[];
  /** Those the channel could not address, counted by reason (first among the skipped). */
  unaddressed: Record<string, number>;
  /** Customers passed over before anything else is asked (who left the campaign's topic). */
  passOver?: { reason: string; customerIds: Set<number> };
  /** The customer's marketing consent on this channel. */
  consentOf(customer: CustomerRow): TConsentStatus;
  /** One customer's send; an AppError `bad_request` when it cannot be rendered. */
  build(customer: CustomerRow, address: string): QueuedSend & { id: string };
  /** The reason a customer whose send cannot be rendered is counted under. */
  notRendered: string;
  /** What a suppressed address's send says (it is recorded `suppressed`, never sent). */
  suppressedError: string;
};

/**
 * Records a batch's sends inside `tx`: the suppressed keep their `suppressed` send (the log shows
 * why); the others without the consent the broadcast asks for are passed over, counted by reason;
 * one customer's send that cannot be rendered does not stop the others. Answers the queued sends'
 * ids and the customers passed over by reason (a channel's `queueBatch` answer).
 */
export async function queueAddressedSends(
  tx: Queryable,
  broadcast: BroadcastRow,
  batch: AddressedBatch,
): Promise<{ sendIds: string[]; skipped: Record<string, number> }> {
  const suppressed = await suppressedAmong(
    tx,
    broadcast.businessId,
    batch.channel,
    batch.addressed.map((a) => a.address),
  );
  let notRendered = 0;
  const passedOver: Record<string, number> = {};
  const count = (reason: string) => (passedOver[reason] = (passedOver[reason] ?? 0) + 1);
  type Row = Parameters<typeof createMany>[1][number];
  const rows = batch.addressed.flatMap(({ customer, address }): Row[] => {
    if (batch.passOver?.customerIds.has(customer.id)) {
      count(batch.passOver.reason);
      return [];
    }
    const isSuppressed = suppressed.has(normalizeAddress(address));
    const skip = isSuppressed ? null : consentSkipOf(broadcast, batch.consentOf(customer));
    if (skip) {
      count(skip);
      return [];
    }
    try {
      const send = batch.build(customer, address);
      return isSuppressed
        ? [{ ...send, status: 'suppressed', errorMessage: batch.suppressedError }]
        : [{ ...send, status: 'queued' }];
    } catch (err) {
      if (err instanceof AppError && err.code === 'bad_request') {
        notRendered++;
        return [];
      }
      throw err;
    }
  });
  const written = await createMany(tx, rows);
  return {
    sendIds: written.filter((s) => s.status === 'queued').map((s) => s.id),
    skipped: { ...batch.unaddressed, [batch.notRendered]: notRendered, ...passedOver },
  };
}
