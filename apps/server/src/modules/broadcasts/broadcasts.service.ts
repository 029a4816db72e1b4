// Broadcasts: one send per customer of a list, on one channel (cause `broadcast`). The request
// answers at once (202 with the batch id); a job fans the list out in batches, each batch's sends
// recorded `queued` together with the broadcast's cursor in one transaction, then handed to the
// channel's sender. A fan-out stopped anywhere resumes from its cursor; sends carry the idempotency
// key `broadcast:<id>:<customer id>`, so nothing is recorded — or sent — twice.
import type { Logger } from 'pino';
import {
  CUSTOMER_LIST_ERRORS,
  FREQUENCY_CAP_WORDS,
  marketingConsentAllows,
  type TBroadcast,
  type TConsentStatus,
  type TMarketingConsent,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { countListCustomers, listExists, walkListCustomers } from '../customer-lists';
import type { CustomerRow } from '../directory';
import { assertRoomFor, refusalOf } from '../billing';
import {
  cancelQueuedSends,
  cancelQueuedSendsOf,
  countSendsByCause,
  frequencyCapForRecording,
} from '../sends';
import * as repo from './broadcasts.repository';

export type { BroadcastRow } from './broadcasts.repository';

/** What a channel does for a broadcast. */
export type BroadcastChannel = {
  /**
   * Before each batch's transaction: settles what every send of the broadcast shares (reads made
   * outside the batch's transaction; an embedded database has one connection).
   */
  prepare?(broadcast: repo.BroadcastRow): Promise<void>;
  /**
   * Records the batch's sends (`queued`, cause `broadcast`, cause_id the broadcast id, idempotency
   * key from `broadcastSendKey`) inside `tx`; answers their ids and the customers passed over, counted
   * by a reason a business owner reads ("no email address", …).
   */
  queueBatch(
    tx: Queryable,
    broadcast: repo.BroadcastRow,
    customers: CustomerRow[],
  ): Promise<{ sendIds: string[]; skipped: Record<string, number> }>;
  /** After the batch committed: hands its sends to the channel's sender. */
  dispatch(sendIds: string[]): Promise<void>;
};

export type BroadcastDeps = {
  db: Db;
  jobs: Jobs;
  logger: Logger;
  /** Filled by each channel module at composition. */
  channels: Map<string, BroadcastChannel>;
  /** Customers per batch (one transaction each); 500 unless set. */
  batchSize?: number;
};

export const FANOUT_QUEUE = 'broadcasts.fanout';
export const RESUME_QUEUE = 'broadcasts.resume';
/** A running fan-out moves its cursor every batch; one untouched this long has stopped. */
export const STALLED_MS = 2 * 60_000;
const BATCH_SIZE = 500;

export const BROADCAST_ERRORS = {
  notFound: 'No such batch.',
  listDeleted: 'The list was deleted before every send was recorded.',
  failed: 'The broadcast stopped on an error; it was not resumed.',
} as const;

/** Customers a broadcast passes over for their consent, counted under these words. */
export const CONSENT_SKIP_REASONS = {
  notSubscribed: 'not subscribed (consent unknown)',
  optedOut: 'opted out',
  pending: 'awaiting confirmation (double opt-in)',
} as const;

/**
 * Why a broadcast passes over a customer whose consent on its channel is `status`, or null when it
 * may reach them: only subscribed customers, unless the send asked for legitimate interest
 * (`consent` in its request), which adds those whose consent is unknown.
 */
export function consentSkipOf(broadcast: repo.BroadcastRow, status: TConsentStatus): string | null {
  const mode = (broadcast.request.consent as TMarketingConsent | undefined) ?? 'subscribed';
  if (marketingConsentAllows(mode, status)) return null;
  if (status === 'pending') return CONSENT_SKIP_REASONS.pending;
  return status === 'unknown' ? CONSENT_SKIP_REASONS.notSubscribed : CONSENT_SKIP_REASONS.optedOut;
}

/** The idempotency key of a broadcast's send to one customer. */
export const broadcastSendKey = (broadcastId: string, customerId: number) =>
  `broadcast:${broadcastId}:${customerId}`;

async function toBroadcast(db: Queryable, row: repo.BroadcastRow): Promise<TBroadcast> {
  const skipped = Object.values(row.skippedReasons).reduce((a, b) => a + b, 0);
  return {
    id: row.id,
    channel: row.channel,
    list_id: row.listId,
    status: row.status,
    total: row.total,
    queued: row.queued,
    skipped,
    skipped_reasons: row.skippedReasons,
    sends: await countSendsByCause(db, row.businessId, 'broadcast', row.id),
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** Starts a broadcast to a list (400 on `list_id` when the business has no such list). */
export async function startBroadcast(
  deps: BroadcastDeps,
  input: {
    businessId: number;
    channel: string;
    listId: number;
    request: Record<string, unknown>;
    createdBy: number | null;
  },
): Promise<TBroadcast> {
  if (!deps.channels.has(input.channel)) throw new Error(`no broadcast channel "${input.channel}"`);
  if (!(await listExists(deps.db, input.businessId, input.listId)))
    throw AppError.fields({ list_id: [CUSTOMER_LIST_ERRORS.notFound] });
  const total = await countListCustomers(deps.db, input.businessId, input.listId);
  // Billing (engage.md §8): refused with 402 up front when the plan has no room for the list.
  await assertRoomFor(deps.db, input.businessId, input.channel, total);
  const row = await repo.insertBroadcast(deps.db, { ...input, total });
  await deps.jobs.send(FANOUT_QUEUE, { broadcast_id: row.id }, { singletonKey: row.id });
  return toBroadcast(deps.db, row);
}

export async function findBroadcast(db: Db, businessId: number, id: string): Promise<TBroadcast> {
  const row = await repo.findBroadcast(db, businessId, id);
  if (!row) throw AppError.notFound(BROADCAST_ERRORS.notFound);
  return toBroadcast(db, row);
}

/** Stops a broadcast: no further batches, and its sends not yet claimed are cancelled. */
export async function cancelBroadcast(db: Db, businessId: number, id: string): Promise<TBroadcast> {
  const row = await repo.findBroadcast(db, businessId, id);
  if (!row) throw AppError.notFound(BROADCAST_ERRORS.notFound);
  await repo.finish(db, id, 'cancelled');
  await cancelQueuedSends(db, businessId, 'broadcast', id);
  return toBroadcast(db, (await repo.findBroadcast(db, businessId, id))!);
}

class Stopped extends Error {}

// ---- Broadcasts fed by a campaign (modules/campaigns) ----
// A campaign decides who is due and when (its schedule, each recipient's local time, its throttle,
// its A/B variants); each variant's sends are recorded through a broadcast of its own, so they get
// the channel's rendering, suppression and consent checks and the broadcast's idempotency keys.

/** Opens a broadcast a campaign feeds (one per variant and run). */
export async function openCampaignBroadcast(
  deps: BroadcastDeps,
  input: {
    businessId: number;
    channel: string;
    campaignId: string;
    request: Record<string, unknown>;
    createdBy: number | null;
  },
): Promise<repo.BroadcastRow> {
  if (!deps.channels.has(input.channel)) throw new Error(`no broadcast channel "${input.channel}"`);
  return repo.insertCampaignBroadcast(deps.db, input);
}

/**
 * Records a batch of customers under a campaign's broadcast: the channel's sends (idempotency key
 * `broadcast:<id>:<customer>`, so a batch recorded again after a crash records nothing twice) and
 * the cursor, in one transaction with the campaign's own bookkeeping (`alsoInTx`); then hands the
 * queued sends to the channel's sender. Null when the broadcast no longer runs (paused, cancelled).
 */
export async function feedBroadcast(
  deps: BroadcastDeps,
  broadcastId: string,
  customers: CustomerRow[],
  alsoInTx: (
    tx: Queryable,
    batch: { sendIds: string[]; skipped: Record<string, number>; capped: Map<number, { reason: string }> },
  ) => Promise<void>,
  /** The clock the business's frequency cap is counted at (the campaign's). */
  capAt: Date,
): Promise<{ sendIds: string[]; skipped: Record<string, number> } | null> {
  const row = await repo.findBroadcastById(deps.db, broadcastId);
  if (!row || row.status !== 'running') return null;
  const channel = deps.channels.get(row.channel);
  if (!channel) throw new Error(`no broadcast channel "${row.channel}"`);
  if (customers.length > 0) await channel.prepare?.(row);
  let batch: { sendIds: string[]; skipped: Record<string, number> };
  try {
    batch = await deps.db.transaction(async (tx) => {
      // The business's frequency cap, counted and recorded under its per-customer locks (held
      // until this commit), so no other sender passes the same customer at the cap's edge meanwhile.
      const { capped } = await frequencyCapForRecording(
        tx,
        row.businessId,
        customers.map((c) => c.id),
        capAt,
      );
      const sendTo = capped.size > 0 ? customers.filter((c) => !capped.has(c.id)) : customers;
      const b = sendTo.length > 0 ? await channel.queueBatch(tx, row, sendTo) : { sendIds: [], skipped: {} };
      const skipped = { ...b.skipped };
      if (capped.size > 0)
        skipped[FREQUENCY_CAP_WORDS.skipped] = (skipped[FREQUENCY_CAP_WORDS.skipped] ?? 0) + capped.size;
      const advanced = await repo.advance(tx, broadcastId, {
        cursor: customers.reduce((m, c) => Math.max(m, c.id), row.cursor),
        queued: b.sendIds.length,
        skipped,
      });
      if (!advanced) throw new Stopped();
      await repo.addToTotal(tx, broadcastId, customers.length);
      await alsoInTx(tx, { ...b, capped });
      return b;
    });
  } catch (err) {
    if (err instanceof Stopped) return null;
    throw err;
  }
  if (batch.sendIds.length > 0) await channel.dispatch(batch.sendIds);
  return batch;
}

/**
 * Stops a campaign's broadcast (a pause, a cancel, a resume opening new ones): it takes no more
 * batches, and its sends no sender has claimed yet are cancelled — never sent. Answers the
 * customers whose send was cancelled (a resumed campaign sends them under a new broadcast).
 */
export async function stopCampaignBroadcast(
  db: Queryable,
  businessId: number,
  id: string,
  status: 'done' | 'cancelled',
): Promise<number[]> {
  await repo.finish(db, id, status);
  return cancelQueuedSendsOf(db, businessId, 'broadcast', id);
}

/** A campaign's broadcast whose last batch was fed: done. */
export async function finishCampaignBroadcast(db: Queryable, id: string): Promise<void> {
  await repo.finish(db, id, 'done');
}

/** The fan-out job: walks the list from the cursor, one transaction per batch. */
export async function fanOut(deps: BroadcastDeps, id: string): Promise<void> {
  const row = await repo.startRunning(deps.db, id);
  if (!row) return; // ended (done, failed or cancelled)
  const channel = deps.channels.get(row.channel);
  if (!channel) throw new Error(`no broadcast channel "${row.channel}"`);
  if (row.listId === null || !(await listExists(deps.db, row.businessId, row.listId))) {
    await repo.finish(deps.db, id, 'failed', BROADCAST_ERRORS.listDeleted);
    return;
  }
  try {
    for await (const customers of walkListCustomers(deps.db, row.businessId, row.listId, {
      batchSize: deps.batchSize ?? BATCH_SIZE,
      afterId: row.cursor,
    })) {
      await channel.prepare?.(row);
      const { sendIds } = await deps.db.transaction(async (tx) => {
        // A list broadcast is marketing: the business's frequency cap (shared with campaigns,
        // journeys and agents) passes over who already got enough, counted under its words; its
        // per-customer locks are held until this batch's sends are committed.
        const { capped } = await frequencyCapForRecording(
          tx,
          row.businessId,
          customers.map((c) => c.id),
          new Date(),
        );
        const sendTo = capped.size > 0 ? customers.filter((c) => !capped.has(c.id)) : customers;
        const batch =
          sendTo.length > 0 ? await channel.queueBatch(tx, row, sendTo) : { sendIds: [], skipped: {} };
        const skipped = { ...batch.skipped };
        if (capped.size > 0)
          skipped[FREQUENCY_CAP_WORDS.skipped] = (skipped[FREQUENCY_CAP_WORDS.skipped] ?? 0) + capped.size;
        const advanced = await repo.advance(tx, id, {
          cursor: customers[customers.length - 1]!.id,
          queued: batch.sendIds.length,
          skipped,
        });
        if (!advanced) throw new Stopped();
        return batch;
      });
      await channel.dispatch(sendIds);
    }
  } catch (err) {
    if (err instanceof Stopped) return;
    // Billing refused a batch (the quota ran out, the subscription stopped): retrying cannot help.
    const refused = refusalOf(err);
    if (refused) {
      await repo.finish(deps.db, id, 'failed', refused);
      return;
    }
    throw err; // the job retries from the cursor
  }
  await repo.finish(deps.db, id, 'done');
}

/** Resumes fan-outs a stopped process left unfinished (runs every minute). */
export async function resumeStalled(deps: BroadcastDeps, now = new Date()): Promise<number> {
  const ids = await repo.findStalled(deps.db, new Date(now.getTime() - STALLED_MS), 100);
  for (const id of ids) await deps.jobs.send(FANOUT_QUEUE, { broadcast_id: id }, { singletonKey: id });
  return ids.length;
}

/** The queues: the fan-out (retried from its cursor; given up after the last retry) and the resume sweep. */
export async function defineBroadcastQueues(deps: BroadcastDeps): Promise<void> {
  await deps.jobs.define<{ broadcast_id: string }>({
    name: FANOUT_QUEUE,
    handler: async ({ broadcast_id }) => {
      try {
        await fanOut(deps, broadcast_id);
      } catch (err) {
        deps.logger.error(
          { err, broadcast: broadcast_id },
          'broadcast fan-out failed; retrying from its cursor',
        );
        throw err;
      }
    },
    retryLimit: 5,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 60 * 60,
  });
  await deps.jobs.define({
    name: RESUME_QUEUE,
    handler: async () => {
      const n = await resumeStalled(deps);
      if (n > 0) deps.logger.warn({ broadcasts: n }, 'stalled broadcasts resumed');
    },
    retryLimit: 1,
  });
  await deps.jobs.schedule(RESUME_QUEUE, '* * * * *');
}

/**
 * What every send of a broadcast shares (a sender, a template), settled once per broadcast and
 * remembered for a minute, so a batch of 500 asks for it once; a failure is forgotten at once.
 */
export function sharedPerBroadcast<T>(
  settle: (broadcast: repo.BroadcastRow) => Promise<T>,
): (broadcast: repo.BroadcastRow) => Promise<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (broadcast) => {
    const now = Date.now();
    const hit = entries.get(broadcast.id);
    if (hit && now - hit.at < 60_000) return hit.value;
    if (entries.size > 100) entries.clear();
    const value = settle(broadcast);
    entries.set(broadcast.id, { at: now, value });
    value.catch(() => entries.delete(broadcast.id));
    return value;
  };
}
