// Customers turned into recorded sends, for every channel that sends to an address (email, SMS) and
// both callers that send to many (a broadcast's batch) or one (a journey's send step): the channel
// says whom it can address and how one send is built; the suppression, consent and rendering rules
// are the same. A broadcast counts the passed-over by reason; a journey's step answers its one.
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

/** What `recordAddressedSends` is given: customers with their addresses, and how one send is built. */
export type AddressedSends<C extends { id: number }> = {
  businessId: number;
  channel: 'email' | 'sms';
  addressed: { customer: C; address: string }[];
  /** Customers passed over before anything else is asked (who left the campaign's topic). */
  passOver?: { reason: string; customerIds: Set<number> };
  /** Why the customer's marketing consent on this channel passes them over; null when it allows. */
  consentSkip(customer: C): string | null;
  /** One customer's send (its idempotency key set); an AppError `bad_request` when it cannot be rendered. */
  build(customer: C, address: string): QueuedSend & { id: string };
  /** What a suppressed address's send says (it is recorded `suppressed`, never sent). */
  suppressedError: string;
};

/** What became of one addressed customer. */
export type AddressedOutcome =
  /** Recorded now: `queued` (to be dispatched after the commit) or `suppressed`. */
  | { kind: 'recorded'; customerId: number; sendId: string; status: 'queued' | 'suppressed' }
  /** Its idempotency key was already recorded (another worker, a retried step): that send stands. */
  | { kind: 'taken'; customerId: number }
  | { kind: 'passed_over'; customerId: number; reason: string }
  | { kind: 'not_rendered'; customerId: number; error: AppError };

/**
 * The one builder of sends to addresses (email, SMS) for broadcasts and journeys: inside `tx`, the
 * suppressed keep their `suppressed` send (the log shows why); the others without the consent asked
 * for are passed over; each send is built by the channel (one that cannot be rendered does not stop
 * the others) and all are recorded in one statement, once per idempotency key. The frequency cap is
 * the caller's (a broadcast's batch, a journey's step), asked before.
 */
export async function recordAddressedSends<C extends { id: number }>(
  tx: Queryable,
  input: AddressedSends<C>,
): Promise<AddressedOutcome[]> {
  const suppressed = await suppressedAmong(
    tx,
    input.businessId,
    input.channel,
    input.addressed.map((a) => a.address),
  );
  const outcomes: AddressedOutcome[] = [];
  type Row = Parameters<typeof createMany>[1][number];
  const built: { customerId: number; row: Row }[] = [];
  for (const { customer, address } of input.addressed) {
    if (input.passOver?.customerIds.has(customer.id)) {
      outcomes.push({ kind: 'passed_over', customerId: customer.id, reason: input.passOver.reason });
      continue;
    }
    const isSuppressed = suppressed.has(normalizeAddress(address));
    const skip = isSuppressed ? null : input.consentSkip(customer);
    if (skip) {
      outcomes.push({ kind: 'passed_over', customerId: customer.id, reason: skip });
      continue;
    }
    try {
      const send = input.build(customer, address);
      built.push({
        customerId: customer.id,
        row: isSuppressed
          ? { ...send, status: 'suppressed', errorMessage: input.suppressedError }
          : { ...send, status: 'queued' },
      });
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'bad_request')) throw err;
      outcomes.push({ kind: 'not_rendered', customerId: customer.id, error: err });
    }
  }
  const written = new Set(
    (
      await createMany(
        tx,
        built.map((b) => b.row),
      )
    ).map((s) => s.id),
  );
  for (const { customerId, row } of built)
    outcomes.push(
      written.has(row.id)
        ? { kind: 'recorded', customerId, sendId: row.id, status: row.status }
        : { kind: 'taken', customerId },
    );
  return outcomes;
}

/**
 * Records a broadcast's batch of sends inside `tx` (`recordAddressedSends` with the broadcast's
 * consent rule): answers the queued sends' ids and the customers passed over by reason (a
 * channel's `queueBatch` answer).
 */
export async function queueAddressedSends(
  tx: Queryable,
  broadcast: BroadcastRow,
  batch: AddressedBatch,
): Promise<{ sendIds: string[]; skipped: Record<string, number> }> {
  const outcomes = await recordAddressedSends(tx, {
    businessId: broadcast.businessId,
    channel: batch.channel,
    addressed: batch.addressed,
    passOver: batch.passOver,
    consentSkip: (customer) => consentSkipOf(broadcast, batch.consentOf(customer)),
    build: batch.build,
    suppressedError: batch.suppressedError,
  });
  const sendIds: string[] = [];
  let notRendered = 0;
  const passedOver: Record<string, number> = {};
  for (const o of outcomes) {
    if (o.kind === 'recorded' && o.status === 'queued') sendIds.push(o.sendId);
    else if (o.kind === 'not_rendered') notRendered++;
    else if (o.kind === 'passed_over') passedOver[o.reason] = (passedOver[o.reason] ?? 0) + 1;
  }
  return { sendIds, skipped: { ...batch.unaddressed, [batch.notRendered]: notRendered, ...passedOver } };
}
