// The send spine's rules (engage.md §1). A send is recorded `queued` before its provider is called
// (in the transaction that decides to send); one caller claims it with a conditional update, calls
// the channel adapter and records the answer; provider events raise its status in the channel's
// order and never lower it. Sends stuck unfinished are resolved by `recoverSends`.
import {
  EMAIL_METRICS_DEFAULT_DAYS,
  EMAIL_METRICS_MAX_DAYS,
  EMAIL_METRICS_ERRORS,
  localDates,
} from '@titan/contracts';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { sqlStateOf } from '../../platform/db-errors';
import type { SendOutcome } from '../../channels/channel';
import * as billing from '../billing';
import { recordEventsOfType } from '../webhooks';
import { businessTimeZone } from '../business';
import { emitEmailEngagementEvents, emitSentSendEvents } from '../journeys';
import * as repo from './sends.repository';
import * as repoEvents from './sends.events.repository';
import * as repoBatches from './sends.batches.repository';
import * as repoMetrics from './sends.metrics.repository';
import type { SendCause, SendChannel } from './sends.repository';

export type { SendRow } from './sends.repository';

/**
 * `send.status_changed` for sends whose status just changed, in the transaction of the change
 * (the webhooks outbox). Nothing is built when no endpoint of the business listens. Only the
 * statuses a customer's message passes through are told: not `queued`/`sending`, Titan's own.
 */
async function emitStatusChanges(tx: Queryable, changes: repo.StatusChange[]): Promise<void> {
  const told = changes.filter((c) => c.status !== 'queued' && c.status !== 'sending');
  // Journeys wait for a mail to arrive or bounce (email.delivered, email.bounced).
  await emitEmailEngagementEvents(
    tx,
    told
      .filter((c) => c.channel === 'email' && c.customerId !== null)
      .map((c) => ({ sendId: c.id, type: c.status })),
  );
  // And a campaign's or an AI agent's message that left: campaign.received, agent.delivery_sent.
  await emitSentSendEvents(tx, told);
  await recordEventsOfType(tx, 'send.status_changed', told, (c) => ({
    objectKey: `send:${c.id}`,
    data: {
      send_id: c.id,
      channel: c.channel,
      status: c.status,
      customer_id: c.customerId,
      cause: c.cause,
      cause_id: c.causeId,
      error_code: c.errorCode,
      error_message: c.errorMessage,
    },
  }));
}

const changeOf = (row: repo.SendRow): repo.StatusChange => ({
  id: row.id,
  businessId: row.businessId,
  channel: row.channel,
  cause: row.cause,
  causeId: row.causeId,
  customerId: row.customerId,
  status: row.status,
  errorCode: row.errorCode,
  errorMessage: row.errorMessage,
});

/**
 * The status order of each channel, weakest first; `failed` and the other final states outrank
 * them all. The database's send_status_rank(channel, status) is the same order (migration 0022).
 */
export const STATUS_ORDER: Record<SendChannel, readonly string[]> = {
  whatsapp: ['queued', 'sending', 'accepted', 'sent', 'delivered', 'read'],
  email: ['queued', 'sending', 'sent', 'delivered', 'opened', 'clicked'],
  sms: ['queued', 'sending', 'accepted', 'sent', 'delivered'],
  titan_message: ['queued', 'sending', 'sent', 'delivered', 'read'],
};
export const FINAL_STATUSES = ['failed', 'bounced', 'complained', 'suppressed', 'cancelled'] as const;

/** Where `status` stands in its channel's order (finals highest; unknown lowest). */
export function statusRank(channel: SendChannel, status: string): number {
  if ((FINAL_STATUSES as readonly string[]).includes(status)) return 100;
  return STATUS_ORDER[channel].indexOf(status);
}

/** The stronger of two statuses: a later, weaker event never lowers a send. */
export function strongerStatus(channel: SendChannel, current: string, reported: string): string {
  if (statusRank(channel, current) >= 100) return current;
  return statusRank(channel, reported) > statusRank(channel, current) ? reported : current;
}

/** A claimed send untouched this long may have died with its process (budget 30 s + retries 21 s). */
export const SENDING_TIMEOUT_MS = 2 * 60_000;
/** A queued send nobody claimed this long is left for the recovery job to send. */
export const QUEUED_TIMEOUT_MS = 60_000;

export const SEND_ERRORS = {
  interrupted: 'Titan stopped while sending; the message may or may not have been delivered.',
} as const;
export const INTERRUPTED_CODE = 'titan_interrupted';

export type QueuedSend = {
  /** Given when the caller needs the id before the row exists (email: Message-ID, VERP, tokens). */
  id?: string;
  businessId: number;
  channel: SendChannel;
  cause: SendCause;
  causeId?: string | null;
  customerId?: number | null;
  conversationId?: number | null;
  recipient: string;
  templateId?: number | null;
  templateName?: string | null;
  subject?: string | null;
  idempotencyKey?: string | null;
  createdBy?: number | null;
  /** The provider's body (without credentials). */
  providerRequest: Record<string, unknown>;
  /** What the conversation will show once the provider accepts it. */
  message?: Record<string, unknown> | null;
  /** What is known of the cost before the call (SMS: its segments). */
  cost?: Record<string, unknown> | null;
};

/**
 * Records a send before anything is called: inside the caller's transaction. Billing counts it
 * against the business's quota first, and refuses it with 402 (undoing the transaction) when the
 * subscription does not allow sending or the allowance is used up (engage.md §8).
 */
export async function createQueued(tx: Queryable, send: QueuedSend): Promise<repo.SendRow> {
  await billing.reserveSends(tx, send.businessId, send.channel, 1);
  return repo.insertSend(tx, { ...send, status: 'queued' });
}

/** Takes a queued send to call its provider; null when another caller has it (or it is done). */
export async function claim(db: Queryable, sendId: string): Promise<repo.SendRow | null> {
  return repo.claimSend(db, sendId);
}

/** The status a provider's acceptance means: WhatsApp's and Twilio's `accepted` (statuses follow), else `sent`. */
const acceptedStatus = (channel: SendChannel) =>
  channel === 'whatsapp' || channel === 'sms' ? 'accepted' : 'sent';

/**
 * The provider took it: WhatsApp's 200 is `accepted` (its statuses follow), other channels' `sent`.
 * Inside the transaction that also stores what the acceptance means (the message, the conversation).
 */
export async function recordAccepted(
  tx: Queryable,
  send: repo.SendRow,
  outcome: Extract<SendOutcome, { ok: true }>,
): Promise<repo.SendRow | null> {
  const row = await repo.markAccepted(tx, send.id, {
    status: acceptedStatus(send.channel),
    providerMessageId: outcome.providerMessageId,
    response: outcome.response,
  });
  if (row) {
    await billing.countAccepted(tx, [row]);
    await emitStatusChanges(tx, [changeOf(row)]);
  }
  return row;
}

export async function recordFailed(
  db: Queryable,
  sendId: string,
  failure: { errorCode: string | null; errorMessage: string; response?: Record<string, unknown> | null },
): Promise<repo.SendRow | null> {
  return db.transaction(async (tx) => {
    const row = await repo.markFailed(tx, sendId, {
      errorCode: failure.errorCode,
      errorMessage: failure.errorMessage,
      response: failure.response ?? null,
    });
    if (row) {
      // It never reached its provider (queued or sending): its quota is given back.
      await billing.releaseSends(tx, [row]);
      await emitStatusChanges(tx, [changeOf(row)]);
    }
    return row;
  });
}

/**
 * Provider events of one channel, set-based: kept once each, then the strongest per message raised
 * onto its send. Answers the strongest per message for the channel to mirror onto its messages.
 */
export async function applyEvents(
  tx: Queryable,
  channel: SendChannel,
  events: repoEvents.ProviderEvent[],
): Promise<repoEvents.BestEvent[]> {
  await repoEvents.insertEvents(tx, channel, events);
  const keys = new Map(events.map((e) => [`${e.businessId}:${e.providerMessageId}`, e]));
  return reapplyEvents(tx, channel, [...keys.values()]);
}

/** Re-applies what is already recorded for some messages (a send that just stored its provider id). */
export async function reapplyEvents(
  tx: Queryable,
  channel: SendChannel,
  keys: { businessId: number; providerMessageId: string }[],
): Promise<repoEvents.BestEvent[]> {
  const { best, changed } = await repoEvents.applyBestEvents(tx, channel, keys);
  await emitStatusChanges(tx, changed);
  return best;
}

/**
 * Resolves sends a stopped process left behind. A claimed send (`sending`) may have reached its
 * provider: WhatsApp takes no idempotency key, so it is never sent again but marked failed with
 * the reason. A queued send was never claimed, so no provider saw it: it is answered for sending
 * (`enqueue`, once per send id). Runs at start and every minute.
 */
export async function recoverSends(
  db: Db,
  enqueue: (send: { id: string; channel: SendChannel }) => Promise<void>,
  options: { now?: Date; sendingTimeoutMs?: number; queuedTimeoutMs?: number; limit?: number } = {},
): Promise<{ failed: number; queued: number }> {
  const now = options.now ?? new Date();
  const limit = options.limit ?? 500;
  const stuck = await repo.findStale(
    db,
    'sending',
    new Date(now.getTime() - (options.sendingTimeoutMs ?? SENDING_TIMEOUT_MS)),
    limit,
  );
  let failed = 0;
  for (const { id } of stuck) {
    const row = await recordFailed(db, id, {
      errorCode: INTERRUPTED_CODE,
      errorMessage: SEND_ERRORS.interrupted,
    });
    if (row) failed++;
  }
  const waiting = await repo.findStale(
    db,
    'queued',
    new Date(now.getTime() - (options.queuedTimeoutMs ?? QUEUED_TIMEOUT_MS)),
    limit,
  );
  for (const send of waiting) await enqueue(send);
  return { failed, queued: waiting.length };
}

/**
 * An event Titan observed about one of its sends (an open, a click, a bounce to the VERP address,
 * an unsubscribe). `raise`: the event is a status of the channel (opened, clicked, delivered,
 * bounced, complained) and lifts the send in its order; other events are only kept. Null when no
 * such send exists.
 */
export async function recordSendEvent(
  db: Queryable,
  event: {
    sendId: string;
    type: string;
    occurredAt?: Date | null;
    payload?: Record<string, unknown>;
    raise?: boolean;
    errorCode?: string | null;
    errorMessage?: string | null;
  },
): Promise<repo.SendRow | null> {
  return db.transaction(async (tx) => {
    const recorded = await repoEvents.recordEvent(tx, { ...event, raise: event.raise ?? true });
    if (recorded?.raised) await emitStatusChanges(tx, [changeOf(recorded.send)]);
    return recorded?.send ?? null;
  });
}

/** How many sends of one cause stand at each status. */
export async function countSendsByCause(
  db: Queryable,
  businessId: number,
  cause: SendCause,
  causeId: string,
): Promise<Record<string, number>> {
  return repoBatches.countByCause(db, businessId, cause, causeId);
}

/** Cancels the sends of one cause that no sender has claimed yet. */
export async function cancelQueuedSends(
  db: Queryable,
  businessId: number,
  cause: SendCause,
  causeId: string,
): Promise<number> {
  return (await cancelQueuedSendsOf(db, businessId, cause, causeId)).length;
}

/** `cancelQueuedSends`, answering the customers whose send was cancelled (a paused campaign sends them later). */
export async function cancelQueuedSendsOf(
  db: Queryable,
  businessId: number,
  cause: SendCause,
  causeId: string,
): Promise<number[]> {
  const cancelled = await repoBatches.cancelQueuedByCause(db, businessId, cause, causeId);
  await billing.releaseSends(db, cancelled);
  await emitStatusChanges(db, cancelled.map(changeOf));
  return cancelled.flatMap((s) => (s.customerId === null ? [] : [Number(s.customerId)]));
}

/** An open or a click seen by the tracking endpoints, kept in a batch by `recordSendEvents`. */
export type ObservedEvent = {
  sendId: string;
  type: 'opened' | 'clicked';
  occurredAt: Date;
  payload: Record<string, unknown>;
  /** False for machine hits: kept and counted apart, never raising the send. */
  raise: boolean;
};

/**
 * `recordSendEvent` for many events at once, in one statement (the tracking endpoints buffer their
 * hits for a few milliseconds). A click sooner than `machineWindowMs` after the send went to the
 * mail server is a link scanner's: flagged `machine` (reason `too_fast`), not raising.
 */
export async function recordSendEvents(
  db: Queryable,
  events: ObservedEvent[],
  options: { machineWindowMs: number },
): Promise<number> {
  return db.transaction(async (tx) => {
    const { kept, raised } = await repoBatches.recordEventBatch(tx, events, options.machineWindowMs);
    await emitStatusChanges(tx, raised);
    return kept;
  });
}

// ---- Email metrics (GET /api/metrics/email-metrics/) ----

const DAY_MS = 86_400_000;

const ratio = (part: number, whole: number) =>
  whole > 0 ? Math.min(1, Math.round((part / whole) * 10_000) / 10_000) : null;

/**
 * What happened to a business's email created in a range (default: the 30 days before now):
 * totals, rates and one row per day of the range in the business's time zone, zeros included. Rates are fractions of the
 * sends that could show them: delivery and bounce of `sent`; open, click, complaint and unsubscribe
 * of `delivered`; click-to-open of `opened` — each also for people only (`_human`).
 */
export async function emailMetrics(
  db: Queryable,
  businessId: number,
  query: { created_at__gte?: Date; created_at__lte?: Date; template_id?: number; agent_id?: string },
  now = new Date(),
) {
  const to = query.created_at__lte ?? now;
  const from = query.created_at__gte ?? new Date(to.getTime() - EMAIL_METRICS_DEFAULT_DAYS * DAY_MS);
  if (to < from) throw AppError.fields({ created_at__lte: [EMAIL_METRICS_ERRORS.order] });
  if (to.getTime() - from.getTime() > EMAIL_METRICS_MAX_DAYS * DAY_MS)
    throw AppError.fields({ created_at__gte: [EMAIL_METRICS_ERRORS.tooLong] });
  // Days as the business counts them: in its time zone.
  const timeZone = await businessTimeZone(db, businessId);
  const days = await repoMetrics.emailMetricsByDay(db, businessId, {
    from,
    to,
    timeZone,
    templateId: query.template_id,
    agentId: query.agent_id,
  });
  const byDay = new Map(days.map((d) => [d.date, d]));
  const totals = {
    sent: 0,
    delivered: 0,
    opened: 0,
    opened_human: 0,
    clicked: 0,
    clicked_human: 0,
    bounced: 0,
    complained: 0,
    unsubscribed: 0,
  };
  for (const d of days) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += d[k];
  const series = [];
  for (const date of localDates(from, to, timeZone)) {
    const d = byDay.get(date);
    series.push({
      date,
      sent: d?.sent ?? 0,
      delivered: d?.delivered ?? 0,
      opened: d?.opened ?? 0,
      clicked: d?.clicked ?? 0,
      bounced: d?.bounced ?? 0,
    });
  }
  return {
    created_at__gte: from.toISOString(),
    created_at__lte: to.toISOString(),
    totals,
    rates: {
      delivery: ratio(totals.delivered, totals.sent),
      open: ratio(totals.opened, totals.delivered),
      open_human: ratio(totals.opened_human, totals.delivered),
      click: ratio(totals.clicked, totals.delivered),
      click_human: ratio(totals.clicked_human, totals.delivered),
      click_to_open: ratio(totals.clicked, totals.opened),
      click_to_open_human: ratio(totals.clicked_human, totals.opened_human),
      bounce: ratio(totals.bounced, totals.sent),
      complaint: ratio(totals.complained, totals.delivered),
      unsubscribe: ratio(totals.unsubscribed, totals.delivered),
    },
    series,
  };
}

/**
 * A send decided against before any call because the address is suppressed: recorded final
 * (`suppressed`), never claimed, no provider called.
 */
export async function createSuppressed(
  tx: Queryable,
  send: QueuedSend & { errorMessage?: string | null },
): Promise<repo.SendRow> {
  return repo.insertSend(tx, { ...send, status: 'suppressed' });
}

/** Takes those of `ids` still queued, in one statement; the others are someone else's (or done). */
export async function claimMany(db: Queryable, ids: string[]): Promise<repo.SendRow[]> {
  return repoBatches.claimSends(db, ids);
}

/**
 * The provider deferred a claimed send (a transient failure): it goes back to `queued` with the
 * provider's words for a later attempt, and a `deferred` event keeps the attempt. Null when the
 * send was no longer ours.
 */
export async function requeue(
  db: Queryable,
  sendId: string,
  failure: { errorCode: string | null; errorMessage: string; payload?: Record<string, unknown> },
): Promise<repo.SendRow | null> {
  const row = await repoBatches.requeueSend(db, sendId, failure);
  if (!row) return null;
  await repoEvents.recordEvent(db, {
    sendId,
    type: 'deferred',
    raise: false,
    payload: { code: failure.errorCode, message: failure.errorMessage, ...failure.payload },
  });
  return row;
}

/** How many events of `type` a send has (e.g. its deferred attempts). */
export async function countSendEvents(db: Queryable, sendId: string, type: string): Promise<number> {
  return repoBatches.countSendEvents(db, sendId, type);
}

/** The send already recorded under this idempotency key, if any. */
export async function findByIdempotencyKey(
  db: Queryable,
  businessId: number,
  key: string,
): Promise<repo.SendRow | null> {
  return repoBatches.findSendByIdempotencyKey(db, businessId, key);
}

/**
 * Many sends recorded at once (a bulk batch's chunk), each `queued` or — decided before any call —
 * `suppressed`; one statement. Answers each send's id and status.
 */
export async function createMany(
  tx: Queryable,
  rows: (QueuedSend & { id: string; status: 'queued' | 'suppressed'; errorMessage?: string | null })[],
): Promise<{ id: string; status: string }[]> {
  const queued = new Map<string, { businessId: number; channel: SendChannel; n: number }>();
  for (const row of rows) {
    if (row.status !== 'queued') continue;
    const key = `${row.businessId}:${row.channel}`;
    const group = queued.get(key) ?? { businessId: row.businessId, channel: row.channel, n: 0 };
    group.n++;
    queued.set(key, group);
  }
  // The chunk is counted against the quota whole, or refused whole (402).
  for (const g of queued.values()) await billing.reserveSends(tx, g.businessId, g.channel, g.n);
  return repoBatches.insertSends(tx, rows);
}

/** What providers said sends cost, merged into what is known (null values leave it). */
export async function recordCosts(
  db: Queryable,
  costs: { id: string; cost: Record<string, unknown> }[],
): Promise<void> {
  return repoBatches.mergeCost(db, costs);
}

/**
 * Claimed sends their provider accepted, recorded in one statement (`sent`; the email channel,
 * whose events carry the send id). Answers the ids recorded (those still claimed).
 */
export async function recordAcceptedMany(
  db: Queryable,
  accepted: { send: repo.SendRow; outcome: Extract<SendOutcome, { ok: true }> }[],
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const recorded = await repoBatches.markAcceptedMany(
      tx,
      accepted.map(({ send, outcome }) => ({
        id: send.id,
        status: acceptedStatus(send.channel),
        providerMessageId: outcome.providerMessageId ?? '',
        response: outcome.response,
      })),
    );
    // Counted once per business and chunk (not one update per send on a hot row).
    const ids = new Set(recorded.map((r) => r.id));
    await billing.countAccepted(
      tx,
      accepted.filter(({ send }) => ids.has(send.id)).map(({ send }) => send),
    );
    await emitStatusChanges(tx, recorded);
    return [...ids];
  });
}

/** A provider's acceptance of one claimed send. */
export type AcceptedSend = { send: repo.SendRow; outcome: Extract<SendOutcome, { ok: true }> };

/**
 * One run of a channel's send job, for every channel that sends in chunks (email, SMS): claims what
 * is still queued of `sendIds` in one statement (the others were taken by another worker or are
 * done), hands each claimed send to `sendOne` all at once, and records the acceptances in one
 * statement. `sendOne` answers the provider's acceptance, or null once it has recorded the failure
 * or the retry itself. A send whose outcome could not be recorded is left `sending`: the spine's
 * recovery fails it as interrupted (it may have been sent). Answers the acceptances this run
 * recorded (a send another worker recorded first is not among them).
 */
export async function runClaimedSends(
  deps: { db: Db; logger: Pick<Logger, 'error'> },
  channel: SendChannel,
  sendIds: string[],
  sendOne: (send: repo.SendRow) => Promise<AcceptedSend['outcome'] | null>,
): Promise<AcceptedSend[]> {
  const claimed = await claimMany(deps.db, sendIds);
  const results = await Promise.allSettled(claimed.map((send) => sendOne(send)));
  const accepted: AcceptedSend[] = [];
  results.forEach((r, i) => {
    if (r.status === 'fulfilled' && r.value) accepted.push({ send: claimed[i]!, outcome: r.value });
    else if (r.status === 'rejected') {
      deps.logger.error({ err: r.reason, send_id: claimed[i]!.id }, `${channel} send could not be recorded`);
    }
  });
  if (accepted.length === 0) return [];
  // The chunk's acceptances in one statement (the spine counts them once per business and chunk,
  // not one update per send on a hot row).
  const recorded = new Set(await recordAcceptedMany(deps.db, accepted));
  return accepted.filter(({ send }) => recorded.has(send.id));
}

/** A channel's send by its provider id (Twilio's SID, a wamid), in one business. */
export async function findByProviderMessageId(
  db: Queryable,
  businessId: number,
  channel: SendChannel,
  providerMessageId: string,
): Promise<repo.SendRow | null> {
  return repoBatches.findSendByProviderMessageId(db, businessId, channel, providerMessageId);
}

/**
 * Serializes, until the transaction ends, everything done about these provider messages: a status
 * arriving while its send is being accepted then sees the acceptance, or the acceptance sees it.
 */
export async function lockProviderMessages(
  tx: Queryable,
  channel: SendChannel,
  keys: { businessId: number; providerMessageId: string }[],
): Promise<void> {
  return repoBatches.lockProviderMessages(tx, channel, keys);
}

/** Sends that ended at their provider without a price yet (see the repository). */
export async function findUnpricedSends(
  db: Queryable,
  channel: SendChannel,
  window: { from: Date; to: Date },
  maxChecks: number,
  limit: number,
) {
  return repoBatches.findUnpricedSends(db, channel, window, maxChecks, limit);
}

/**
 * Records a send once per idempotency key: `queued`, or — decided before any call — `suppressed`
 * with the reason (then no provider is called). A key already used answers its first send, also
 * when two calls race; `created` says whether this call recorded it (and so must hand it on).
 */
export async function recordOnce(
  db: Db,
  send: QueuedSend,
  suppressed: string | null,
): Promise<{ row: repo.SendRow; created: boolean }> {
  if (send.idempotencyKey) {
    const existing = await repoBatches.findSendByIdempotencyKey(db, send.businessId, send.idempotencyKey);
    if (existing) return { row: existing, created: false };
  }
  try {
    const row = await db.transaction((tx) =>
      suppressed === null
        ? createQueued(tx, send)
        : createSuppressed(tx, { ...send, errorMessage: suppressed }),
    );
    return { row, created: true };
  } catch (err) {
    // The same key sent twice at once: the other call recorded it; answer that send.
    if (send.idempotencyKey && sqlStateOf(err) === '23505') {
      const existing = await repoBatches.findSendByIdempotencyKey(db, send.businessId, send.idempotencyKey);
      if (existing) return { row: existing, created: false };
    }
    throw err;
  }
}

/**
 * A provider refused a claimed send for now (throttled, deferred): it goes back to `queued` for
 * attempt n + 1 after `delays[n]` — answered, for the caller to schedule — or, past the last delay,
 * fails with `gaveUp`'s words. Null when it failed, or was no longer the caller's.
 */
async function retryOrGiveUp(
  db: Queryable,
  sendId: string,
  failure: { errorCode: string | null; errorMessage: string; response?: Record<string, unknown> | null },
  delays: readonly number[],
  gaveUp: (attempts: number, message: string) => string,
): Promise<number | null> {
  const deferred = await repoBatches.countSendEvents(db, sendId, 'deferred');
  if (deferred < delays.length) {
    const requeued = await requeue(db, sendId, {
      errorCode: failure.errorCode,
      errorMessage: failure.errorMessage,
      payload: { attempt: deferred + 1 },
    });
    return requeued ? delays[deferred]! : null;
  }
  await recordFailed(db, sendId, {
    errorCode: failure.errorCode,
    errorMessage: gaveUp(deferred + 1, failure.errorMessage),
    response: failure.response ?? null,
  });
  return null;
}

/**
 * A provider refused a claimed send for now: `retryOrGiveUp`, and — unless the send failed or was
 * no longer the caller's — the channel's send job (`queue`, `{ send_ids }`) asked to run it again
 * after the wait, which `waitOf` may lengthen or bound (a provider's Retry-After).
 */
export async function retryLater(
  deps: { db: Queryable; jobs: Jobs },
  queue: string,
  sendId: string,
  failure: { errorCode: string | null; errorMessage: string; response?: Record<string, unknown> | null },
  retry: {
    delays: readonly number[];
    gaveUp: (attempts: number, message: string) => string;
    waitOf?: (wait: number) => number;
  },
): Promise<void> {
  const wait = await retryOrGiveUp(deps.db, sendId, failure, retry.delays, retry.gaveUp);
  if (wait === null) return;
  await deps.jobs.send<{ send_ids: string[] }>(
    queue,
    { send_ids: [sendId] },
    { startAfter: new Date(Date.now() + (retry.waitOf?.(wait) ?? wait)) },
  );
}

/** Sends per day in `timeZone`, channel and status (agents' apart), for the dashboard. */
export async function sendCountsByDay(
  db: Queryable,
  businessId: number,
  range: { from: Date; to: Date },
  timeZone = 'UTC',
) {
  return repoBatches.sendCountsByDay(db, businessId, range, timeZone);
}
