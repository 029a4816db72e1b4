// The only code that touches `campaigns` and `campaign_recipients`.
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { campaignRecipients, campaigns } from '../../db/schema';
import { recordset, rowsOf } from '../../db/sql';

export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaign = typeof campaigns.$inferInsert;
export type RecipientRow = typeof campaignRecipients.$inferSelect;

export async function insertCampaign(db: Queryable, values: NewCampaign): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();
  return row!;
}

export async function findCampaign(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<CampaignRow | null> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.businessId, businessId), eq(campaigns.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findCampaignById(db: Queryable, id: string): Promise<CampaignRow | null> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  return row ?? null;
}

export async function listCampaigns(
  db: Queryable,
  businessId: number,
  filter: { status?: CampaignRow['status']; search?: string },
  limit: number,
  offset: number,
): Promise<{ rows: CampaignRow[]; count: number }> {
  const where: SQL[] = [eq(campaigns.businessId, businessId)];
  if (filter.status) where.push(eq(campaigns.status, filter.status));
  if (filter.search) where.push(ilike(campaigns.name, `%${filter.search.replace(/[%_\\]/g, '\\$&')}%`));
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(...where))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db
    .select({ n: count() })
    .from(campaigns)
    .where(and(...where));
  return { rows, count: Number(total?.n ?? 0) };
}

/** Changes a campaign while its status is one of `from`; null when it is not (someone moved it). */
export async function updateWhen(
  db: Queryable,
  id: string,
  from: CampaignRow['status'][],
  values: Partial<NewCampaign>,
): Promise<CampaignRow | null> {
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(campaigns.id, id), inArray(campaigns.status, from)))
    .returning();
  return row ?? null;
}

/**
 * Swaps a sending campaign's broadcasts for `next` only if they are still `expected`: two passes
 * opening a variant's broadcast at once cannot both win (the loser's is closed unused).
 */
export async function swapBroadcasts(
  db: Queryable,
  id: string,
  expected: CampaignRow['broadcasts'],
  next: CampaignRow['broadcasts'],
): Promise<boolean> {
  const rows = await db
    .update(campaigns)
    .set({ broadcasts: next, updatedAt: new Date() })
    .where(
      and(
        eq(campaigns.id, id),
        eq(campaigns.status, 'sending'),
        sql`${campaigns.broadcasts} = ${JSON.stringify(expected)}::jsonb`,
      ),
    )
    .returning({ id: campaigns.id });
  return rows.length === 1;
}

/**
 * Marks a sending campaign prepared, once: false when another pass prepared it first (its counts of
 * who was passed over are already there).
 */
export async function markPrepared(db: Queryable, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(campaigns)
    .set({ preparedAt: at, updatedAt: new Date() })
    .where(and(eq(campaigns.id, id), eq(campaigns.status, 'sending'), isNull(campaigns.preparedAt)))
    .returning({ id: campaigns.id });
  return rows.length === 1;
}

export async function deleteDraft(db: Queryable, businessId: number, id: string): Promise<boolean> {
  const rows = await db
    .delete(campaigns)
    .where(and(eq(campaigns.businessId, businessId), eq(campaigns.id, id), eq(campaigns.status, 'draft')))
    .returning({ id: campaigns.id });
  return rows.length === 1;
}

/** Adds passed-over counts to the campaign's, by reason. */
export async function addSkipped(db: Queryable, id: string, skipped: Record<string, number>): Promise<void> {
  const entries = Object.entries(skipped).filter(([, n]) => n > 0);
  if (entries.length === 0) return;
  let reasons = sql`${campaigns.skippedReasons}`;
  for (const [reason, n] of entries)
    reasons = sql`jsonb_set(${reasons}, ${`{${reason}}`}::text[], to_jsonb(coalesce((${reasons} ->> ${reason})::int, 0) + ${n}::int))`;
  await db.update(campaigns).set({ skippedReasons: reasons }).where(eq(campaigns.id, id));
}

export async function heartbeat(db: Queryable, id: string, at: Date): Promise<void> {
  await db.update(campaigns).set({ heartbeatAt: at }).where(eq(campaigns.id, id));
}

/** Campaigns that are scheduled or sending (the sweep hands each to the sender). */
export async function findActive(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(inArray(campaigns.status, ['scheduled', 'sending']))
    .orderBy(asc(campaigns.heartbeatAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

// ---- Recipients ----

/** Recipients fixed for a campaign; one already there (a preparation run again) is left. */
export async function insertRecipients(
  db: Queryable,
  rows: {
    campaignId: string;
    customerId: number;
    variant: number | null;
    state: 'pending' | 'waiting';
    dueAt: Date;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(campaignRecipients).values(rows).onConflictDoNothing();
}

/**
 * Due recipients (pending, due by `now`), the earliest first, locked so two passes never take the
 * same; at most `limit`.
 */
export async function dueRecipients(
  db: Queryable,
  campaignId: string,
  now: Date,
  limit: number,
): Promise<{ customerId: number; variant: number | null }[]> {
  if (limit <= 0) return [];
  return db
    .select({ customerId: campaignRecipients.customerId, variant: campaignRecipients.variant })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        eq(campaignRecipients.state, 'pending'),
        lte(campaignRecipients.dueAt, now),
      ),
    )
    .orderBy(asc(campaignRecipients.dueAt), asc(campaignRecipients.customerId))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Recipients whose sends were just recorded under `broadcastId` (in the same transaction). */
export async function markRecorded(
  db: Queryable,
  campaignId: string,
  customerIds: number[],
  broadcastId: string,
  at: Date,
): Promise<number> {
  if (customerIds.length === 0) return 0;
  const rows = await db
    .update(campaignRecipients)
    .set({ state: 'recorded', broadcastId, recordedAt: at })
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        inArray(campaignRecipients.customerId, customerIds),
        eq(campaignRecipients.state, 'pending'),
      ),
    )
    .returning({ id: campaignRecipients.customerId });
  return rows.length;
}

/**
 * Due recipients given no send (the business's frequency cap stopped them), each with the reason
 * the report shows; in the transaction that records the batch's other sends. Answers how many
 * were still pending (fewer: another pass took some meanwhile).
 */
export async function markSkipped(
  db: Queryable,
  campaignId: string,
  skipped: { customerId: number; reason: string }[],
): Promise<number> {
  if (skipped.length === 0) return 0;
  const values = skipped.map((x) => ({ customer_id: x.customerId, reason: x.reason }));
  const rows = await rowsOf<{ customer_id: string }>(
    db,
    sql`update campaign_recipients r set state = 'skipped', skip_reason = v.reason
          from jsonb_to_recordset(${recordset(values)}) as v(customer_id bigint, reason text)
         where r.campaign_id = ${campaignId} and r.customer_id = v.customer_id and r.state = 'pending'
        returning r.customer_id`,
  );
  return rows.length;
}

/** Recipients whose send was cancelled before any sender took it (a pause): due again. */
export async function backToPending(db: Queryable, campaignId: string, customerIds: number[]): Promise<void> {
  for (let i = 0; i < customerIds.length; i += 5000) {
    await db
      .update(campaignRecipients)
      .set({ state: 'pending', broadcastId: null, recordedAt: null })
      .where(
        and(
          eq(campaignRecipients.campaignId, campaignId),
          inArray(campaignRecipients.customerId, customerIds.slice(i, i + 5000)),
        ),
      );
  }
}

/** Sends recorded in the hour before `now` (the throttle), and the oldest of them. */
export async function recordedSince(
  db: Queryable,
  campaignId: string,
  since: Date,
): Promise<{ n: number; oldest: Date | null }> {
  const [row] = await db
    .select({ n: count(), oldest: sql<string | null>`min(${campaignRecipients.recordedAt})` })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaignId), gt(campaignRecipients.recordedAt, since)));
  return { n: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** Recipients by state, and the next due time of the pending. */
export async function recipientCounts(
  db: Queryable,
  campaignId: string,
): Promise<{
  total: number;
  pending: number;
  waiting: number;
  recorded: number;
  skipped: number;
  nextDue: Date | null;
}> {
  const [row] = await db
    .select({
      total: count(),
      pending: sql<number>`count(*) filter (where ${campaignRecipients.state} = 'pending')::int`,
      waiting: sql<number>`count(*) filter (where ${campaignRecipients.state} = 'waiting')::int`,
      recorded: sql<number>`count(*) filter (where ${campaignRecipients.state} = 'recorded')::int`,
      skipped: sql<number>`count(*) filter (where ${campaignRecipients.state} = 'skipped')::int`,
      nextDue: sql<
        string | null
      >`min(${campaignRecipients.dueAt}) filter (where ${campaignRecipients.state} = 'pending')`,
    })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));
  return {
    total: Number(row?.total ?? 0),
    pending: Number(row?.pending ?? 0),
    waiting: Number(row?.waiting ?? 0),
    recorded: Number(row?.recorded ?? 0),
    skipped: Number(row?.skipped ?? 0),
    nextDue: row?.nextDue ? new Date(row.nextDue) : null,
  };
}

/** The A/B rest gets the winner, due at `at`. */
export async function assignRest(db: Queryable, campaignId: string, winner: number, at: Date): Promise<void> {
  await db
    .update(campaignRecipients)
    .set({ state: 'pending', variant: winner, dueAt: at })
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.state, 'waiting')));
}

/** Recorded recipients per variant (the A/B rates' denominators). */
export async function recordedByVariant(db: Queryable, campaignId: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ variant: campaignRecipients.variant, n: count() })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.state, 'recorded')))
    .groupBy(campaignRecipients.variant);
  return new Map(rows.filter((r) => r.variant !== null).map((r) => [Number(r.variant), Number(r.n)]));
}

export async function recipientsPage(
  db: Queryable,
  campaignId: string,
  limit: number,
  offset: number,
): Promise<RecipientRow[]> {
  return db
    .select()
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId))
    .orderBy(asc(campaignRecipients.customerId))
    .limit(limit)
    .offset(offset);
}

/** Every recipient in customer id order after `afterId` (the CSV export). */
export async function recipientsAfter(
  db: Queryable,
  campaignId: string,
  afterId: number,
  limit: number,
): Promise<RecipientRow[]> {
  return db
    .select()
    .from(campaignRecipients)
    .where(
      and(eq(campaignRecipients.campaignId, campaignId), sql`${campaignRecipients.customerId} > ${afterId}`),
    )
    .orderBy(asc(campaignRecipients.customerId))
    .limit(limit);
}
