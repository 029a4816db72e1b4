// The delivery loop: claims due deliveries (`skip locked` and a lease, so two workers never send
// the same one at once, and one that dies mid-way leaves it due again), posts each signed body
// through the SSRF gate, and records the outcome: delivered, a retry with exponential backoff
// while the event is younger than the retry window, or failed. An endpoint that has failed
// without a success for `disableAfterMs` is turned off and its owners and admins are told by mail.
import { WEBHOOK_TEST_EVENT_TYPE, type TWebhookDelivery } from '@titan/contracts';
import { findMembers } from '../team';
import { HeapCeiling } from '../../platform/heap';
import { escapeHtml } from '../../platform/html';
import { safePost, outboundErrorWords } from '../../platform/safe-fetch';
import * as repo from './webhooks.repository';
import { endpointOf, LOG_BODY_LIMIT, toDelivery, truncate, type WebhookDeps } from './webhooks.service';
import { signedHeaders, signingKey, webhookIdOf } from './webhooks.signing';

export const WEBHOOK_DELIVERY_LOOP = 'webhooks.deliver';

/** Opened secrets, by their sealed form (a new URL brings a new secret, sealed afresh). */
const keys = new Map<string, Buffer>();
function keyOf(deps: WebhookDeps, sealed: string): Buffer {
  let key = keys.get(sealed);
  if (!key) {
    if (keys.size > 10_000) keys.clear();
    key = signingKey(deps.secrets.open(sealed));
    keys.set(sealed, key);
  }
  return key;
}

type Attempt = { ok: boolean; status: number | null; body: string | null; error: string | null; ms: number };

const senders = new WeakMap<WebhookDeps, ReturnType<typeof safePost>>();
const senderOf = (deps: WebhookDeps) => {
  let send = senders.get(deps);
  if (!send) senders.set(deps, (send = safePost(deps.outbound)));
  return send;
};

/** The headers of one attempt: the fixed ones and the three of its signature, in one object. */
function headersOf(key: Buffer, eventId: string, body: string): Record<string, string> {
  return signedHeaders(key, webhookIdOf(eventId), Math.floor(Date.now() / 1000), body, {
    'content-type': 'application/json',
    'user-agent': 'Titan-Webhooks/1',
  });
}

async function post(
  deps: WebhookDeps,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Attempt> {
  const started = performance.now();
  try {
    const res = await senderOf(deps)(url, {
      headers,
      body,
      timeoutMs: deps.timeoutMs,
      // The log keeps 4 KB of the answer; a few bytes more tell truncate() to mark the cut.
      maxBodyBytes: LOG_BODY_LIMIT * 4 + 16,
    });
    const ms = Math.round(performance.now() - started);
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      status: res.status,
      body: truncate(res.text),
      error: ok ? null : `The endpoint answered ${res.status}.`,
      ms,
    };
  } catch (err) {
    return {
      ok: false,
      status: null,
      body: null,
      error: outboundErrorWords(err, Math.round(deps.timeoutMs / 1000)),
      ms: Math.round(performance.now() - started),
    };
  }
}

/** When the next attempt after `attempts` failed ones goes, or null when the window is over. */
export function nextAttemptAt(
  deps: WebhookDeps,
  attempts: number,
  firstAt: Date,
  now = new Date(),
): Date | null {
  const delay = Math.min(deps.firstRetryDelayMs * 2 ** Math.max(0, attempts - 1), deps.maxRetryDelayMs);
  // Up to a tenth more, so that retries of one outage do not all arrive at once.
  const at = new Date(now.getTime() + delay + Math.floor(Math.random() * delay * 0.1));
  return at.getTime() - firstAt.getTime() > deps.retryWindowMs ? null : at;
}

function send(deps: WebhookDeps, d: repo.ClaimedDelivery): Promise<Attempt> {
  const body = JSON.stringify(d.payload);
  return post(deps, d.url, headersOf(keyOf(deps, d.secretSealed), d.eventId, body), body);
}

/**
 * A burst of deliveries makes much short-lived garbage (bodies, signatures, answers) that V8 would
 * let lift the process's memory by hundreds of megabytes before collecting: while a backlog drains,
 * the heap may grow by this much before a collection (see platform/heap.ts).
 */
const BURST_HEAP_HEADROOM_BYTES = 48 * 2 ** 20;
const bursts = new WeakMap<WebhookDeps, HeapCeiling>();

/** One pass: claims a batch, posts it, records the outcomes. Answers how many it claimed. */
export async function runDeliveryPass(deps: WebhookDeps): Promise<number> {
  const claimed = await repo.claimDue(deps.db, deps.batchSize, new Date(Date.now() + deps.leaseMs));
  if (claimed.length === 0) {
    bursts.delete(deps);
    return 0;
  }
  let heap = bursts.get(deps);
  if (!heap) bursts.set(deps, (heap = new HeapCeiling(BURST_HEAP_HEADROOM_BYTES)));
  const outcomes = await Promise.all(claimed.map((d) => send(deps, d)));
  const results: repo.AttemptResult[] = [];
  const answering = new Set<number>();
  const failing = new Set<number>();
  claimed.forEach((d, i) => {
    const a = outcomes[i]!;
    const retryAt = a.ok ? null : nextAttemptAt(deps, d.attempts, d.createdAt);
    if (a.ok) answering.add(d.endpointId);
    else failing.add(d.endpointId);
    results.push({
      id: d.id,
      status: a.ok ? 'delivered' : retryAt ? 'pending' : 'failed',
      nextAttemptAt: retryAt,
      responseStatus: a.status,
      responseBody: a.body,
      error: a.error,
      durationMs: a.ms,
    });
  });
  for (const id of answering) failing.delete(id);
  await deps.db.transaction(async (tx) => {
    await repo.recordAttempts(tx, results);
    await repo.markEndpointsAnswering(tx, [...answering]);
  });
  const disabled = await repo.markEndpointsFailing(
    deps.db,
    [...failing],
    new Date(Date.now() - deps.disableAfterMs),
    disabledReason(deps.disableAfterMs),
  );
  for (const endpoint of disabled) await tellDisabled(deps, endpoint);
  heap.check();
  return claimed.length;
}

const disabledReason = (ms: number) => {
  const hours = Math.round(ms / 3_600_000);
  const span =
    hours >= 48
      ? `${Math.round(hours / 24)} days`
      : hours >= 1
        ? `${hours} hours`
        : `${Math.round(ms / 60_000)} minutes`;
  return `Turned off by Titan: every delivery failed for ${span}.`;
};

async function tellDisabled(deps: WebhookDeps, endpoint: repo.EndpointRow): Promise<void> {
  deps.logger.warn(
    { endpointId: endpoint.id, businessId: endpoint.businessId },
    'webhook endpoint turned off after sustained failure',
  );
  if (!deps.mailer) return;
  try {
    const url = `${deps.publicUrl}/engage/settings/webhooks`;
    for (const m of await findMembers(deps.db, endpoint.businessId)) {
      if (m.role !== 'owner') continue;
      const text =
        `Titan turned off your webhook endpoint ${endpoint.url}: ${endpoint.disabledReason}\n\n` +
        `Events are no longer sent to it. Check the endpoint, then turn it back on and replay the failed deliveries at ${url}.`;
      await deps.mailer.send({
        to: m.user.email,
        subject: 'A webhook endpoint was turned off',
        text,
        html: `<p>${escapeHtml(text).replaceAll('\n\n', '</p><p>')}</p>`,
      });
    }
  } catch (err) {
    deps.logger.warn(
      { err, endpointId: endpoint.id },
      'could not tell the owners that a webhook endpoint was turned off',
    );
  }
}

/**
 * The test-send button: a `webhook.test` event to this endpoint only, attempted now (the answer is
 * the delivery with the receiver's response) and kept in the log like any other; a failure is not
 * retried.
 */
export async function sendTest(
  deps: WebhookDeps,
  businessId: number,
  endpointId: number,
): Promise<TWebhookDelivery> {
  const endpoint = await endpointOf(deps, businessId, endpointId);
  const payload = {
    type: WEBHOOK_TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { endpoint_id: endpoint.id, message: 'A test event from Titan.' },
  };
  const row = await repo.insertEventFor(
    deps.db,
    endpoint,
    WEBHOOK_TEST_EVENT_TYPE,
    payload,
    new Date(Date.now() + deps.leaseMs),
  );
  const body = JSON.stringify(payload);
  const a = await post(
    deps,
    endpoint.url,
    headersOf(keyOf(deps, endpoint.secretSealed), row.eventId, body),
    body,
  );
  await repo.recordAttempts(deps.db, [
    {
      id: row.id,
      status: a.ok ? 'delivered' : 'failed',
      nextAttemptAt: null,
      responseStatus: a.status,
      responseBody: a.body,
      error: a.error,
      durationMs: a.ms,
    },
  ]);
  return toDelivery((await repo.findDelivery(deps.db, businessId, row.id))!);
}

/** Settled events older than the retry window leave the outbox (their deliveries with them). */
export async function pruneWebhookEvents(deps: WebhookDeps, keepDays = 30): Promise<void> {
  await repo.pruneEvents(deps.db, new Date(Date.now() - Math.max(keepDays * 86_400_000, deps.retryWindowMs)));
}
