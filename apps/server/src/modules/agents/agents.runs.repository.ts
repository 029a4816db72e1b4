// The only code that touches agent_runs, agent_run_steps and agent_deliveries (engage.md §5).
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TAgentChannel, TAgentDeliveryStatus, TAgentRunStatus } from '@titan/contracts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Queryable } from '../../db/client';
import { agentDeliveries, agentRuns, agentRunSteps } from '../../db/schema';

export type RunRow = typeof agentRuns.$inferSelect;
export type NewRun = typeof agentRuns.$inferInsert;
export type StepRow = typeof agentRunSteps.$inferSelect;
export type NewStep = typeof agentRunSteps.$inferInsert;
export type DeliveryRow = typeof agentDeliveries.$inferSelect;
export type NewDelivery = typeof agentDeliveries.$inferInsert;

/** The deliveries that count against a recipient's weekly cap (sent or on their way). */
export const CAP_STATUSES: TAgentDeliveryStatus[] = ['planned', 'pending_approval', 'approved', 'sent'];

/** A new run; null when that agent × channel × slot already has one. */
export async function insertRun(db: Queryable, values: NewRun): Promise<RunRow | null> {
  const [row] = await db
    .insert(agentRuns)
    .values(values)
    .onConflictDoNothing({
      target: [agentRuns.agentId, agentRuns.channel, agentRuns.slot],
      where: sql`${agentRuns.customerId} is null`,
    })
    .returning();
  return row ?? null;
}

/** A new one-customer run under its key; null when the business already has a run by that key. */
export async function insertKeyedRun(
  db: Queryable,
  values: NewRun & { customerId: number; idempotencyKey: string },
): Promise<RunRow | null> {
  const [row] = await db
    .insert(agentRuns)
    .values(values)
    .onConflictDoNothing({
      target: [agentRuns.businessId, agentRuns.idempotencyKey],
      where: sql`${agentRuns.idempotencyKey} is not null`,
    })
    .returning();
  return row ?? null;
}

export async function findRunByKey(
  db: Queryable,
  businessId: number,
  idempotencyKey: string,
): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.businessId, businessId), eq(agentRuns.idempotencyKey, idempotencyKey)))
    .limit(1);
  return row ?? null;
}

export async function findRunBySlot(
  db: Queryable,
  agentId: number,
  channel: TAgentChannel,
  slot: Date,
): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.agentId, agentId), eq(agentRuns.channel, channel), eq(agentRuns.slot, slot)))
    .limit(1);
  return row ?? null;
}

export async function findRunById(db: Queryable, id: string): Promise<RunRow | null> {
  const [row] = await db.select().from(agentRuns).where(eq(agentRuns.id, id)).limit(1);
  return row ?? null;
}

export async function findRun(
  db: Queryable,
  businessId: number,
  agentId: number,
  id: string,
): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.businessId, businessId), eq(agentRuns.agentId, agentId), eq(agentRuns.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * Takes a running run for this worker until `until`: only when nobody holds it (a worker that died
 * lets its lease lapse, and the run is taken over where its last page left it).
 */
export async function claimRun(db: Queryable, id: string, now: Date, until: Date): Promise<RunRow | null> {
  const [row] = await db
    .update(agentRuns)
    .set({ lockedUntil: until, attempts: sql`${agentRuns.attempts} + 1` })
    .where(
      and(
        eq(agentRuns.id, id),
        eq(agentRuns.status, 'running'),
        or(isNull(agentRuns.lockedUntil), lt(agentRuns.lockedUntil, now)),
      ),
    )
    .returning();
  return row ?? null;
}

export async function updateRun(
  db: Queryable,
  id: string,
  values: Partial<
    Pick<RunRow, 'status' | 'error' | 'finishedAt' | 'lockedUntil' | 'cursor' | 'counts' | 'cost'>
  > & { addPromptTokens?: number; addCompletionTokens?: number },
): Promise<RunRow | null> {
  const { addPromptTokens, addCompletionTokens, ...rest } = values;
  const [row] = await db
    .update(agentRuns)
    .set({
      ...rest,
      ...(addPromptTokens ? { promptTokens: sql`${agentRuns.promptTokens} + ${addPromptTokens}` } : {}),
      ...(addCompletionTokens
        ? { completionTokens: sql`${agentRuns.completionTokens} + ${addCompletionTokens}` }
        : {}),
    })
    .where(eq(agentRuns.id, id))
    .returning();
  return row ?? null;
}

/** Runs still `running` whose worker let its lease lapse (or never took them). */
export async function findStaleRuns(db: Queryable, now: Date, limit: number): Promise<RunRow[]> {
  return db
    .select()
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.status, 'running'),
        or(isNull(agentRuns.lockedUntil), lt(agentRuns.lockedUntil, now)),
        sql`${agentRuns.trigger} <> 'preview'`,
      ),
    )
    .orderBy(asc(agentRuns.startedAt))
    .limit(limit);
}

export async function listRuns(
  db: Queryable,
  businessId: number,
  agentId: number,
  filter: {
    channel?: TAgentChannel;
    status?: TAgentRunStatus;
    trigger?: RunRow['trigger'];
    kind?: 'real' | 'preview';
  },
  limit: number,
  offset: number,
): Promise<{ rows: RunRow[]; count: number }> {
  const where = and(
    eq(agentRuns.businessId, businessId),
    eq(agentRuns.agentId, agentId),
    filter.channel ? eq(agentRuns.channel, filter.channel) : undefined,
    filter.status ? eq(agentRuns.status, filter.status) : undefined,
    filter.trigger ? eq(agentRuns.trigger, filter.trigger) : undefined,
    filter.kind === 'real' ? sql`${agentRuns.trigger} <> 'preview'` : undefined,
    filter.kind === 'preview' ? eq(agentRuns.trigger, 'preview') : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agentRuns)
      .where(where)
      .orderBy(desc(agentRuns.startedAt), desc(agentRuns.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(agentRuns).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The newest run (previews aside) of each agent. */
export async function lastRuns(db: Queryable, businessId: number, agentIds: number[]): Promise<RunRow[]> {
  if (agentIds.length === 0) return [];
  return db
    .selectDistinctOn([agentRuns.agentId])
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.businessId, businessId),
        inArray(agentRuns.agentId, agentIds),
        sql`${agentRuns.trigger} <> 'preview'`,
      ),
    )
    .orderBy(agentRuns.agentId, desc(agentRuns.startedAt));
}

/** The statuses of the agent's latest finished runs (previews aside), newest first. */
export async function latestFinishedStatuses(db: Queryable, agentId: number, n: number): Promise<string[]> {
  const rows = await db
    .select({ status: agentRuns.status })
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.agentId, agentId),
        sql`${agentRuns.trigger} <> 'preview'`,
        sql`${agentRuns.status} <> 'running'`,
      ),
    )
    .orderBy(desc(agentRuns.startedAt))
    .limit(n);
  return rows.map((r) => r.status);
}

// ---- Steps ----

export async function insertSteps(db: Queryable, steps: NewStep[]): Promise<void> {
  for (let i = 0; i < steps.length; i += 500) {
    await db
      .insert(agentRunSteps)
      .values(steps.slice(i, i + 500))
      .onConflictDoNothing({ target: [agentRunSteps.runId, agentRunSteps.seq] });
  }
}

export async function maxStepSeq(db: Queryable, runId: string): Promise<number> {
  const [row] = await db
    .select({ seq: sql<number | null>`max(${agentRunSteps.seq})` })
    .from(agentRunSteps)
    .where(eq(agentRunSteps.runId, runId));
  return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
}

/** Keeps a statement to the customers a viewer may see, by a customer id column (undefined: all). */
export type CustomerFilter = (customerId: AnyPgColumn) => SQL | undefined;

/** A page of a run's steps: the run's own (no customer) and those of the customers `visible` keeps. */
export async function listSteps(
  db: Queryable,
  runId: string,
  visible: CustomerFilter,
  limit: number,
  offset: number,
): Promise<{ rows: StepRow[]; count: number }> {
  const theirs = visible(agentRunSteps.customerId);
  const where = and(
    eq(agentRunSteps.runId, runId),
    theirs ? or(isNull(agentRunSteps.customerId), theirs) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(agentRunSteps).where(where).orderBy(asc(agentRunSteps.seq)).limit(limit).offset(offset),
    db.select({ n: count() }).from(agentRunSteps).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

// ---- Deliveries ----

/** Writes deliveries; one already written under the same idempotency key is left as it was. */
export async function insertDeliveries(db: Queryable, rows: NewDelivery[]): Promise<DeliveryRow[]> {
  const out: DeliveryRow[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    out.push(
      ...(await db
        .insert(agentDeliveries)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing({ target: agentDeliveries.idempotencyKey })
        .returning()),
    );
  }
  return out;
}

/** Of these idempotency keys, the ones already written. */
export async function existingKeys(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: agentDeliveries.idempotencyKey })
    .from(agentDeliveries)
    .where(inArray(agentDeliveries.idempotencyKey, keys));
  return new Set(rows.map((r) => r.key));
}

/** Per run, how many deliveries are in each status. */
export async function countDeliveries(
  db: Queryable,
  runIds: string[],
): Promise<Map<string, Partial<Record<TAgentDeliveryStatus, number>>>> {
  const out = new Map<string, Partial<Record<TAgentDeliveryStatus, number>>>();
  if (runIds.length === 0) return out;
  const rows = await db
    .select({ runId: agentDeliveries.runId, status: agentDeliveries.status, n: count() })
    .from(agentDeliveries)
    .where(inArray(agentDeliveries.runId, runIds))
    .groupBy(agentDeliveries.runId, agentDeliveries.status);
  for (const r of rows) {
    const counts = out.get(r.runId) ?? {};
    counts[r.status] = Number(r.n);
    out.set(r.runId, counts);
  }
  return out;
}

export async function listDeliveries(
  db: Queryable,
  runId: string,
  filter: { status?: TAgentDeliveryStatus; visible?: CustomerFilter },
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; count: number }> {
  const where = and(
    eq(agentDeliveries.runId, runId),
    filter.status ? eq(agentDeliveries.status, filter.status) : undefined,
    filter.visible?.(agentDeliveries.customerId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agentDeliveries)
      .where(where)
      .orderBy(asc(agentDeliveries.createdAt), asc(agentDeliveries.customerId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(agentDeliveries).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Deliveries of a run waiting to become sends (planned in auto mode, or approved), a batch at a time. */
export async function deliveriesToSend(db: Queryable, runId: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(agentDeliveries)
    .where(
      and(
        eq(agentDeliveries.runId, runId),
        inArray(agentDeliveries.status, ['planned', 'approved']),
        isNull(agentDeliveries.sendId),
      ),
    )
    .orderBy(asc(agentDeliveries.customerId))
    .limit(limit);
}

export async function setDeliveryOutcome(
  db: Queryable,
  id: string,
  values: { status: TAgentDeliveryStatus; sendId?: string | null; reason?: string },
): Promise<void> {
  await db
    .update(agentDeliveries)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(agentDeliveries.id, id));
}

/**
 * Review: moves the run's deliveries waiting for approval (those of `ids`, or all) to `status`.
 * Answers the ids moved.
 */
export async function reviewDeliveries(
  db: Queryable,
  runId: string,
  ids: string[] | 'all',
  status: 'approved' | 'rejected',
  userId: number | null,
): Promise<string[]> {
  const rows = await db
    .update(agentDeliveries)
    .set({ status, decidedBy: userId, updatedAt: new Date() })
    .where(
      and(
        eq(agentDeliveries.runId, runId),
        eq(agentDeliveries.status, 'pending_approval'),
        ids === 'all' ? undefined : inArray(agentDeliveries.id, ids),
      ),
    )
    .returning({ id: agentDeliveries.id });
  return rows.map((r) => r.id);
}

/** Of these deliveries of the run, the ones that exist (whatever their status). */
export async function findDeliveriesOfRun(
  db: Queryable,
  runId: string,
  ids: string[],
): Promise<DeliveryRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(agentDeliveries)
    .where(and(eq(agentDeliveries.runId, runId), inArray(agentDeliveries.id, ids)));
}

/**
 * Per customer, the deliveries of any agent of the business since `since` that count against the
 * weekly cap (planned, pending approval, approved or sent).
 */
export async function recentDeliveryCounts(
  db: Queryable,
  businessId: number,
  customerIds: number[],
  since: Date,
): Promise<Map<number, number>> {
  if (customerIds.length === 0) return new Map();
  const rows = await db
    .select({ customerId: agentDeliveries.customerId, n: count() })
    .from(agentDeliveries)
    .where(
      and(
        eq(agentDeliveries.businessId, businessId),
        inArray(agentDeliveries.customerId, customerIds),
        gte(agentDeliveries.createdAt, since),
        inArray(agentDeliveries.status, CAP_STATUSES),
      ),
    )
    .groupBy(agentDeliveries.customerId);
  return new Map(rows.map((r) => [r.customerId, Number(r.n)]));
}

/** Runs with deliveries still waiting for approval. */
/**
 * An `awaiting_approval` run whose review queue is now empty becomes `completed`: one statement, so
 * of two reviews deciding the last deliveries at once exactly one gets the row back.
 */
export async function completeReviewedRun(db: Queryable, runId: string): Promise<RunRow | null> {
  const [row] = await db
    .update(agentRuns)
    .set({ status: 'completed' })
    .where(
      and(
        eq(agentRuns.id, runId),
        eq(agentRuns.status, 'awaiting_approval'),
        sql`not exists (select 1 from ${agentDeliveries} where ${agentDeliveries.runId} = ${runId}
          and ${agentDeliveries.status} = 'pending_approval')`,
      ),
    )
    .returning();
  return row ?? null;
}

export async function countPending(db: Queryable, runId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(agentDeliveries)
    .where(and(eq(agentDeliveries.runId, runId), eq(agentDeliveries.status, 'pending_approval')));
  return Number(row?.n ?? 0);
}

export type { Db };

/** Many deliveries' outcomes in one statement (a batch become sends). */
export async function setDeliveryOutcomes(
  db: Queryable,
  outcomes: { id: string; status: TAgentDeliveryStatus; sendId: string | null; reason: string | null }[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((o) => ({ id: o.id, status: o.status, send_id: o.sendId, reason: o.reason }));
  await db.execute(sql`
    update agent_deliveries d
    set status = v.status, send_id = v.send_id, reason = coalesce(v.reason, d.reason), updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, status text, send_id uuid, reason text)
    where d.id = v.id`);
}

/** Runs (not previews) started in [from, to], by status: the dashboard's agent runs. */
export async function countRunsByStatus(
  db: Queryable,
  businessId: number,
  range: { from: Date; to: Date },
): Promise<{ status: TAgentRunStatus; n: number }[]> {
  return db
    .select({ status: agentRuns.status, n: count() })
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.businessId, businessId),
        sql`${agentRuns.trigger} <> 'preview'`,
        gte(agentRuns.startedAt, range.from),
        sql`${agentRuns.startedAt} <= ${range.to}`,
      ),
    )
    .groupBy(agentRuns.status);
}

/**
 * A customer's traces in the run logs (their erasure): their deliveries, and the steps about them
 * or naming them (a model's input holds the customer as it saw them). The runs stay, their counts
 * without them.
 */
export async function deleteCustomerTraces(
  db: Queryable,
  businessId: number,
  customerId: number,
  values: string[],
): Promise<void> {
  await db
    .delete(agentDeliveries)
    .where(and(eq(agentDeliveries.businessId, businessId), eq(agentDeliveries.customerId, customerId)));
  const needles = values.filter((v) => v.length >= 3).map((v) => v.toLowerCase());
  await db.delete(agentRunSteps).where(
    and(
      eq(agentRunSteps.businessId, businessId),
      needles.length === 0
        ? eq(agentRunSteps.customerId, customerId)
        : sql`(${agentRunSteps.customerId} = ${customerId} or exists (
            select 1 from unnest(${sql.param(needles)}::text[]) n(v)
            where strpos(lower(coalesce(${agentRunSteps.input}::text, '') || coalesce(${agentRunSteps.output}::text, '')), n.v) > 0))`,
    ),
  );
}
