// The only code touching customer_events, journeys, journey_versions, journey_runs,
// journey_steps and journey_segment_members. Claims take rows with FOR UPDATE SKIP LOCKED and hold them under a lease, so two
// workers never take the same one and a worker that died leaves it to be taken again.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  customerEvents,
  journeyRuns,
  journeys,
  journeySegmentMembers,
  journeySteps,
  journeyVersions,
} from '../../db/schema';
import { advisoryLock, lockKeyOf, recordset, rowsOf } from '../../db/sql';

export type JourneyRow = typeof journeys.$inferSelect;
export type VersionRow = typeof journeyVersions.$inferSelect;
export type RunRow = typeof journeyRuns.$inferSelect;
export type StepRow = typeof journeySteps.$inferSelect;
export type EventRow = typeof customerEvents.$inferSelect;

// ---- Events ----

export type NewEvent = {
  businessId: number;
  customerId: number;
  name: string;
  properties: Record<string, unknown>;
  occurredAt: Date;
};

/** A posted event, once per (business, idempotency key): the row, and whether this call stored it. */
export async function insertPostedEvent(
  db: Queryable,
  event: NewEvent & { idempotencyKey: string | null },
): Promise<{ id: number; created: boolean }> {
  const [row] = await db
    .insert(customerEvents)
    .values({ ...event, source: 'api' })
    .onConflictDoNothing()
    .returning({ id: customerEvents.id });
  if (row) return { id: row.id, created: true };
  const [existing] = await db
    .select({ id: customerEvents.id })
    .from(customerEvents)
    .where(
      and(
        eq(customerEvents.businessId, event.businessId),
        eq(customerEvents.idempotencyKey, event.idempotencyKey!),
      ),
    );
  return { id: existing!.id, created: false };
}

/**
 * Titan's own facts, set-based, in the caller's transaction: only those a journey of their
 * business (live or paused) starts on or waits for are kept — a business without journeys pays
 * one indexed lookup and writes nothing.
 */
export async function insertTitanEvents(db: Queryable, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await rowsOf<{ id: string }>(
    db,
    // An update step running in this transaction names itself as the events' origin (setEventOrigin).
    sql`insert into customer_events (business_id, customer_id, name, properties, source, occurred_at, origin)
        select e.business_id, e.customer_id, e.name, coalesce(e.properties, '{}'::jsonb), 'titan', e.occurred_at,
          nullif(current_setting('titan.journey_origin', true), '')::jsonb
        from jsonb_to_recordset(${recordset(
          events.map((e) => ({
            business_id: e.businessId,
            customer_id: e.customerId,
            name: e.name,
            properties: e.properties,
            occurred_at: e.occurredAt.toISOString(),
          })),
        )}) as e(business_id bigint, customer_id bigint, name text, properties jsonb, occurred_at timestamptz)
        where exists (
          select 1 from journeys j
          where j.business_id = e.business_id and j.status in ('live', 'paused') and e.name = any(j.event_names))
        returning id`,
  );
  return rows.length;
}

/**
 * A channel's delivery statuses of Titan's sends as events of their customers, keyed by event and
 * send (`whatsapp.read:<send id>`): a status reported twice, or reapplied when the send stored its
 * provider id, is stored once. Kept only where a journey of the business listens, as Titan's other
 * facts. The send's customer is read from the send spine's row in the same statement (a read of
 * modules/sends' table, as the inbox's list reads customers).
 */
export async function insertSendStatusEvents(
  db: Queryable,
  channel: 'sms' | 'whatsapp',
  statuses: { businessId: number; providerMessageId: string; name: string; occurredAt: Date }[],
): Promise<number> {
  if (statuses.length === 0) return 0;
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`insert into customer_events
          (business_id, customer_id, name, properties, source, idempotency_key, occurred_at)
        select s.business_id, s.customer_id, k.name,
          jsonb_build_object('send_id', s.id, 'channel', s.channel, 'cause', s.cause, 'cause_id', s.cause_id),
          'titan', k.name || ':' || s.id, k.occurred_at
        from jsonb_to_recordset(${recordset(
          statuses.map((e) => ({
            business_id: e.businessId,
            pmid: e.providerMessageId,
            name: e.name,
            occurred_at: e.occurredAt.toISOString(),
          })),
        )}) as k(business_id bigint, pmid text, name text, occurred_at timestamptz)
        join sends s on s.business_id = k.business_id and s.channel = ${channel} and s.provider_message_id = k.pmid
        where s.customer_id is not null and exists (
          select 1 from journeys j
          where j.business_id = k.business_id and j.status in ('live', 'paused') and k.name = any(j.event_names))
        order by s.business_id, k.name, s.id
        on conflict do nothing
        returning id`,
  );
  return rows.length;
}

/**
 * `email.opened` / `email.clicked` of the sends' customers, once per send and name (a later open
 * of the same mail tells nothing new), only where a live or paused journey listens for the name.
 * Answers how many it stored.
 */
export async function insertEmailEngagementEvents(
  db: Queryable,
  events: { sendId: string; name: string; occurredAt: Date }[],
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`insert into customer_events
          (business_id, customer_id, name, properties, source, idempotency_key, occurred_at)
        select distinct on (s.id, k.name) s.business_id, s.customer_id, k.name,
          jsonb_build_object('send_id', s.id, 'channel', s.channel, 'cause', s.cause, 'cause_id', s.cause_id),
          'titan', k.name || ':' || s.id, k.occurred_at
        from jsonb_to_recordset(${recordset(
          events.map((e) => ({ send_id: e.sendId, name: e.name, occurred_at: e.occurredAt.toISOString() })),
        )}) as k(send_id uuid, name text, occurred_at timestamptz)
        join sends s on s.id = k.send_id and s.channel = 'email'
        where s.customer_id is not null and exists (
          select 1 from journeys j
          where j.business_id = s.business_id and j.status in ('live', 'paused') and k.name = any(j.event_names))
        order by s.id, k.name, k.occurred_at
        on conflict do nothing
        returning id`,
  );
  return rows.length;
}

/**
 * `campaign.received` (a send of a campaign's broadcast) and `agent.delivery_sent` (a send of an
 * AI agent's run) of the sends' customers, once per send and name, only where a live or paused
 * journey of the business listens. The campaign and the agent are read from their modules' rows in
 * the same statement (broadcasts.campaign_id, agent_runs.agent_id). Answers how many it stored.
 */
export async function insertSentSendEvents(
  db: Queryable,
  sent: {
    sendId: string;
    businessId: number;
    customerId: number;
    channel: string;
    cause: 'broadcast' | 'agent';
    causeId: string;
    occurredAt: Date;
  }[],
): Promise<number> {
  if (sent.length === 0) return 0;
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`with k as (
          select * from jsonb_to_recordset(${recordset(
            sent.map((e) => ({
              send_id: e.sendId,
              business_id: e.businessId,
              customer_id: e.customerId,
              channel: e.channel,
              cause: e.cause,
              cause_id: e.causeId,
              occurred_at: e.occurredAt.toISOString(),
            })),
          )}) as k(send_id uuid, business_id bigint, customer_id bigint, channel text, cause text,
                   cause_id uuid, occurred_at timestamptz)
        ), facts as (
          select k.business_id, k.customer_id, 'campaign.received' as name, k.send_id, k.occurred_at,
            jsonb_build_object('campaign_id', b.campaign_id, 'broadcast_id', b.id, 'send_id', k.send_id,
              'channel', k.channel) as properties
          from k join broadcasts b on b.id = k.cause_id and b.business_id = k.business_id
          where k.cause = 'broadcast' and b.campaign_id is not null
          union all
          select k.business_id, k.customer_id, 'agent.delivery_sent', k.send_id, k.occurred_at,
            jsonb_build_object('agent_id', r.agent_id, 'run_id', r.id, 'send_id', k.send_id, 'channel', k.channel)
          from k join agent_runs r on r.id = k.cause_id and r.business_id = k.business_id
          where k.cause = 'agent'
        )
        insert into customer_events
          (business_id, customer_id, name, properties, source, idempotency_key, occurred_at)
        select f.business_id, f.customer_id, f.name, f.properties, 'titan', f.name || ':' || f.send_id, f.occurred_at
        from facts f
        where exists (
          select 1 from journeys j
          where j.business_id = f.business_id and j.status in ('live', 'paused') and f.name = any(j.event_names))
        order by f.business_id, f.name, f.send_id
        on conflict do nothing
        returning id`,
  );
  return rows.length;
}

/**
 * Events a journey makes itself (a date reached), once per (business, idempotency key) whatever
 * the number of workers scanning. Answers how many it stored.
 */
export async function insertKeyedTitanEvents(
  db: Queryable,
  events: (NewEvent & { idempotencyKey: string })[],
): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await db
    .insert(customerEvents)
    .values(events.map((e) => ({ ...e, source: 'titan' as const })))
    .onConflictDoNothing()
    .returning({ id: customerEvents.id });
  return rows.length;
}

/** Events journeys have not heard yet, oldest first, locked for this transaction. */
export async function lockPendingEvents(tx: Queryable, limit: number): Promise<EventRow[]> {
  return tx
    .select()
    .from(customerEvents)
    .where(sql`${customerEvents.processedAt} is null`)
    .orderBy(asc(customerEvents.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * The origin of the Titan events the rest of this transaction stores (an update step's chain of
 * journeys and its step id), or none again: a transaction-local setting insertTitanEvents reads.
 */
export async function setEventOrigin(
  tx: Queryable,
  origin: { journeys: number[]; step_id: number } | null,
): Promise<void> {
  await tx.execute(
    sql`select set_config('titan.journey_origin', ${origin ? JSON.stringify(origin) : ''}, true)`,
  );
}

/** A step whose event would have started a journey again (a loop) says so in its detail. */
export async function noteLoopSkip(
  tx: Queryable,
  stepId: number,
  journeyId: number,
  reason: string,
): Promise<void> {
  await tx.execute(
    sql`update journey_steps set detail = coalesce(detail, '{}'::jsonb)
          || jsonb_build_object(
               'loop_skipped', coalesce(detail->'loop_skipped', '[]'::jsonb) || to_jsonb(${journeyId}::bigint),
               'reason', ${reason}::text)
        where id = ${stepId}`,
  );
}

export async function markEventsProcessed(tx: Queryable, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`update customer_events set processed_at = ${at} where id = any(${sql.raw(`'{${ids.join(',')}}'`)}::bigint[])`,
  );
}

// ---- Journeys and versions ----

export async function insertJourney(
  tx: Queryable,
  values: {
    businessId: number;
    name: string;
    reentry: string;
    graph: Record<string, unknown>;
    goal: JourneyRow['goal'];
    createdBy: number | null;
  },
): Promise<JourneyRow> {
  const [row] = await tx
    .insert(journeys)
    .values({
      businessId: values.businessId,
      name: values.name,
      reentry: values.reentry as JourneyRow['reentry'],
      goal: values.goal,
      createdBy: values.createdBy,
    })
    .returning();
  await tx
    .insert(journeyVersions)
    .values({ journeyId: row!.id, version: 1, graph: values.graph, reentry: values.reentry });
  return row!;
}

export async function findJourney(db: Queryable, businessId: number, id: number): Promise<JourneyRow | null> {
  const [row] = await db
    .select()
    .from(journeys)
    .where(and(eq(journeys.businessId, businessId), eq(journeys.id, id)));
  return row ?? null;
}

/** The journey locked for a change (publish, pause, a new version). */
export async function lockJourney(tx: Queryable, businessId: number, id: number): Promise<JourneyRow | null> {
  const [row] = await tx
    .select()
    .from(journeys)
    .where(and(eq(journeys.businessId, businessId), eq(journeys.id, id)))
    .for('update');
  return row ?? null;
}

export async function listJourneys(db: Queryable, businessId: number): Promise<JourneyRow[]> {
  return db.select().from(journeys).where(eq(journeys.businessId, businessId)).orderBy(desc(journeys.id));
}

export async function findVersion(
  db: Queryable,
  journeyId: number,
  version: number,
): Promise<VersionRow | null> {
  const [row] = await db
    .select()
    .from(journeyVersions)
    .where(and(eq(journeyVersions.journeyId, journeyId), eq(journeyVersions.version, version)));
  return row ?? null;
}

export async function findVersions(
  db: Queryable,
  keys: { journeyId: number; version: number }[],
): Promise<VersionRow[]> {
  if (keys.length === 0) return [];
  return rowsOf<VersionRow>(
    db,
    sql`select v.journey_id as "journeyId", v.version, v.graph, v.reentry, v.published_at as "publishedAt",
          v.created_at as "createdAt"
        from journey_versions v
        join jsonb_to_recordset(${recordset(keys.map((k) => ({ j: k.journeyId, v: k.version })))}) as k(j bigint, v int)
          on k.j = v.journey_id and k.v = v.version`,
  ).then((rows) => rows.map((r) => ({ ...r, journeyId: Number(r.journeyId) })));
}

export async function updateJourney(
  tx: Queryable,
  id: number,
  values: Partial<
    Pick<JourneyRow, 'name' | 'status' | 'reentry' | 'version' | 'liveVersion' | 'eventNames' | 'goal'>
  >,
): Promise<JourneyRow> {
  const [row] = await tx
    .update(journeys)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(journeys.id, id))
    .returning();
  return row!;
}

export async function replaceVersion(
  tx: Queryable,
  journeyId: number,
  version: number,
  graph: Record<string, unknown>,
  reentry: string,
): Promise<void> {
  await tx
    .insert(journeyVersions)
    .values({ journeyId, version, graph, reentry })
    .onConflictDoUpdate({
      target: [journeyVersions.journeyId, journeyVersions.version],
      set: { graph, reentry },
    });
}

export async function markVersionPublished(tx: Queryable, journeyId: number, version: number, at: Date) {
  await tx
    .update(journeyVersions)
    .set({ publishedAt: at })
    .where(
      and(
        eq(journeyVersions.journeyId, journeyId),
        eq(journeyVersions.version, version),
        sql`${journeyVersions.publishedAt} is null`,
      ),
    );
}

/** The live journeys of a business that start on `name`. */
export async function liveJourneysOn(db: Queryable, businessId: number, name: string): Promise<JourneyRow[]> {
  return db
    .select()
    .from(journeys)
    .where(
      and(
        eq(journeys.businessId, businessId),
        eq(journeys.status, 'live'),
        sql`${name} = any(${journeys.eventNames})`,
      ),
    );
}

/**
 * Live journeys, of every business, that start on one of Titan's own events: `journey.date:<id>`
 * (a date field) or `journey.segment:<id>` (entering a segment).
 */
export async function liveJourneysStartingOn(db: Queryable, kind: 'date' | 'segment'): Promise<JourneyRow[]> {
  const prefix = `journey.${kind}:%`;
  return db
    .select()
    .from(journeys)
    .where(
      and(
        eq(journeys.status, 'live'),
        sql`exists (select 1 from unnest(${journeys.eventNames}) as n where n like ${prefix})`,
      ),
    );
}

/**
 * The businesses whose live or paused journeys start on or wait for `conversation.unanswered.<N>h`,
 * with each N they name (the event names published versions listen for).
 */
export async function unansweredListeners(db: Queryable): Promise<{ businessId: number; name: string }[]> {
  const rows = await rowsOf<{ business_id: string | number; name: string }>(
    db,
    sql`select distinct j.business_id, n.name from journeys j, unnest(j.event_names) as n(name)
        where j.status in ('live', 'paused') and n.name like 'conversation.unanswered.%'`,
  );
  return rows.map((r) => ({ businessId: Number(r.business_id), name: r.name }));
}

/** Records these customers as in the journey's segment; answers those not recorded before. */
export async function addSegmentMembers(
  tx: Queryable,
  journey: { id: number; businessId: number },
  customerIds: number[],
  at: Date,
): Promise<number[]> {
  if (customerIds.length === 0) return [];
  const rows = await tx
    .insert(journeySegmentMembers)
    .values(
      customerIds.map((customerId) => ({
        journeyId: journey.id,
        customerId,
        businessId: journey.businessId,
        enteredAt: at,
      })),
    )
    .onConflictDoNothing()
    .returning({ customerId: journeySegmentMembers.customerId });
  return rows.map((r) => r.customerId);
}

/** A page of the customers recorded in the journey's segment, in id order. */
export async function segmentMemberIds(
  db: Queryable,
  journeyId: number,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ customerId: journeySegmentMembers.customerId })
    .from(journeySegmentMembers)
    .where(
      and(
        eq(journeySegmentMembers.journeyId, journeyId),
        sql`${journeySegmentMembers.customerId} > ${afterId}`,
      ),
    )
    .orderBy(asc(journeySegmentMembers.customerId))
    .limit(limit);
  return rows.map((r) => r.customerId);
}

export async function removeSegmentMembers(
  db: Queryable,
  journeyId: number,
  customerIds: number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await db
    .delete(journeySegmentMembers)
    .where(
      and(
        eq(journeySegmentMembers.journeyId, journeyId),
        sql`${journeySegmentMembers.customerId} = any(${sql.raw(`'{${customerIds.join(',')}}'`)}::bigint[])`,
      ),
    );
}

// ---- Runs ----

/**
 * Starts a run unless the re-entry rule forbids it (checked under a lock on the journey and
 * customer, so two events at once cannot both enter a "never" journey), or this event already
 * started one. Null when it did not start.
 */
export async function startRun(
  tx: Queryable,
  run: {
    businessId: number;
    journeyId: number;
    version: number;
    customerId: number;
    triggerEventId: number | null;
    reentry: string;
    at: Date;
    /** A test run's clock speed. */
    clockSpeed?: number | null;
  },
): Promise<RunRow | null> {
  await advisoryLock(tx, `journey:${run.journeyId}:customer:${run.customerId}`);
  if (run.reentry !== 'always') {
    const [blocking] = await tx
      .select({ id: journeyRuns.id })
      .from(journeyRuns)
      .where(
        and(
          eq(journeyRuns.journeyId, run.journeyId),
          eq(journeyRuns.customerId, run.customerId),
          run.reentry === 'after_exit' ? eq(journeyRuns.status, 'active') : undefined,
        ),
      )
      .limit(1);
    if (blocking) return null;
  }
  const [row] = await tx
    .insert(journeyRuns)
    .values({
      businessId: run.businessId,
      journeyId: run.journeyId,
      version: run.version,
      customerId: run.customerId,
      triggerEventId: run.triggerEventId,
      enteredAt: run.at,
      clockSpeed: run.clockSpeed ?? null,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findRun(db: Queryable, id: number): Promise<RunRow | null> {
  const [row] = await db.select().from(journeyRuns).where(eq(journeyRuns.id, id));
  return row ?? null;
}

/** Ends an active run; answers whether it was active (ended now). */
export async function endRun(
  tx: Queryable,
  id: number,
  status: 'exited' | 'failed',
  at: Date,
): Promise<boolean> {
  const ended = await tx
    .update(journeyRuns)
    .set({ status, endedAt: at })
    .where(and(eq(journeyRuns.id, id), eq(journeyRuns.status, 'active')))
    .returning({ id: journeyRuns.id });
  return ended.length > 0;
}

export async function findEvent(db: Queryable, id: number): Promise<EventRow | null> {
  const [row] = await db.select().from(customerEvents).where(eq(customerEvents.id, id));
  return row ?? null;
}

// ---- Steps ----

export type NewStep = {
  run: RunRow;
  nodeId: string;
  status: StepRow['status'];
  dueAt: Date | null;
  waitEvent?: string | null;
  outcome?: string | null;
  detail?: Record<string, unknown> | null;
  at: Date;
  /** Its visit of the node (1: the first; a customer moved onto a node they passed before comes again). */
  visit?: number;
};

/** Enters a step (its first visit); a step already entered is left as it is. */
export async function insertStep(tx: Queryable, s: NewStep): Promise<StepRow | null> {
  const final = s.status === 'passed' || s.status === 'exited' || s.status === 'failed';
  const [row] = await tx
    .insert(journeySteps)
    .values({
      runId: s.run.id,
      businessId: s.run.businessId,
      journeyId: s.run.journeyId,
      version: s.run.version,
      customerId: s.run.customerId,
      nodeId: s.nodeId,
      visit: s.visit ?? 1,
      status: s.status,
      dueAt: s.dueAt,
      waitEvent: s.waitEvent ?? null,
      outcome: s.outcome ?? null,
      detail: s.detail ?? null,
      enteredAt: s.at,
      finishedAt: final ? s.at : null,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * Claims due steps of live journeys: pending ones and waits whose timer ran out, not held by
 * another worker's lease. Answers them with the lease that marks them this worker's.
 */
export async function claimDueSteps(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<StepRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`with due as (
          select s.id from journey_steps s
          join journeys j on j.id = s.journey_id
          where s.status in ('pending', 'waiting') and s.due_at <= ${now}
            -- A live journey's steps; a test run's whatever the journey's status.
            and (j.status = 'live'
              or exists (select 1 from journey_runs r where r.id = s.run_id and r.clock_speed is not null))
            and (s.lease_until is null or s.lease_until <= ${now})
          order by s.due_at, s.id
          limit ${limit}
          for update of s skip locked
        )
        update journey_steps s set lease_until = ${leaseUntil}, attempts = s.attempts + 1
        from due where s.id = due.id
        returning s.id`,
  );
  if (rows.length === 0) return [];
  return db
    .select()
    .from(journeySteps)
    .where(
      sql`${journeySteps.id} = any(${sql.raw(`'{${rows.map((r) => Number(r.id)).join(',')}}'`)}::bigint[])`,
    )
    .orderBy(asc(journeySteps.dueAt), asc(journeySteps.id));
}

/** The claimed step, locked, if it is still open and still under this worker's lease. */
export async function lockClaimedStep(tx: Queryable, id: number, leaseUntil: Date): Promise<StepRow | null> {
  const [row] = await tx
    .select()
    .from(journeySteps)
    .where(
      and(
        eq(journeySteps.id, id),
        sql`${journeySteps.status} in ('pending', 'waiting')`,
        eq(journeySteps.leaseUntil, leaseUntil),
      ),
    )
    .for('update');
  return row ?? null;
}

/**
 * Open steps (pending or waiting, held by no worker) of the journey's active customers on a version
 * older than `liveVersion`, test runs aside: locked, so no worker claims them meanwhile (a held one
 * is skipped and its customer stays where they are). A page in id order.
 */
export async function lockStepsInFlight(
  tx: Queryable,
  journeyId: number,
  liveVersion: number,
  now: Date,
  limit: number,
): Promise<StepRow[]> {
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`select s.id from journey_steps s
        join journey_runs r on r.id = s.run_id
        where s.journey_id = ${journeyId} and s.status in ('pending', 'waiting') and s.version < ${liveVersion}
          and r.status = 'active' and r.clock_speed is null
          and (s.lease_until is null or s.lease_until <= ${now})
        order by s.id
        limit ${limit}
        for update of s skip locked`,
  );
  if (rows.length === 0) return [];
  return tx
    .select()
    .from(journeySteps)
    .where(
      inArray(
        journeySteps.id,
        rows.map((r) => Number(r.id)),
      ),
    )
    .orderBy(journeySteps.id);
}

/** Active customers (test runs aside) on a version older than `liveVersion`. */
export async function countRunsInFlight(
  db: Queryable,
  journeyId: number,
  liveVersion: number,
): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from journey_runs
        where journey_id = ${journeyId} and status = 'active' and version < ${liveVersion} and clock_speed is null`,
  );
  return row?.n ?? 0;
}

/** The run now goes on in `version`. */
export async function setRunVersion(tx: Queryable, runId: number, version: number): Promise<RunRow> {
  const [row] = await tx.update(journeyRuns).set({ version }).where(eq(journeyRuns.id, runId)).returning();
  return row!;
}

/** The highest visit of the run's steps at `nodeId` (0: never there). */
export async function lastVisit(tx: Queryable, runId: number, nodeId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    tx,
    sql`select coalesce(max(visit), 0)::int as n from journey_steps where run_id = ${runId} and node_id = ${nodeId}`,
  );
  return row?.n ?? 0;
}

/** A step run too early (a text in quiet hours): it waits, unleased, until `until`, saying why. */
export async function deferStep(
  tx: Queryable,
  id: number,
  until: Date,
  detail: Record<string, unknown>,
): Promise<void> {
  await tx
    .update(journeySteps)
    .set({ status: 'waiting', dueAt: until, detail, leaseUntil: null, attempts: 0 })
    .where(eq(journeySteps.id, id));
}

export async function finishStep(
  tx: Queryable,
  id: number,
  result: {
    status: 'passed' | 'exited' | 'failed';
    outcome: string | null;
    detail: Record<string, unknown> | null;
  },
  at: Date,
): Promise<void> {
  await tx
    .update(journeySteps)
    .set({
      status: result.status,
      outcome: result.outcome,
      detail: result.detail,
      finishedAt: at,
      leaseUntil: null,
    })
    .where(eq(journeySteps.id, id));
}

/** Ends a customer's waits for `name` that began before the event happened; answers the steps ended. */
export async function endWaitsFor(
  tx: Queryable,
  e: { businessId: number; customerId: number; name: string; occurredAt: Date; eventId: number },
  at: Date,
): Promise<StepRow[]> {
  const ended = await rowsOf<{ id: string }>(
    tx,
    sql`update journey_steps set status = 'passed', outcome = 'event', finished_at = ${at}, lease_until = null,
          detail = jsonb_build_object('event_id', ${e.eventId}::bigint)
        where customer_id = ${e.customerId} and business_id = ${e.businessId} and status = 'waiting'
          and wait_event = ${e.name} and entered_at <= ${e.occurredAt}
        returning id`,
  );
  if (ended.length === 0) return [];
  return tx
    .select()
    .from(journeySteps)
    .where(
      sql`${journeySteps.id} = any(${sql.raw(`'{${ended.map((r) => Number(r.id)).join(',')}}'`)}::bigint[])`,
    );
}

/** Per node: how many entered it, wait in it, passed, exited there and failed there. */
export async function stepCounts(db: Queryable, journeyId: number) {
  return rowsOf<{ node_id: string; status: string; n: number }>(
    db,
    sql`select node_id, status, count(*)::int as n from journey_steps
        where journey_id = ${journeyId}
          and run_id not in (select id from journey_runs where journey_id = ${journeyId} and clock_speed is not null)
        group by node_id, status`,
  );
}

export async function runCounts(db: Queryable, journeyId: number) {
  return rowsOf<{ status: string; n: number }>(
    db,
    sql`select status, count(*)::int as n from journey_runs
        where journey_id = ${journeyId} and clock_speed is null group by status`,
  );
}

/** The conversion of a goal: passes (test runs aside), and those whose event came within its days. */
export async function goalCounts(
  db: Queryable,
  journeyId: number,
  goal: { event: string; within_days: number },
): Promise<{ entered: number; converted: number }> {
  const [row] = await rowsOf<{ entered: number; converted: number }>(
    db,
    sql`select count(*)::int as entered,
          count(*) filter (where exists (
            select 1 from customer_events e
            where e.customer_id = r.customer_id and e.business_id = r.business_id and e.name = ${goal.event}
              and e.occurred_at >= r.entered_at
              and e.occurred_at <= r.entered_at + make_interval(days => ${goal.within_days}::int)))::int as converted
        from journey_runs r where r.journey_id = ${journeyId} and r.clock_speed is null`,
  );
  return row ?? { entered: 0, converted: 0 };
}

/** When each run's goal event first came within its days (runs without one left out). */
export async function goalReachedAt(
  db: Queryable,
  runIds: number[],
  goal: { event: string; within_days: number },
): Promise<Map<number, Date>> {
  if (runIds.length === 0) return new Map();
  const rows = await rowsOf<{ id: string | number; at: string | Date }>(
    db,
    sql`select r.id, min(e.occurred_at) as at
        from journey_runs r
        join customer_events e on e.customer_id = r.customer_id and e.business_id = r.business_id
          and e.name = ${goal.event} and e.occurred_at >= r.entered_at
          and e.occurred_at <= r.entered_at + make_interval(days => ${goal.within_days}::int)
        where r.id = any(${sql.raw(`'{${runIds.join(',')}}'`)}::bigint[])
        group by r.id`,
  );
  return new Map(rows.map((r) => [Number(r.id), new Date(r.at)]));
}

export async function runsOfCustomer(db: Queryable, journeyId: number, customerId: number) {
  const runs = await db
    .select()
    .from(journeyRuns)
    .where(and(eq(journeyRuns.journeyId, journeyId), eq(journeyRuns.customerId, customerId)))
    .orderBy(asc(journeyRuns.id));
  if (runs.length === 0) return [];
  const steps = await db
    .select()
    .from(journeySteps)
    .where(sql`${journeySteps.runId} = any(${sql.raw(`'{${runs.map((r) => r.id).join(',')}}'`)}::bigint[])`)
    .orderBy(asc(journeySteps.enteredAt), asc(journeySteps.id));
  return runs.map((run) => ({ run, steps: steps.filter((s) => s.runId === run.id) }));
}

// ---- Batches (the loop runs a claim's steps in one transaction, set-based) ----

const idArray = (ids: number[]) => sql.raw(`'{${ids.join(',')}}'`);

/** The claimed steps still open and still under this worker's lease (`leaseUntil`), locked. */
export async function lockClaimedSteps(tx: Queryable, ids: number[], leaseUntil: Date): Promise<StepRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(journeySteps)
    .where(
      and(
        sql`${journeySteps.id} = any(${idArray(ids)}::bigint[])`,
        sql`${journeySteps.status} in ('pending', 'waiting')`,
        eq(journeySteps.leaseUntil, leaseUntil),
      ),
    )
    .orderBy(asc(journeySteps.id))
    .for('update');
}

export async function findRuns(db: Queryable, ids: number[]): Promise<RunRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(journeyRuns)
    .where(sql`${journeyRuns.id} = any(${idArray([...new Set(ids)])}::bigint[])`);
}

export async function findEvents(db: Queryable, ids: number[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(customerEvents)
    .where(sql`${customerEvents.id} = any(${idArray([...new Set(ids)])}::bigint[])`);
}

/** finishStep for many steps in one statement. */
export async function finishSteps(
  tx: Queryable,
  results: {
    id: number;
    status: 'passed' | 'exited' | 'failed';
    outcome: string | null;
    detail: Record<string, unknown> | null;
  }[],
  at: Date,
): Promise<void> {
  if (results.length === 0) return;
  await tx.execute(
    sql`update journey_steps s set status = k.status, outcome = k.outcome,
          detail = k.detail, finished_at = ${at}, lease_until = null
        from jsonb_to_recordset(${recordset(results)}) as k(id bigint, status text, outcome text, detail jsonb)
        where s.id = k.id`,
  );
}

/** insertStep for many steps in one statement (each already entered is left as it is). */
export async function insertSteps(tx: Queryable, steps: NewStep[]): Promise<void> {
  if (steps.length === 0) return;
  await tx
    .insert(journeySteps)
    .values(
      steps.map((s) => {
        const final = s.status === 'passed' || s.status === 'exited' || s.status === 'failed';
        return {
          runId: s.run.id,
          businessId: s.run.businessId,
          journeyId: s.run.journeyId,
          version: s.run.version,
          customerId: s.run.customerId,
          nodeId: s.nodeId,
          visit: s.visit ?? 1,
          status: s.status,
          dueAt: s.dueAt,
          waitEvent: s.waitEvent ?? null,
          outcome: s.outcome ?? null,
          detail: s.detail ?? null,
          enteredAt: s.at,
          finishedAt: final ? s.at : null,
        };
      }),
    )
    .onConflictDoNothing();
}

/** endRun for many runs of one ending; answers the ids that were active (ended now). */
export async function endRuns(
  tx: Queryable,
  ids: number[],
  status: 'exited' | 'failed',
  at: Date,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const ended = await tx
    .update(journeyRuns)
    .set({ status, endedAt: at })
    .where(and(sql`${journeyRuns.id} = any(${idArray(ids)}::bigint[])`, eq(journeyRuns.status, 'active')))
    .returning({ id: journeyRuns.id });
  return new Set(ended.map((r) => r.id));
}

/**
 * How many steps the loop will have to run by `by` (claimable as claimDueSteps reads them: live
 * journeys' and test runs', held or not), counted up to `limit` (the partial due index, no more).
 */
export async function countDueBy(db: Queryable, by: Date, limit: number): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (
          select 1 from journey_steps s
          join journeys j on j.id = s.journey_id
          where s.status in ('pending', 'waiting') and s.due_at <= ${by}
            and (j.status = 'live'
              or exists (select 1 from journey_runs r where r.id = s.run_id and r.clock_speed is not null))
          limit ${limit}
        ) due`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Of these (customer, event name) pairs, those with a wait for the event open (one statement for a
 * batch of events, on the waits' index): only their events need endWaitsFor.
 */
export async function customersWaitingFor(
  db: Queryable,
  pairs: { businessId: number; customerId: number; name: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await rowsOf<{ customer_id: string | number; wait_event: string }>(
    db,
    sql`select distinct s.customer_id, s.wait_event
        from jsonb_to_recordset(${recordset(
          pairs.map((p) => ({ business_id: p.businessId, customer_id: p.customerId, name: p.name })),
        )}) as k(business_id bigint, customer_id bigint, name text)
        join journey_steps s on s.customer_id = k.customer_id and s.wait_event = k.name
          and s.business_id = k.business_id
        where s.status = 'waiting' and s.wait_event is not null`,
  );
  return new Set(rows.map((r) => `${Number(r.customer_id)}:${r.wait_event}`));
}

/** The earliest due time of an open step after `after` (the loop's next timer), or null. */
export async function nextDueAt(db: Queryable, after: Date): Promise<Date | null> {
  const [row] = await rowsOf<{ at: string | Date | null }>(
    db,
    sql`select min(due_at) as at from journey_steps where status in ('pending', 'waiting') and due_at > ${after}`,
  );
  return row?.at ? new Date(row.at) : null;
}

/**
 * The locks startRun takes (journey × customer), many in one statement and in the order given: a
 * batch of events locks as one heard after the other would.
 */
export async function lockJourneyCustomers(
  tx: Queryable,
  keys: { journeyId: number; customerId: number }[],
): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(${lockKeyOf(sql`k.key`)})
        from jsonb_array_elements_text(${recordset(
          keys.map((k) => `journey:${k.journeyId}:customer:${k.customerId}`),
        )}) with ordinality as k(key, n)
        order by k.n`,
  );
}

/**
 * startRun for many events at once, their locks held (lockJourneyCustomers): each starts unless the
 * re-entry rule forbids it or its event already started one. The caller passes one start per
 * journey and customer where the rule is not `always`. Answers the runs started.
 */
export async function startRuns(
  tx: Queryable,
  starts: {
    businessId: number;
    journeyId: number;
    version: number;
    customerId: number;
    triggerEventId: number;
    reentry: string;
    at: Date;
  }[],
): Promise<RunRow[]> {
  if (starts.length === 0) return [];
  const rows = await rowsOf<{ id: string | number }>(
    tx,
    sql`insert into journey_runs (business_id, journey_id, version, customer_id, trigger_event_id, entered_at)
        select k.business_id, k.journey_id, k.version, k.customer_id, k.trigger_event_id, k.at
        from jsonb_to_recordset(${recordset(
          starts.map((s) => ({
            business_id: s.businessId,
            journey_id: s.journeyId,
            version: s.version,
            customer_id: s.customerId,
            trigger_event_id: s.triggerEventId,
            reentry: s.reentry,
            at: s.at.toISOString(),
          })),
        )}) as k(business_id bigint, journey_id bigint, version int, customer_id bigint,
                 trigger_event_id bigint, reentry text, at timestamptz)
        where k.reentry = 'always' or not exists (
          select 1 from journey_runs r
          where r.journey_id = k.journey_id and r.customer_id = k.customer_id
            and (k.reentry <> 'after_exit' or r.status = 'active'))
        on conflict do nothing
        returning id`,
  );
  return findRuns(
    tx,
    rows.map((r) => Number(r.id)),
  );
}
