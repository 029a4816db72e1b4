// The campaign sender. One pass over a campaign: a scheduled one whose time has come starts
// sending; its audience is fixed once (campaign_recipients, each with a due time and variant);
// then due recipients are taken a batch at a time — within the hourly throttle — and fed to the
// variant's broadcast, which records their sends with its idempotency keys in the transaction that
// marks them recorded. The status is read before every batch, so a pause acts within one batch;
// a crash anywhere resumes from the recipients' states (the sweep hands every active campaign to
// a pass each minute). An A/B test's rest waits for the winner, picked by the rule after the wait.
import { createHash } from 'node:crypto';
import { HeapCeiling } from '../../platform/heap';
import { feedBroadcast, finishCampaignBroadcast, openCampaignBroadcast } from '../broadcasts';
import { businessTimeZone } from '../business';
import { findCustomersByIds } from '../directory';
import { FREQUENCY_CAP_WORDS } from '@titan/contracts';
import { campaignTotals } from '../sends';
import { recordEvent } from '../webhooks';
import * as repo from './campaigns.repository';
import { dueFor, outOfQuietHours, recipientZone, startOf } from './campaigns.schedule';
import {
  audienceBatches,
  campaignEvent,
  type CampaignDeps,
  requestOf,
  RUN_QUEUE,
  senderOf,
  sortBatch,
} from './campaigns.service';

export const SWEEP_QUEUE = 'campaigns.sweep';
const HOUR_MS = 3_600_000;
/**
 * A pass's batches (customers, rendered sends) die a batch later, promoted by then: the heap may
 * grow this much before a full collection (platform/heap.ts), not V8's 2× live. One for the
 * process (as the email.send job's): a ceiling made per pass would sit on the garbage already there.
 */
const passHeap = new HeapCeiling(24 * 2 ** 20);

/** A stable number in [0, 1) for a customer of a campaign (the A/B draw, the same on every run). */
function draw(campaignId: string, customerId: number, salt: number): number {
  return (
    createHash('sha256').update(`${campaignId}:${customerId}:${salt}`).digest().readUInt32BE(0) / 4294967296
  );
}

/**
 * Fixes who receives the campaign: the audience walked now, each reachable customer written with
 * their due time (the schedule on their clock; texts out of quiet hours) and their A/B variant —
 * or `waiting` for the winner. Customers the channel cannot reach are counted by reason instead.
 * Written again after a crash, rows already there are kept.
 */
export async function prepare(deps: CampaignDeps, row: repo.CampaignRow): Promise<void> {
  const zone = await businessTimeZone(deps.db, row.businessId);
  const start = row.scheduledAt ?? startOf(row.schedule, zone, deps.clock());
  const skipped: Record<string, number> = {};
  const add = (reason: string, n: number) => {
    if (n > 0) skipped[reason] = (skipped[reason] ?? 0) + n;
  };
  const textLike = row.channel !== 'email';
  for await (const batch of audienceBatches(deps.db, row.businessId, row.audience)) {
    passHeap.check();
    const sorted = await sortBatch(deps.db, row.businessId, row.channel, batch, row.topicId);
    add(row.channel === 'email' ? 'no email address' : 'no phone number', sorted.noAddress);
    add('suppressed', sorted.suppressed);
    add('no consent', sorted.noConsent);
    add('out of topic', sorted.outOfTopic);
    await repo.insertRecipients(
      deps.db,
      sorted.reachable.map((c) => {
        const tz = recipientZone(c, zone);
        let dueAt = dueFor(row.schedule, tz, zone, start);
        if (textLike) dueAt = outOfQuietHours(dueAt, tz);
        let variant: number | null = 0;
        let state: 'pending' | 'waiting' = 'pending';
        if (row.ab) {
          const k = row.ab.variants.length;
          if (draw(row.id, c.id, 1) < row.ab.test_share) variant = Math.floor(draw(row.id, c.id, 2) * k);
          else {
            variant = null;
            state = 'waiting';
          }
        }
        return { campaignId: row.id, customerId: c.id, variant, state, dueAt };
      }),
    );
  }
  // Two passes may prepare at once (a worker and a retry): the counts are added by the one that
  // marks the campaign prepared.
  await deps.db.transaction(async (tx) => {
    if (await repo.markPrepared(tx, row.id, deps.clock())) await repo.addSkipped(tx, row.id, skipped);
  });
}

/**
 * The open broadcast of a variant, opened (and remembered on the campaign) when there is none.
 * Two passes at once (the worker and a retry) agree on one: the list is swapped only if unchanged,
 * and the pass that lost closes its own unused broadcast and takes the winner's.
 */
async function broadcastFor(
  deps: CampaignDeps,
  row: repo.CampaignRow,
  variant: number,
): Promise<string | null> {
  for (;;) {
    const open = row.broadcasts.find((b) => b.open && b.variant === variant);
    if (open) return open.id;
    const from = row.channel === 'email' ? await senderOf(deps, row) : null;
    const b = await openCampaignBroadcast(deps.broadcasts, {
      businessId: row.businessId,
      channel: row.channel,
      campaignId: row.id,
      request: { ...requestOf(row, variant, from), campaign_variant: variant },
      createdBy: row.createdBy,
    });
    const list = [...row.broadcasts, { id: b.id, variant, open: true }];
    if (await repo.swapBroadcasts(deps.db, row.id, row.broadcasts, list)) {
      row.broadcasts = list;
      return b.id;
    }
    await finishCampaignBroadcast(deps.db, b.id);
    const fresh = await repo.findCampaignById(deps.db, row.id);
    if (!fresh || fresh.status !== 'sending') return null; // paused or cancelled meanwhile
    row.broadcasts = fresh.broadcasts;
  }
}

/** Another pass recorded some of this batch's recipients first: this one's sends are rolled back. */
class TakenMeanwhile extends Error {}

/** The A/B winner: the variant with the best rate of people's opens (or clicks) per send; ties to the first. */
export async function pickWinner(deps: CampaignDeps, row: repo.CampaignRow): Promise<number> {
  const ab = row.ab!;
  const totals = await campaignTotals(
    deps.db,
    row.businessId,
    row.channel,
    row.broadcasts.map((b) => b.id),
  );
  const sent = await repo.recordedByVariant(deps.db, row.id);
  const score = new Map<number, number>();
  for (const t of totals) {
    const v = row.broadcasts.find((b) => b.id === t.cause_id)?.variant ?? 0;
    score.set(v, (score.get(v) ?? 0) + (ab.metric === 'clicks' ? t.clicked : t.opened));
  }
  let best = 0;
  let bestRate = -1;
  for (let v = 0; v < ab.variants.length; v++) {
    const n = sent.get(v) ?? 0;
    const rate = n > 0 ? (score.get(v) ?? 0) / n : 0;
    if (rate > bestRate) {
      best = v;
      bestRate = rate;
    }
  }
  return best;
}

/**
 * One pass over a campaign. Answers when it wants the next pass (null: nothing left to do —
 * ended, paused, cancelled).
 */
export async function runCampaign(deps: CampaignDeps, id: string): Promise<Date | null> {
  let row = await repo.findCampaignById(deps.db, id);
  if (!row) return null;
  let now = deps.clock();
  if (row.status === 'scheduled') {
    if (row.scheduledAt && row.scheduledAt.getTime() > now.getTime()) return row.scheduledAt;
    const startedAt = now;
    row = await deps.db.transaction(async (tx) => {
      const moved = await repo.updateWhen(tx, id, ['scheduled'], {
        status: 'sending',
        startedAt,
        heartbeatAt: startedAt,
      });
      if (moved) await recordEvent(tx, campaignEvent('campaign.started', moved));
      return moved;
    });
    if (!row) return null;
  }
  if (row.status !== 'sending') return null;
  if (!row.preparedAt) {
    await prepare(deps, row);
    row = await repo.findCampaignById(deps.db, id);
    if (!row || row.status !== 'sending') return null;
  }
  const batchSize = deps.batchSize ?? 200;
  for (;;) {
    passHeap.check();
    now = deps.clock();
    await repo.heartbeat(deps.db, id, now);
    let limit = batchSize;
    if (row.throttlePerHour) {
      const recent = await repo.recordedSince(deps.db, id, new Date(now.getTime() - HOUR_MS));
      limit = Math.min(limit, row.throttlePerHour - recent.n);
      if (limit <= 0) return new Date((recent.oldest ?? now).getTime() + HOUR_MS);
    }
    const due = await repo.dueRecipients(deps.db, id, now, limit);
    if (due.length === 0) break;
    const byVariant = new Map<number, number[]>();
    for (const r of due)
      byVariant.set(r.variant ?? 0, [...(byVariant.get(r.variant ?? 0) ?? []), r.customerId]);
    for (const [variant, ids] of byVariant) {
      const broadcastId = await broadcastFor(deps, row, variant);
      if (!broadcastId) return null; // paused or cancelled meanwhile
      const customers = await findCustomersByIds(deps.db, row.businessId, ids);
      // Recipients are marked recorded in the transaction that records their sends. A pass that
      // took some of them meanwhile wins: this one's whole batch is rolled back (no send twice,
      // no passed-over count twice) and the loop reads who is still due. The business's frequency
      // cap is asked in that transaction (feedBroadcast, under its per-customer locks): a capped
      // recipient is skipped with the reason.
      let fed;
      try {
        fed = await feedBroadcast(
          deps.broadcasts,
          broadcastId,
          customers,
          async (tx, batch) => {
            const { capped } = batch;
            const sendTo = ids.filter((c) => !capped.has(c));
            const skip = ids.flatMap((c) => {
              const hit = capped.get(c);
              return hit ? [{ customerId: c, reason: hit.reason }] : [];
            });
            const marked =
              (await repo.markRecorded(tx, id, sendTo, broadcastId, now)) +
              (await repo.markSkipped(tx, id, skip));
            if (marked < ids.length) throw new TakenMeanwhile();
            await repo.addSkipped(tx, id, {
              ...batch.skipped,
              [FREQUENCY_CAP_WORDS.skipped]: (batch.skipped[FREQUENCY_CAP_WORDS.skipped] ?? 0) + skip.length,
            });
          },
          now,
        );
      } catch (err) {
        if (err instanceof TakenMeanwhile) continue;
        throw err;
      }
      if (!fed) return null;
    }
    // A pause or cancel between batches stops the pass here.
    const fresh = await repo.findCampaignById(deps.db, id);
    if (!fresh || fresh.status !== 'sending') return null;
    row = fresh;
  }
  const counts = await repo.recipientCounts(deps.db, id);
  if (counts.pending > 0) return counts.nextDue;
  if (counts.waiting > 0 && row.ab && row.winner === null) {
    if (!row.testDoneAt) {
      await repo.updateWhen(deps.db, id, ['sending'], { testDoneAt: now });
      return new Date(now.getTime() + row.ab.wait_minutes * 60_000);
    }
    const decideAt = new Date(row.testDoneAt.getTime() + row.ab.wait_minutes * 60_000);
    if (decideAt.getTime() > now.getTime()) return decideAt;
    const winner = await pickWinner(deps, row);
    await deps.db.transaction(async (tx) => {
      await repo.updateWhen(tx, id, ['sending'], { winner });
      await repo.assignRest(tx, id, winner, now);
    });
    return now;
  }
  // Everyone recorded: the campaign has been sent.
  const done = await deps.db.transaction(async (tx) => {
    const moved = await repo.updateWhen(tx, id, ['sending'], {
      status: 'sent',
      finishedAt: now,
      broadcasts: row.broadcasts.map((b) => ({ ...b, open: false })),
    });
    if (moved) {
      const counts = await repo.recipientCounts(tx, id);
      await recordEvent(tx, campaignEvent('campaign.finished', moved, counts));
    }
    return moved;
  });
  if (done)
    for (const b of row.broadcasts.filter((x) => x.open)) await finishCampaignBroadcast(deps.db, b.id);
  return null;
}

/** The queues: a pass per campaign (re-enqueued for its next due time, at most a minute ahead) and the sweep. */
export async function defineCampaignQueues(deps: CampaignDeps): Promise<void> {
  await deps.jobs.define<{ campaign_id: string }>({
    name: RUN_QUEUE,
    handler: async ({ campaign_id }) => {
      const next = await runCampaign(deps, campaign_id);
      if (!next) return;
      const wait = Math.max(0, next.getTime() - deps.clock().getTime());
      if (wait <= 60_000)
        await deps.jobs.send(
          RUN_QUEUE,
          { campaign_id },
          { singletonKey: campaign_id, startAfter: new Date(Date.now() + Math.max(wait, 1000)) },
        );
    },
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60 * 60,
  });
  await deps.jobs.define({
    name: SWEEP_QUEUE,
    handler: async () => {
      for (const id of await repo.findActive(deps.db, 500))
        await deps.jobs.send(RUN_QUEUE, { campaign_id: id }, { singletonKey: id });
    },
    retryLimit: 1,
  });
  await deps.jobs.schedule(SWEEP_QUEUE, '* * * * *');
}
