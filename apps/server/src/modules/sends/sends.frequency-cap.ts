// The business's marketing frequency cap (issue 32), applied by every marketing sender: campaigns
// at queue time, journeys' send step, agents' guardrails and deliveries. One set-based question per page of
// customers: of these, who already got the cap's number of marketing messages in its window.
import { FREQUENCY_CAP_WORDS, type TFrequencyCap } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { frequencyCapOf } from '../business';
import { lockFrequencyCap, marketingSendCounts } from './sends.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Who the cap stops now: customer id → the marketing sends counted, with the sentence to show. */
export type CappedCustomers = {
  cap: TFrequencyCap;
  capped: Map<number, { sent: number; reason: string }>;
};

/**
 * Of these customers of the business, those the business's frequency cap stops at `now`: each
 * has `max_messages` or more marketing sends (campaigns and broadcasts, journeys, agents; email,
 * SMS, WhatsApp; not failed, bounced, suppressed or cancelled) in the last `period_days` days.
 * Empty when the cap is off. Inside a transaction, sends it recorded count too.
 */
export async function frequencyCapped(
  db: Queryable,
  businessId: number,
  customerIds: number[],
  now: Date,
): Promise<CappedCustomers> {
  const cap = await frequencyCapOf(db, businessId);
  const capped = new Map<number, { sent: number; reason: string }>();
  if (!cap.enabled || customerIds.length === 0) return { cap, capped };
  const since = new Date(now.getTime() - cap.period_days * DAY_MS);
  const counts = await marketingSendCounts(db, businessId, [...new Set(customerIds)], since);
  for (const [id, sent] of counts)
    if (sent >= cap.max_messages) capped.set(id, { sent, reason: FREQUENCY_CAP_WORDS.reason(sent, cap) });
  return { cap, capped };
}

/**
 * `frequencyCapped` for a sender about to record: inside the transaction `tx` that will record the
 * sends, it first holds the cap's advisory lock on each (business, customer) — ascending customer
 * id, so batches cannot deadlock — until that transaction ends, then counts. A second sender for the
 * same customer waits for the first's commit and counts its send: at the cap's edge only one passes.
 * Every capped sender (campaigns and list sends, journeys, agents) records through this. Nothing
 * is locked while the cap is off.
 */
export async function frequencyCapForRecording(
  tx: Queryable,
  businessId: number,
  customerIds: number[],
  now: Date,
): Promise<CappedCustomers> {
  const cap = await frequencyCapOf(tx, businessId);
  if (cap.enabled)
    await lockFrequencyCap(
      tx,
      customerIds.map((customerId) => ({ businessId, customerId })),
    );
  return frequencyCapped(tx, businessId, customerIds, now);
}

/**
 * The cap's locks on these (business, customer) pairs, ascending customer id, held until `tx` ends:
 * for a sender that records for many customers one at a time in one transaction (a journey's batch
 * of steps), taken before the first so its later `frequencyCapForRecording` calls wait for nothing.
 */
export async function holdFrequencyCapLocks(
  tx: Queryable,
  keys: { businessId: number; customerId: number }[],
): Promise<void> {
  await lockFrequencyCap(tx, keys);
}
