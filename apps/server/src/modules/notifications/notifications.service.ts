// A member's notifications: made from what happens in the inbox (notifications.derive.ts), listed
// and marked read, announced on the `notifications` realtime topic, pushed to the member's
// browsers (notifications.push.ts) and mailed when they stay unread (notifications.email.ts).
import type {
  TNotification,
  TNotificationListQuery,
  TNotificationPage,
  TNotificationPreferences,
  TNotificationPreferencesUpdate,
  TNotificationReadRequest,
  TNotificationType,
} from '@titan/contracts';
import { DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_ERRORS, NOTIFICATION_TYPES } from '@titan/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { announceChange, announceChangesCte } from '../../platform/realtime/change-log.repository';
import type { OutboundDeps } from '../../platform/safe-fetch';
import type { InboxDeps } from '../conversations';
import * as repo from './notifications.repository';

/** The table name the realtime topic hears (announced by this module, no trigger). */
export const NOTIFICATIONS_TABLE = 'notifications';

export type NotificationDeps = {
  db: Db;
  secrets: SecretBox;
  mailer: Mailer;
  logger: Logger;
  config: Pick<Config, 'PUBLIC_URL' | 'MAIL_FROM'>;
  /** How pushes leave: through the outbound SSRF gate (platform/safe-fetch). */
  outbound: OutboundDeps;
  /** Reads conversations and messages through the conversations face. */
  inbox: InboxDeps;
  /** How long a notification stays unread before it is mailed (15 minutes). */
  emailAfterMs: number;
  /** Replaces the network for pushes (tests); the guarded fetch otherwise. */
  fetch?: typeof fetch;
};

export function toNotification(row: repo.NotificationRow): TNotification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    conversation_id: row.conversationId,
    actor: row.actorId !== null && row.actorName !== null ? { id: row.actorId, name: row.actorName } : null,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listNotifications(
  db: Db,
  businessId: number,
  userId: number,
  query: TNotificationListQuery,
): Promise<TNotificationPage> {
  const { page, page_size: pageSize } = query;
  const [{ rows, count }, unread] = await Promise.all([
    repo.listNotifications(db, businessId, userId, {
      unread: query.unread,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    }),
    repo.countUnread(db, businessId, userId),
  ]);
  return {
    count,
    next: page * pageSize < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results: rows.map(toNotification),
    unread_count: unread,
  };
}

/** Marks the member's notifications read: the ids named (all theirs, else 404 naming `ids`) or all. */
export async function markRead(
  db: Db,
  businessId: number,
  userId: number,
  input: TNotificationReadRequest,
): Promise<{ updated: number; unread_count: number }> {
  const updated = await db.transaction(async (tx) => {
    if (input.ids) {
      const wanted = [...new Set(input.ids)];
      const own = await repo.ownIds(tx, businessId, userId, wanted);
      if (own.length !== wanted.length) {
        throw new AppError('not_found', NOTIFICATION_ERRORS.unknownIds, {
          ids: [NOTIFICATION_ERRORS.unknownIds],
        });
      }
    }
    const changed = await repo.markRead(tx, businessId, userId, input.ids ? [...new Set(input.ids)] : 'all');
    // Each change is news to the member's other tabs (the bell's count, the list).
    for (const id of changed) {
      await announceChange(tx, { businessId, table: NOTIFICATIONS_TABLE, op: 'UPDATE', rowId: String(id) });
    }
    return changed.length;
  });
  return { updated, unread_count: await repo.countUnread(db, businessId, userId) };
}

export async function getPreferences(
  db: Queryable,
  businessId: number,
  userId: number,
): Promise<TNotificationPreferences> {
  return preferencesFrom(await repo.findPreferences(db, businessId, userId));
}

/** A member's preferences from their stored rows (a type without a row keeps its default). */
function preferencesFrom(rows: readonly repo.PreferenceRow[]): TNotificationPreferences {
  const prefs = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  for (const r of rows) prefs[r.type] = { in_app: r.inApp, push: r.push, email: r.email };
  return prefs;
}

export async function updatePreferences(
  db: Db,
  businessId: number,
  userId: number,
  input: TNotificationPreferencesUpdate,
): Promise<TNotificationPreferences> {
  const rows = NOTIFICATION_TYPES.flatMap((type) => {
    const p = input[type];
    return p ? [{ type, inApp: p.in_app, push: p.push, email: p.email }] : [];
  });
  await repo.upsertPreferences(db, businessId, userId, rows);
  return getPreferences(db, businessId, userId);
}

/** One notification to make: whom, why, about what. */
export type NotificationDraft = {
  businessId: number;
  userId: number;
  type: TNotificationType;
  conversationId: number | null;
  sourceKey: string;
  actor: { id: number; name: string } | null;
  title: string;
  body: string;
};

/**
 * Makes the drafts' notifications (the feed's batches) unless the member has one already (one per
 * member, type and cause, however many instances try) or turned every channel of its type off: one
 * statement (repo.makeNotifications) reads the members' preferences, inserts the new rows, announces
 * them on the realtime topic and marks the derivation claims `done` done. Answers the rows made; the
 * caller pushes those with `push` whose member is `reachable` (has a live browser subscription).
 */
export async function createNotifications(
  db: Db,
  drafts: readonly NotificationDraft[],
  done: readonly number[] = [],
): Promise<repo.MadeNotification[]> {
  if (drafts.length === 0) {
    await repo.markDerived(db, done);
    return [];
  }
  return repo.makeNotifications(
    db,
    drafts.map((draft) => {
      const defaults = DEFAULT_NOTIFICATION_PREFERENCES[draft.type];
      return {
        businessId: draft.businessId,
        userId: draft.userId,
        type: draft.type,
        conversationId: draft.conversationId,
        sourceKey: draft.sourceKey,
        actorId: draft.actor?.id ?? null,
        actorName: draft.actor?.name ?? null,
        title: draft.title,
        body: draft.body,
        defaults: { inApp: defaults.in_app, push: defaults.push, email: defaults.email },
      };
    }),
    (source) => announceChangesCte(NOTIFICATIONS_TABLE, 'INSERT', source),
    done,
  );
}

export async function loadNotification(db: Db, id: string): Promise<repo.NotificationRow | null> {
  const n = Number(id);
  return Number.isSafeInteger(n) && n > 0 ? repo.findNotification(db, n) : null;
}

export const unreadCount = repo.countUnread;

export async function pruneNotifications(db: Db, olderThan: Date): Promise<void> {
  await repo.pruneReadNotifications(db, olderThan);
}
