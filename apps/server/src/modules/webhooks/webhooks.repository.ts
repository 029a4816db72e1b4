// The webhooks module's tables: webhook_endpoints, webhook_events (the outbox) and
// webhook_deliveries. The only code that touches them.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema';
import { recordset, rowsOf } from '../../db/sql';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function listEndpoints(db: Queryable, businessId: number): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.businessId, businessId))
    .orderBy(webhookEndpoints.id);
}

export async function findEndpoint(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<EndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.id, id)));
  return row ?? null;
}

export async function findEndpointById(db: Queryable, id: number): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row ?? null;
}

export async function insertEndpoint(
  db: Queryable,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(
  db: Queryable,
  businessId: number,
  id: number,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * The outbox write: the event, and a delivery for each enabled endpoint of the business that
 * subscribes to its type — one statement, in the caller's transaction. Nothing is written when no
 * endpoint listens; deliveries are numbered in the order of `events`.
 */
export async function insertEvents(
  db: Queryable,
  events: { businessId: number; type: string; objectKey: string | null; payload: Record<string, unknown> }[],
): Promise<void> {
  if (events.length === 0) return;
  await db.execute(sql`
    with input as materialized (
      select gen_random_uuid() as id, (r->>'business_id')::bigint as business_id, r->>'type' as type,
        r->>'object_key' as object_key, r->'payload' as payload, ord
      from jsonb_array_elements(${recordset(
        events.map((e) => ({
          business_id: e.businessId,
          type: e.type,
          object_key: e.objectKey,
          payload: e.payload,
        })),
      )}) with ordinality as t(r, ord)
      where exists (select 1 from webhook_endpoints w
        where w.business_id = (r->>'business_id')::bigint and w.enabled and (r->>'type') = any(w.event_types))
    ),
    events as (
      insert into webhook_events (id, business_id, type, payload)
      select id, business_id, type, payload from input order by ord
      returning id
    )
    insert into webhook_deliveries (endpoint_id, event_id, business_id, event_type, object_key)
    select w.id, i.id, i.business_id, i.type, i.object_key
    from input i join webhook_endpoints w
      on w.business_id = i.business_id and w.enabled and i.type = any(w.event_types)
    where i.id in (select id from events)
    order by i.ord, w.id`);
}

/** Of `businessIds`, those with an enabled endpoint subscribed to `type`. */
export async function businessesListening(
  db: Queryable,
  businessIds: number[],
  type: string,
): Promise<Set<number>> {
  if (businessIds.length === 0) return new Set();
  const rows = await rowsOf<{ business_id: string | number }>(
    db,
    sql`select distinct business_id from webhook_endpoints
      where business_id = any(${`{${businessIds.join(',')}}`}::bigint[]) and enabled and ${type} = any(event_types)`,
  );
  return new Set(rows.map((r) => Number(r.business_id)));
}

/** One event for one endpoint, outside any subscription (the test-send button). */
export async function insertEventFor(
  db: Queryable,
  endpoint: EndpointRow,
  type: string,
  payload: Record<string, unknown>,
  leaseUntil: Date,
): Promise<DeliveryRow> {
  const [event] = await db
    .insert(webhookEvents)
    .values({ businessId: endpoint.businessId, type, payload })
    .returning();
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      endpointId: endpoint.id,
      eventId: event!.id,
      businessId: endpoint.businessId,
      eventType: type,
      attempts: 1,
      nextAttemptAt: leaseUntil,
      lastAttemptAt: new Date(),
    })
    .returning();
  return row!;
}

export type ClaimedDelivery = {
  id: number;
  endpointId: number;
  eventId: string;
  eventType: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secretSealed: string;
  endpointUpdatedAt: Date;
  payload: Record<string, unknown>;
  eventCreatedAt: Date;
};

type ClaimRow = {
  id: string | number;
  endpoint_id: string | number;
  event_id: string;
  event_type: string;
  attempts: number;
  created_at: string | Date;
  url: string;
  secret_sealed: string;
  endpoint_updated_at: string | Date;
  payload: Record<string, unknown>;
  event_created_at: string | Date;
};

/**
 * Claims up to `limit` due deliveries of enabled endpoints: each is leased (its next attempt moved
 * to `leaseUntil`) and counted as an attempt in the claiming statement, so another worker — in
 * this process or another — passes over it (`skip locked` while the claim runs, the lease after).
 * A process that dies holding a lease leaves the delivery due again when the lease ends. A
 * delivery waits while an earlier one of the same object to the same endpoint is still pending.
 */
export async function claimDue(db: Queryable, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
  const rows = await rowsOf<ClaimRow>(
    db,
    sql`with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints w on w.id = d.endpoint_id and w.enabled
        where d.status = 'pending' and d.next_attempt_at <= now()
          and (d.object_key is null or not exists (
            select 1 from webhook_deliveries p
            where p.endpoint_id = d.endpoint_id and p.object_key = d.object_key
              and p.status = 'pending' and p.id < d.id))
        order by d.next_attempt_at, d.id
        limit ${limit}
        for update of d skip locked
      ),
      claimed as (
        update webhook_deliveries d
        set next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1, last_attempt_at = now()
        from due where d.id = due.id
        returning d.id, d.endpoint_id, d.event_id, d.event_type, d.attempts, d.created_at
      )
      select c.id, c.endpoint_id, c.event_id, c.event_type, c.attempts, c.created_at, w.url, w.secret_sealed,
        w.updated_at as endpoint_updated_at, e.payload, e.created_at as event_created_at
      from claimed c
      join webhook_endpoints w on w.id = c.endpoint_id
      join webhook_events e on e.id = c.event_id
      order by c.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    endpointId: Number(r.endpoint_id),
    eventId: r.event_id,
    eventType: r.event_type,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
    url: r.url,
    secretSealed: r.secret_sealed,
    endpointUpdatedAt: new Date(r.endpoint_updated_at),
    payload: r.payload,
    eventCreatedAt: new Date(r.event_created_at),
  }));
}

export type AttemptResult = {
  id: number;
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
};

/** The outcomes of a batch of attempts, one statement. */
export async function recordAttempts(db: Queryable, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  await db.execute(sql`
    update webhook_deliveries d set
      status = v.status,
      next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at),
      delivered_at = case when v.status = 'delivered' then now() else d.delivered_at end,
      response_status = v.response_status,
      response_body = v.response_body,
      error = v.error,
      duration_ms = v.duration_ms
    from jsonb_to_recordset(${recordset(
      results.map((r) => ({
        id: r.id,
        status: r.status,
        next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
        response_status: r.responseStatus,
        response_body: r.responseBody,
        error: r.error,
        duration_ms: r.durationMs,
      })),
    )}) as v(id bigint, status text, next_attempt_at timestamptz, response_status int,
      response_body text, error text, duration_ms int)
    where d.id = v.id`);
}

/** An endpoint answered: it is not failing. */
export async function markEndpointsAnswering(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update webhook_endpoints set failing_since = null
    where failing_since is not null and id in (select (jsonb_array_elements_text(${recordset(ids)}))::bigint)`);
}

/**
 * Endpoints whose attempts failed: failing from now unless already. Answers those that have been
 * failing since before `disableBefore` and are now turned off (each once).
 */
export async function markEndpointsFailing(
  db: Queryable,
  ids: number[],
  disableBefore: Date,
  reason: string,
): Promise<EndpointRow[]> {
  if (ids.length === 0) return [];
  const list = sql`(select (jsonb_array_elements_text(${recordset(ids)}))::bigint)`;
  await db.execute(sql`update webhook_endpoints set failing_since = now()
    where failing_since is null and id in ${list}`);
  return db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.failingSince} < ${disableBefore}`,
        sql`${webhookEndpoints.id} in ${list}`,
      ),
    )
    .returning();
}

export async function listDeliveries(
  db: Queryable,
  endpointId: number,
  status: DeliveryRow['status'] | undefined,
  limit: number,
  offset: number,
): Promise<{
  rows: (DeliveryRow & { payload: Record<string, unknown>; eventCreatedAt: Date })[];
  count: number;
}> {
  const where = and(
    eq(webhookDeliveries.endpointId, endpointId),
    status ? eq(webhookDeliveries.status, status) : undefined,
  );
  const rows = await db
    .select({ d: webhookDeliveries, payload: webhookEvents.payload, eventCreatedAt: webhookEvents.createdAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return {
    rows: rows.map((r) => ({ ...r.d, payload: r.payload, eventCreatedAt: r.eventCreatedAt })),
    count: Number(total?.n ?? 0),
  };
}

export async function findDelivery(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<(DeliveryRow & { payload: Record<string, unknown>; eventCreatedAt: Date }) | null> {
  const [row] = await db
    .select({ d: webhookDeliveries, payload: webhookEvents.payload, eventCreatedAt: webhookEvents.createdAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.businessId, businessId), eq(webhookDeliveries.id, id)));
  return row ? { ...row.d, payload: row.payload, eventCreatedAt: row.eventCreatedAt } : null;
}

/** Due again at once, as a fresh run of attempts (the same event id). */
export async function requeueDeliveries(
  db: Queryable,
  businessId: number,
  where: { id: number } | { endpointId: number; failedOnly: true },
): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: new Date(), createdAt: new Date(), attempts: 0, error: null })
    .where(
      and(
        eq(webhookDeliveries.businessId, businessId),
        'id' in where
          ? eq(webhookDeliveries.id, where.id)
          : and(eq(webhookDeliveries.endpointId, where.endpointId), eq(webhookDeliveries.status, 'failed')),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/** Events every delivery of which is settled and older than `before`: the outbox is emptied. */
export async function pruneEvents(db: Queryable, before: Date): Promise<void> {
  await db.execute(sql`delete from webhook_events e where e.created_at < ${before}
    and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')`);
}

/** Erase (GDPR art. 17): the business's outbound events that carry any of these values. */
export async function deleteEventsNaming(db: Queryable, businessId: number, values: string[]): Promise<void> {
  const needles = values.filter((v) => v.length >= 3);
  if (needles.length === 0) return;
  await db.delete(webhookEvents).where(
    and(
      eq(webhookEvents.businessId, businessId),
      sql`exists (select 1 from unnest(${sql.param(needles.map((v) => v.toLowerCase()))}::text[]) n(v)
          where strpos(lower(${webhookEvents.payload}::text), n.v) > 0)`,
    ),
  );
}
