// Outbound webhooks: endpoints (the URL under the SSRF rules, a secret shown once and kept
// sealed), the outbox (`recordEvent`, called inside the transaction of the change), and the
// delivery log with replay and test sends. The delivery loop itself is webhooks.delivery.ts.
import type { Logger } from 'pino';
import {
  type TEmittedWebhookEventType,
  type TWebhookDelivery,
  type TWebhookDeliveryQuery,
  type TWebhookEndpoint,
  type TWebhookEndpointRequest,
  type TWebhookEndpointUpdate,
  type TWebhookEndpointWithSecret,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { outboundUrlProblem, type OutboundDeps } from '../../platform/safe-fetch';
import * as repo from './webhooks.repository';
import { newSigningSecret, webhookIdOf } from './webhooks.signing';

export type WebhookDeps = {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  mailer?: Mailer;
  /** The SSRF gate's settings (platform/safe-fetch.ts). */
  outbound: OutboundDeps;
  publicUrl: string;
  /** One attempt's time limit. */
  timeoutMs: number;
  /** How long a failing delivery is retried (3 days). */
  retryWindowMs: number;
  /** The first retry's delay; each next one waits twice as long, at most `maxRetryDelayMs`. */
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** An endpoint failing without a success for this long is turned off and its owners told. */
  disableAfterMs: number;
  /** How long a claimed delivery is held before another worker may try it (the claimer died). */
  leaseMs: number;
  /** Deliveries claimed at once by one pass. */
  batchSize: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEBHOOK_DEFAULTS = {
  timeoutMs: 15_000,
  retryWindowMs: 3 * DAY_MS,
  firstRetryDelayMs: 30_000,
  maxRetryDelayMs: 12 * 60 * 60 * 1000,
  disableAfterMs: 3 * DAY_MS,
  leaseMs: 60_000,
  batchSize: 100,
} as const;

/** The request and response bodies the delivery log keeps. */
export const LOG_BODY_LIMIT = 4096;
export const truncate = (text: string, limit = LOG_BODY_LIMIT) =>
  text.length > limit ? `${text.slice(0, limit - 1)}…` : text;

// ---- The outbox ----

export type WebhookEvent = {
  businessId: number;
  type: TEmittedWebhookEventType;
  /** Events of one object reach each endpoint in order (`conversation:12`); omit when order does not matter. */
  objectKey?: string | null;
  /** Flat JSON (Zapier/n8n map fields one level deep). */
  data: Record<string, unknown>;
  /** When the change happened; now by default. */
  at?: Date;
};

/**
 * Records events in the outbox, in the caller's transaction: they are delivered once that
 * transaction commits, and never if it rolls back. A business without an endpoint subscribed to a
 * type costs one indexed lookup and writes nothing.
 */
export async function recordEvent(tx: Queryable, ...events: WebhookEvent[]): Promise<void> {
  await repo.insertEvents(
    tx,
    events.map((e) => ({
      businessId: e.businessId,
      type: e.type,
      objectKey: e.objectKey ?? null,
      payload: { type: e.type, timestamp: (e.at ?? new Date()).toISOString(), data: e.data },
    })),
  );
}

/** Of `businessIds`, those with an enabled endpoint subscribed to `type` (one indexed lookup). */
export function listeningBusinesses(
  tx: Queryable,
  businessIds: number[],
  type: TEmittedWebhookEventType,
): Promise<Set<number>> {
  return repo.businessesListening(tx, businessIds, type);
}

/**
 * `recordEvent` for many changes of one type (a chunk of a bulk send): the events are built only
 * for businesses with an endpoint subscribed to the type (one indexed lookup for the chunk), so a
 * million sends with nobody listening build and write nothing.
 */
export async function recordEventsOfType<T extends { businessId: number }>(
  tx: Queryable,
  type: TEmittedWebhookEventType,
  items: readonly T[],
  toEvent: (item: T) => Omit<WebhookEvent, 'type' | 'businessId'>,
): Promise<void> {
  if (items.length === 0) return;
  const listening = await repo.businessesListening(tx, [...new Set(items.map((i) => i.businessId))], type);
  if (listening.size === 0) return;
  await recordEvent(
    tx,
    ...items
      .filter((i) => listening.has(i.businessId))
      .map((i) => ({ ...toEvent(i), type, businessId: i.businessId })),
  );
}

// ---- Endpoints ----

function toEndpoint(row: repo.EndpointRow): TWebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    event_types: row.eventTypes,
    description: row.description,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    failing_since: row.failingSince?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function checkUrl(deps: WebhookDeps, url: string): Promise<void> {
  const problem = await outboundUrlProblem(deps.outbound, url);
  if (problem) throw AppError.fields({ url: [problem] });
}

export async function endpointOf(
  deps: WebhookDeps,
  businessId: number,
  id: number,
): Promise<repo.EndpointRow> {
  const row = await repo.findEndpoint(deps.db, businessId, id);
  if (!row) throw AppError.notFound('Webhook endpoint not found.');
  return row;
}

export async function listEndpoints(deps: WebhookDeps, businessId: number): Promise<TWebhookEndpoint[]> {
  return (await repo.listEndpoints(deps.db, businessId)).map(toEndpoint);
}

export async function createEndpoint(
  deps: WebhookDeps,
  businessId: number,
  input: Required<TWebhookEndpointRequest>,
): Promise<TWebhookEndpointWithSecret> {
  await checkUrl(deps, input.url);
  const secret = newSigningSecret();
  const row = await repo.insertEndpoint(deps.db, {
    businessId,
    url: input.url,
    eventTypes: input.event_types,
    description: input.description,
    secretSealed: deps.secrets.seal(secret),
  });
  return { ...toEndpoint(row), secret };
}

/** A new URL drops the old secret: the new one is answered, once. */
export async function updateEndpoint(
  deps: WebhookDeps,
  businessId: number,
  id: number,
  input: TWebhookEndpointUpdate,
): Promise<TWebhookEndpointWithSecret> {
  const current = await endpointOf(deps, businessId, id);
  const urlChanged = input.url !== undefined && input.url !== current.url;
  if (urlChanged) await checkUrl(deps, input.url!);
  const secret = urlChanged ? newSigningSecret() : null;
  const row = await repo.updateEndpoint(deps.db, businessId, id, {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.event_types ? { eventTypes: input.event_types } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enabled !== undefined
      ? { enabled: input.enabled, ...(input.enabled ? { disabledReason: null, failingSince: null } : {}) }
      : {}),
    ...(secret ? { secretSealed: deps.secrets.seal(secret), failingSince: null } : {}),
  });
  if (!row) throw AppError.notFound('Webhook endpoint not found.');
  return { ...toEndpoint(row), secret };
}

export async function deleteEndpoint(deps: WebhookDeps, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteEndpoint(deps.db, businessId, id)))
    throw AppError.notFound('Webhook endpoint not found.');
}

// ---- The delivery log ----

export function toDelivery(row: repo.DeliveryRow & { payload: Record<string, unknown> }): TWebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: webhookIdOf(row.eventId),
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    request_body: truncate(JSON.stringify(row.payload)),
    response_status: row.responseStatus,
    response_body: row.responseBody,
    error: row.error,
    duration_ms: row.durationMs,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listDeliveries(
  deps: WebhookDeps,
  businessId: number,
  endpointId: number,
  query: TWebhookDeliveryQuery,
) {
  await endpointOf(deps, businessId, endpointId);
  const { rows, count } = await repo.listDeliveries(
    deps.db,
    endpointId,
    query.status,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toDelivery),
  };
}

/** One delivery due again at once, with the same event id (receivers deduplicate on it). */
export async function replayDelivery(
  deps: WebhookDeps,
  businessId: number,
  id: number,
): Promise<TWebhookDelivery> {
  const found = await repo.findDelivery(deps.db, businessId, id);
  if (!found) throw AppError.notFound('Webhook delivery not found.');
  if (found.status === 'pending' && found.nextAttemptAt > new Date())
    throw new AppError('conflict', 'This delivery is being attempted; wait for its outcome.');
  await repo.requeueDeliveries(deps.db, businessId, { id });
  return toDelivery((await repo.findDelivery(deps.db, businessId, id))!);
}

/** Every failed delivery of an endpoint due again at once. */
export async function replayFailed(deps: WebhookDeps, businessId: number, endpointId: number) {
  await endpointOf(deps, businessId, endpointId);
  return { replayed: await repo.requeueDeliveries(deps.db, businessId, { endpointId, failedOnly: true }) };
}
