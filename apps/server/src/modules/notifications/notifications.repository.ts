// The notifications module's tables: notifications, notification_preferences, push_subscriptions,
// web_push_keys. Nothing else writes them.
import { and, desc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { TNotificationType } from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { recordset, rowsOf } from '../../db/sql';
import {
  notificationDerivations,
  notificationPreferences,
  notifications,
  pushSubscriptions,
  webPushKeys,
} from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;
export type PreferenceRow = typeof notificationPreferences.$inferSelect;
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

const member = (businessId: number, userId: number) =>
  and(eq(notifications.businessId, businessId), eq(notifications.userId, userId));

/** A timestamp as either driver answers it in hand-written SQL (a Date, or PostgreSQL's text). */
const dateOf = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

/** One notification to make, with its type's channels as they are when the member stored none. */
export type NotificationToMake = Omit<
  NewNotification,
  'id' | 'inApp' | 'emailClaimedAt' | 'readAt' | 'pushedAt'
> & {
  defaults: { inApp: boolean; push: boolean; email: boolean };
};

/** A notification made, whether its member wants it pushed, and whether they have a browser to push to. */
export type MadeNotification = { row: NotificationRow; push: boolean; reachable: boolean };

/**
 * Makes a batch of notifications in one statement (no transaction around several), the rows
 * travelling as one jsonb parameter:
 * - each member's stored preference for the type (else the defaults given) decides whether it is
 *   made at all (some channel on), whether it shows in the bell (`in_app`) and whether it is mailed
 *   (`email_claimed_at` set at once when not);
 * - one the member already has for this cause (type and source key) is passed by;
 * - the new bell ones are logged and announced on the realtime topic (`announce`: the platform's
 *   change_log CTEs), and the derivation claims `done` (notification_derivations) marked done, in the
 *   same statement: either all of it happens or none.
 * Answers the rows made, each with its member's push choice and whether they have a live push
 * subscription (a browser whose sign-in still stands: liveSubscriptionsOf's rule).
 */
export async function makeNotifications(
  db: Queryable,
  drafts: readonly NotificationToMake[],
  announce: (source: SQL) => SQL,
  done: readonly number[],
): Promise<MadeNotification[]> {
  const rows = await rowsOf<{
    id: number;
    business_id: number;
    user_id: number;
    type: NotificationRow['type'];
    conversation_id: number | null;
    source_key: string;
    actor_id: number | null;
    actor_name: string | null;
    title: string;
    body: string;
    in_app: boolean;
    read_at: Date | string | null;
    email_claimed_at: Date | string | null;
    pushed_at: Date | string | null;
    created_at: Date | string;
    push: boolean;
    reachable: boolean;
  }>(
    db,
    sql`with v as (
        select distinct on (v.business_id, v.user_id, v.type, v.source_key) v.*,
          coalesce(p.in_app, v.d_in_app) as in_app, coalesce(p.push, v.d_push) as push,
          coalesce(p.email, v.d_email) as email
        from jsonb_to_recordset(${recordset(
          drafts.map((d) => ({
            business_id: d.businessId,
            user_id: d.userId,
            type: d.type,
            conversation_id: d.conversationId ?? null,
            source_key: d.sourceKey,
            actor_id: d.actorId ?? null,
            actor_name: d.actorName ?? null,
            title: d.title,
            body: d.body ?? '',
            d_in_app: d.defaults.inApp,
            d_push: d.defaults.push,
            d_email: d.defaults.email,
          })),
        )}) as v(business_id bigint, user_id bigint, type text, conversation_id bigint, source_key text,
          actor_id bigint, actor_name text, title text, body text, d_in_app boolean, d_push boolean,
          d_email boolean)
        left join notification_preferences p
          on p.business_id = v.business_id and p.user_id = v.user_id and p.type = v.type
        order by v.business_id, v.user_id, v.type, v.source_key
      ), made as (
        insert into notifications (business_id, user_id, type, conversation_id, source_key, actor_id,
          actor_name, title, body, in_app, email_claimed_at)
        select business_id, user_id, type, conversation_id, source_key, actor_id, actor_name, title, body,
          in_app, case when email then null else now() end
        from v where in_app or push or email
        on conflict do nothing
        returning *
      ), ${announce(sql`select business_id, id::text as row_id from made where in_app`)}, done as (
        update notification_derivations set done_at = now()
        where seq = any(${sql.param([...done])}::bigint[])
      )
      select m.id::float8 as id, m.business_id::float8 as business_id, m.user_id::float8 as user_id, m.type,
        m.conversation_id::float8 as conversation_id, m.source_key, m.actor_id::float8 as actor_id,
        m.actor_name, m.title, m.body, m.in_app, m.read_at, m.email_claimed_at, m.pushed_at, m.created_at,
        v.push,
        v.push and exists (
          select 1 from push_subscriptions ps join sessions s on s.id = ps.session_id
          where ps.business_id = m.business_id and ps.user_id = m.user_id
            and s.revoked_at is null and s.expires_at > now()
        ) as reachable,
        (select n from announced) as announced
      from made m
      join v on v.business_id = m.business_id and v.user_id = m.user_id and v.type = m.type
        and v.source_key = m.source_key`,
  );
  return rows.map((r) => ({
    row: {
      id: Number(r.id),
      businessId: Number(r.business_id),
      userId: Number(r.user_id),
      type: r.type,
      conversationId: r.conversation_id === null ? null : Number(r.conversation_id),
      sourceKey: r.source_key,
      actorId: r.actor_id === null ? null : Number(r.actor_id),
      actorName: r.actor_name,
      title: r.title,
      body: r.body,
      inApp: r.in_app,
      readAt: dateOf(r.read_at),
      emailClaimedAt: dateOf(r.email_claimed_at),
      pushedAt: dateOf(r.pushed_at),
      createdAt: new Date(r.created_at),
    },
    push: r.push,
    reachable: r.reachable,
  }));
}

export async function findNotification(db: Queryable, id: number): Promise<NotificationRow | null> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id)).limit(1);
  return row ?? null;
}

export async function listNotifications(
  db: Db,
  businessId: number,
  userId: number,
  opts: { unread?: boolean; limit: number; offset: number },
): Promise<{ rows: NotificationRow[]; count: number }> {
  const where = and(
    member(businessId, userId),
    eq(notifications.inApp, true),
    opts.unread === true ? isNull(notifications.readAt) : undefined,
    opts.unread === false ? sql`${notifications.readAt} is not null` : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function countUnread(db: Queryable, businessId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(member(businessId, userId), eq(notifications.inApp, true), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Of these ids, those that are this member's. */
export async function ownIds(
  db: Queryable,
  businessId: number,
  userId: number,
  ids: number[],
): Promise<number[]> {
  const rows = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(member(businessId, userId), inArray(notifications.id, ids)));
  return rows.map((r) => r.id);
}

/** Marks read (those not read yet); the ids it changed. */
export async function markRead(
  db: Queryable,
  businessId: number,
  userId: number,
  ids: number[] | 'all',
): Promise<number[]> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(
      and(
        member(businessId, userId),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids),
      ),
    )
    .returning({ id: notifications.id });
  return rows.map((r) => r.id);
}

export async function markPushed(db: Queryable, id: number): Promise<void> {
  await db.update(notifications).set({ pushedAt: new Date() }).where(eq(notifications.id, id));
}

/**
 * Claims the notifications unread since before `before` whose email is not claimed yet, oldest
 * first: one statement that sets `email_claimed_at`, skipping rows another instance is claiming.
 * Whoever claims a row sends its email; nobody else ever will.
 */
export async function claimUnreadForEmail(
  db: Queryable,
  before: Date,
  limit: number,
): Promise<NotificationRow[]> {
  const claimed = await rowsOf<{ id: string }>(
    db,
    sql`
      update notifications n set email_claimed_at = now()
      from (
        select id from notifications
        where read_at is null and email_claimed_at is null and created_at <= ${before.toISOString()}::timestamptz
        order by created_at, id
        limit ${limit}
        for update skip locked
      ) due
      where n.id = due.id
      returning n.id::text as id`,
  );
  if (claimed.length === 0) return [];
  return db
    .select()
    .from(notifications)
    .where(
      inArray(
        notifications.id,
        claimed.map((r) => Number(r.id)),
      ),
    )
    .orderBy(notifications.createdAt, notifications.id);
}

/** findPreferences for several members of a business at once. */
export async function findPreferencesOf(
  db: Queryable,
  businessId: number,
  userIds: readonly number[],
): Promise<PreferenceRow[]> {
  if (userIds.length === 0) return [];
  return db
    .select()
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.businessId, businessId),
        sql`${notificationPreferences.userId} = any(${sql.param([...userIds])}::bigint[])`,
      ),
    );
}

export async function findPreferences(
  db: Queryable,
  businessId: number,
  userId: number,
): Promise<PreferenceRow[]> {
  return db
    .select()
    .from(notificationPreferences)
    .where(
      and(eq(notificationPreferences.businessId, businessId), eq(notificationPreferences.userId, userId)),
    );
}

export async function upsertPreferences(
  db: Queryable,
  businessId: number,
  userId: number,
  rows: { type: TNotificationType; inApp: boolean; push: boolean; email: boolean }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(notificationPreferences)
    .values(rows.map((r) => ({ ...r, businessId, userId })))
    .onConflictDoUpdate({
      target: [
        notificationPreferences.businessId,
        notificationPreferences.userId,
        notificationPreferences.type,
      ],
      set: {
        inApp: sql`excluded.in_app`,
        push: sql`excluded.push`,
        email: sql`excluded.email`,
        updatedAt: sql`now()`,
      },
    });
}

/** Saves a browser's subscription for this member and sign-in (the same endpoint again replaces it). */
export async function upsertPushSubscription(
  db: Queryable,
  values: typeof pushSubscriptions.$inferInsert,
): Promise<PushSubscriptionRow> {
  const [row] = await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: [pushSubscriptions.businessId, pushSubscriptions.endpoint],
      set: {
        userId: values.userId,
        sessionId: values.sessionId,
        p256dh: values.p256dh,
        auth: values.auth,
        userAgent: values.userAgent ?? null,
        createdAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function listPushSubscriptions(db: Queryable, businessId: number, userId: number) {
  return db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.businessId, businessId), eq(pushSubscriptions.userId, userId)))
    .orderBy(pushSubscriptions.id);
}

/**
 * The members' subscriptions whose sign-in still stands (not revoked, not expired): a browser
 * signed out of never receives a push. Reads `sessions` (auth's table) in the same statement; one
 * statement for a batch's recipients.
 */
export async function liveSubscriptionsOf(
  db: Queryable,
  members: readonly { businessId: number; userId: number }[],
): Promise<
  { businessId: number; userId: number; id: number; endpoint: string; p256dh: string; auth: string }[]
> {
  if (members.length === 0) return [];
  const rows = await rowsOf<{
    business_id: string | number;
    user_id: string | number;
    id: number;
    endpoint: string;
    p256dh: string;
    auth: string;
  }>(
    db,
    sql`
      select p.business_id, p.user_id, p.id::float8 as id, p.endpoint, p.p256dh, p.auth
      from push_subscriptions p
      join sessions s on s.id = p.session_id
      join unnest(${sql.param(members.map((m) => m.businessId))}::bigint[],
        ${sql.param(members.map((m) => m.userId))}::bigint[]) as w(business_id, user_id)
        on w.business_id = p.business_id and w.user_id = p.user_id
      where s.revoked_at is null and s.expires_at > now()
      order by p.id`,
  );
  return rows.map((r) => ({
    businessId: Number(r.business_id),
    userId: Number(r.user_id),
    id: Number(r.id),
    endpoint: r.endpoint,
    p256dh: r.p256dh,
    auth: r.auth,
  }));
}

export async function deletePushSubscription(
  db: Queryable,
  where: { businessId: number; userId?: number; endpoint?: string; id?: number },
): Promise<number> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.businessId, where.businessId),
        where.userId !== undefined ? eq(pushSubscriptions.userId, where.userId) : undefined,
        where.endpoint !== undefined ? eq(pushSubscriptions.endpoint, where.endpoint) : undefined,
        where.id !== undefined ? eq(pushSubscriptions.id, where.id) : undefined,
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return rows.length;
}

/** Removes the subscriptions of sign-ins that ended (logout, revocation, expiry). */
export async function deleteEndedSubscriptions(db: Queryable): Promise<number> {
  const gone = await rowsOf(
    db,
    sql`
      delete from push_subscriptions p using sessions s
      where s.id = p.session_id and (s.revoked_at is not null or s.expires_at <= now())
      returning p.id`,
  );
  return gone.length;
}

export async function findWebPushKeys(db: Queryable) {
  const [row] = await db.select().from(webPushKeys).where(eq(webPushKeys.id, 1)).limit(1);
  return row ?? null;
}

/** Stores a key pair unless one is there already (two instances: the first wins, both read it). */
export async function insertWebPushKeys(db: Queryable, publicKey: string, privateKeySealed: string) {
  await db.insert(webPushKeys).values({ id: 1, publicKey, privateKeySealed }).onConflictDoNothing();
}

export async function pruneReadNotifications(db: Queryable, olderThan: Date): Promise<void> {
  await db.delete(notifications).where(lt(notifications.readAt, olderThan));
}

/**
 * Claims message changes (their change_log seqs) for this instance to derive, for `leaseMs`: those
 * nobody claimed yet, and those whose claim lapsed undone (its instance died mid-batch). Answers the
 * seqs claimed; one statement. In seq order, so two instances claiming overlapping batches wait on
 * each other in one order (never a deadlock); the second finds them claimed.
 */
export async function claimDerivations(
  db: Queryable,
  seqs: readonly number[],
  leaseMs: number,
): Promise<Set<number>> {
  if (seqs.length === 0) return new Set();
  const rows = await rowsOf<{ seq: string | number }>(
    db,
    sql`insert into notification_derivations (seq, lease_until)
      select s, now() + ${sql.param(leaseMs)} * interval '1 millisecond'
      from unnest(${sql.param([...new Set(seqs)].sort((a, b) => a - b))}::bigint[]) as s order by s
      on conflict (seq) do update set lease_until = excluded.lease_until
        where notification_derivations.done_at is null and notification_derivations.lease_until < now()
      returning seq`,
  );
  return new Set(rows.map((r) => Number(r.seq)));
}

/** The claimed changes' notifications are made: nobody derives them again. */
export async function markDerived(db: Queryable, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.execute(
    sql`update notification_derivations set done_at = now()
      where seq = any(${sql.param([...seqs])}::bigint[])`,
  );
}

/** Claims whose lease lapsed undone, oldest first: their changes wait to be derived again. */
export async function lapsedDerivations(db: Queryable, limit: number): Promise<number[]> {
  const rows = await db
    .select({ seq: notificationDerivations.seq })
    .from(notificationDerivations)
    .where(and(isNull(notificationDerivations.doneAt), lt(notificationDerivations.leaseUntil, sql`now()`)))
    .orderBy(notificationDerivations.seq)
    .limit(limit);
  return rows.map((r) => Number(r.seq));
}

/** Forgets the claims of changes change_log no longer holds (older than its oldest seq). */
export async function pruneDerivations(db: Queryable, beforeSeq: number): Promise<void> {
  await db.delete(notificationDerivations).where(lt(notificationDerivations.seq, beforeSeq));
}
