// The only code that touches agents, agent_config_versions, agent_schedules and agent_schedule_fires.
import { and, asc, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { TAgentConfigValues } from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { agentConfigVersions, agents, agentScheduleFires, agentSchedules } from '../../db/schema';

export type AgentRow = typeof agents.$inferSelect;
export type ConfigVersionRow = typeof agentConfigVersions.$inferSelect;
export type ScheduleRow = typeof agentSchedules.$inferSelect;
export type ScheduleValues = Omit<typeof agentSchedules.$inferInsert, 'agentId' | 'businessId'>;
export type FireRow = typeof agentScheduleFires.$inferSelect;

export async function listAgents(db: Db, businessId: number): Promise<AgentRow[]> {
  return db
    .select()
    .from(agents)
    .where(eq(agents.businessId, businessId))
    .orderBy(desc(agents.updatedAt), desc(agents.id));
}

export async function findAgent(
  db: Queryable,
  businessId: number,
  id: number,
  forUpdate = false,
): Promise<AgentRow | null> {
  const query = db
    .select()
    .from(agents)
    .where(and(eq(agents.businessId, businessId), eq(agents.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertAgent(
  db: Queryable,
  values: Pick<typeof agents.$inferInsert, 'businessId' | 'name' | 'description' | 'status' | 'createdBy'>,
): Promise<AgentRow> {
  const [row] = await db.insert(agents).values(values).returning();
  return row!;
}

export async function updateAgent(
  db: Queryable,
  businessId: number,
  id: number,
  values: Partial<
    Pick<AgentRow, 'name' | 'description' | 'status' | 'statusReason' | 'avatarKey' | 'configVersion'>
  >,
): Promise<AgentRow | null> {
  const [row] = await db
    .update(agents)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(agents.businessId, businessId), eq(agents.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteAgent(db: Db, businessId: number, id: number): Promise<AgentRow | null> {
  const [row] = await db
    .delete(agents)
    .where(and(eq(agents.businessId, businessId), eq(agents.id, id)))
    .returning();
  return row ?? null;
}

/** Writes version `version` of the agent's config; inside the caller's transaction. */
export async function insertConfigVersion(
  tx: Queryable,
  agent: AgentRow,
  version: number,
  config: TAgentConfigValues,
  createdBy: number | null,
): Promise<ConfigVersionRow> {
  const [row] = await tx
    .insert(agentConfigVersions)
    .values({ agentId: agent.id, businessId: agent.businessId, version, config, createdBy })
    .returning();
  return row!;
}

export async function findConfigVersions(
  db: Queryable,
  businessId: number,
  agentIds: number[],
  versions?: 'current',
): Promise<ConfigVersionRow[]> {
  if (agentIds.length === 0) return [];
  const where = and(
    eq(agentConfigVersions.businessId, businessId),
    inArray(agentConfigVersions.agentId, agentIds),
  );
  if (versions === 'current') {
    return db
      .select({ v: agentConfigVersions })
      .from(agentConfigVersions)
      .innerJoin(
        agents,
        and(
          eq(agents.id, agentConfigVersions.agentId),
          eq(agents.configVersion, agentConfigVersions.version),
        ),
      )
      .where(where)
      .then((rows) => rows.map((r) => r.v));
  }
  return db.select().from(agentConfigVersions).where(where).orderBy(desc(agentConfigVersions.version));
}

export async function findSchedules(
  db: Queryable,
  businessId: number,
  agentIds: number[],
): Promise<ScheduleRow[]> {
  if (agentIds.length === 0) return [];
  return db
    .select()
    .from(agentSchedules)
    .where(and(eq(agentSchedules.businessId, businessId), inArray(agentSchedules.agentId, agentIds)));
}

export async function upsertSchedule(
  db: Queryable,
  agent: AgentRow,
  values: ScheduleValues,
): Promise<ScheduleRow> {
  const set = { ...values, lastError: null, updatedAt: new Date() };
  const [row] = await db
    .insert(agentSchedules)
    .values({ ...set, agentId: agent.id, businessId: agent.businessId })
    .onConflictDoUpdate({ target: agentSchedules.agentId, set })
    .returning();
  return row!;
}

export async function setNextRun(
  db: Queryable,
  agentId: number,
  values: Pick<ScheduleRow, 'nextRunAt'> & Partial<Pick<ScheduleRow, 'lastFiredAt' | 'lastError'>>,
): Promise<void> {
  await db.update(agentSchedules).set(values).where(eq(agentSchedules.agentId, agentId));
}

/**
 * Due schedules of active agents, locked for this transaction; rows another transaction holds are
 * passed over (`skip locked`), so concurrent ticks never claim the same schedule.
 */
export async function claimDueSchedules(tx: Queryable, now: Date, limit: number): Promise<ScheduleRow[]> {
  const rows = await tx
    .select({ s: agentSchedules })
    .from(agentSchedules)
    .innerJoin(agents, and(eq(agents.id, agentSchedules.agentId), eq(agents.status, 'active')))
    .where(lte(agentSchedules.nextRunAt, now))
    .orderBy(asc(agentSchedules.nextRunAt))
    .limit(limit)
    .for('update', { of: agentSchedules, skipLocked: true });
  return rows.map((r) => r.s);
}

/** Records a fired slot; answers false when that agent × slot was already recorded. */
export async function insertFire(
  tx: Queryable,
  schedule: ScheduleRow,
  slot: Date,
  catchUp: boolean,
): Promise<boolean> {
  const rows = await tx
    .insert(agentScheduleFires)
    .values({ agentId: schedule.agentId, businessId: schedule.businessId, slot, catchUp })
    .onConflictDoNothing({ target: [agentScheduleFires.agentId, agentScheduleFires.slot] })
    .returning({ id: agentScheduleFires.id });
  return rows.length > 0;
}

export async function listFires(db: Queryable, businessId: number, agentId: number): Promise<FireRow[]> {
  return db
    .select()
    .from(agentScheduleFires)
    .where(and(eq(agentScheduleFires.businessId, businessId), eq(agentScheduleFires.agentId, agentId)))
    .orderBy(asc(agentScheduleFires.slot));
}

/** An agent by id alone (the run loop, which starts from a fired slot or a run). */
export async function findAgentById(db: Queryable, id: number): Promise<AgentRow | null> {
  const [row] = await db.select().from(agents).where(eq(agents.id, id)).limit(1);
  return row ?? null;
}

/**
 * Fired slots not yet consumed by the run loop, locked for this transaction; rows another
 * transaction holds are passed over (`skip locked`), so two workers never consume the same fire.
 */
export async function claimFires(tx: Queryable, limit: number): Promise<FireRow[]> {
  return tx
    .select()
    .from(agentScheduleFires)
    .where(isNull(agentScheduleFires.consumedAt))
    .orderBy(asc(agentScheduleFires.firedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markFireConsumed(tx: Queryable, id: number, at: Date): Promise<void> {
  await tx.update(agentScheduleFires).set({ consumedAt: at }).where(eq(agentScheduleFires.id, id));
}
