// What makes a notification: a message written in a conversation, read as the realtime hub reads it
// (the change feed names it, the conversations face loads it). An `assigned` activity line tells
// the new assignee; a note tells the members it mentions; a customer's message tells the
// conversation's assignee. Every instance that hears a change may derive it (and a sweep re-reads
// the last minutes of change_log for what the feed dropped): the unique cause key makes one
// notification however many try. The recipient must still be a member who may see the
// conversation — an agent only within their chat groups — and never the one who caused it.
import type { TConversation, TMessage, TNotificationType } from '@titan/contracts';
import type { Change, ChangeFeed } from '../../platform/change-feed';
import { findMembershipRole, listMembers } from '../business';
import { loadChangedRow } from '../conversations';
import { scopeFor } from '../../platform/inbox-scope';
import { createNotification, type NotificationDeps, type NotificationDraft } from './notifications.service';
import { pushNotification } from './notifications.push';

const MESSAGE_TABLES = new Set(['messages', 'wa_messages']);
const EXCERPT = 280;

/** A note as people read it: `@[Ann](member:3)` → `@Ann`, trimmed to an excerpt. */
export function excerpt(text: string): string {
  const plain = text
    .replace(/@\[([^\]\n]{1,200})\]\(member:\d{1,18}\)/g, '@$1')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > EXCERPT ? `${plain.slice(0, EXCERPT - 1)}…` : plain;
}

const quoted = (title: string) => `“${title.trim() || 'Conversation'}”`;

/** Whether this change may make notifications (cheap: before anything is loaded). */
export const concernsNotifications = (change: Pick<Change, 'table' | 'op'>) =>
  change.op === 'INSERT' && MESSAGE_TABLES.has(change.table);

/** The notifications a message makes, before anyone's rights are checked. */
export function draftsFor(
  businessId: number,
  conversation: TConversation,
  message: TMessage,
): NotificationDraft[] {
  const source = `${message.message_type}:${conversation.id}:${message.id}`;
  const base = { businessId, conversationId: conversation.id, sourceKey: source };
  const meta = message.meta_data;
  const sender = message.sender;
  const drafts: NotificationDraft[] = [];
  const add = (
    userId: number,
    type: TNotificationType,
    d: Pick<NotificationDraft, 'actor' | 'title' | 'body'>,
  ) => {
    if (d.actor?.id !== userId) drafts.push({ ...base, userId, type, ...d });
  };
  if (message.message_type === 'note' && message.sender_type === 'staff') {
    const mentions = Array.isArray(meta.mentions) ? meta.mentions.filter((m) => typeof m === 'number') : [];
    const actor =
      sender && typeof sender.id === 'number' ? { id: sender.id, name: sender.name ?? 'Someone' } : null;
    for (const id of mentions as number[]) {
      add(id, 'mentioned', {
        actor,
        title: `${actor?.name ?? 'Someone'} mentioned you in ${quoted(conversation.title)}`,
        body: excerpt(message.content),
      });
    }
  } else if (message.message_type === 'activity' && meta.action === 'assigned') {
    const assignee = meta.assignee as { id?: unknown } | null;
    const actorMeta = meta.actor as { id?: unknown; name?: unknown } | null;
    const actor =
      actorMeta && typeof actorMeta.id === 'number'
        ? { id: actorMeta.id, name: String(actorMeta.name ?? 'Someone') }
        : null;
    if (assignee && typeof assignee.id === 'number') {
      add(assignee.id, 'assigned', {
        actor,
        title: `${actor?.name ?? 'Titan'} assigned you ${quoted(conversation.title)}`,
        body: '',
      });
    }
  } else if (
    message.sender_type === 'customer' &&
    (message.message_type === 'text' || message.message_type === 'file') &&
    conversation.assignee
  ) {
    const who = sender?.name ?? conversation.initiator?.name ?? 'A customer';
    add(conversation.assignee.id, 'new_message', {
      actor: null,
      title: `New message from ${who} in ${quoted(conversation.title)}`,
      body: excerpt(message.content),
    });
  }
  return drafts;
}

/**
 * A missed SLA target tells the conversation's assignee; a conversation nobody holds tells the
 * business's owners and admins.
 */
export async function slaBreachDrafts(
  deps: Pick<NotificationDeps, 'db'>,
  businessId: number,
  conversation: TConversation,
  message: TMessage,
): Promise<NotificationDraft[]> {
  const target = message.meta_data.target === 'resolution' ? 'resolution' : 'first response';
  const recipients = conversation.assignee
    ? [conversation.assignee.id]
    : (await listMembers(deps.db, businessId))
        .filter((m) => m.role === 'owner' || m.role === 'admin')
        .map((m) => m.userId);
  return recipients.map((userId) => ({
    businessId,
    conversationId: conversation.id,
    sourceKey: `sla:${conversation.id}:${message.id}`,
    userId,
    type: 'sla_breach' as const,
    actor: null,
    title: `The ${target} target was missed in ${quoted(conversation.title)}`,
    body: message.content,
  }));
}

/** Whether this member may see this conversation now (the inbox's own scope rules). */
export async function memberSees(
  deps: Pick<NotificationDeps, 'db'>,
  businessId: number,
  userId: number,
  conversation: Pick<TConversation, 'assigned_chat_group'>,
): Promise<boolean> {
  const role = await findMembershipRole(deps.db, businessId, userId);
  if (!role) return false;
  const { groupIds } = await scopeFor(deps.db, businessId, role, userId);
  const group = conversation.assigned_chat_group;
  return groupIds === null || group === null || groupIds.includes(group.id);
}

/** Derives, makes and pushes the notifications of one change; how many it made. */
export async function deriveFromChange(deps: NotificationDeps, change: Change): Promise<number> {
  if (!concernsNotifications(change) || change.id === null) return 0;
  const businessId = change.business_id === null ? undefined : Number(change.business_id);
  const loaded = await loadChangedRow(deps.inbox, change.table, change.id, businessId);
  if (!loaded) return 0;
  const message = loaded.row as TMessage;
  // Cheap refusals before the conversation is read.
  const interesting =
    message.message_type === 'note'
      ? Array.isArray(message.meta_data.mentions) && message.meta_data.mentions.length > 0
      : message.message_type === 'activity'
        ? message.meta_data.action === 'assigned' || message.meta_data.action === 'sla_breached'
        : message.sender_type === 'customer';
  if (!interesting) return 0;
  const conv = await loadChangedRow(deps.inbox, 'conversations', String(loaded.conversationId));
  if (!conv || conv.businessId !== loaded.businessId) return 0;
  const conversation = conv.row as TConversation;
  let made = 0;
  const drafts =
    message.message_type === 'activity' && message.meta_data.action === 'sla_breached'
      ? await slaBreachDrafts(deps, loaded.businessId, conversation, message)
      : draftsFor(loaded.businessId, conversation, message);
  for (const draft of drafts) {
    if (!(await memberSees(deps, draft.businessId, draft.userId, conversation))) continue;
    const created = await createNotification(deps.db, draft);
    if (!created) continue;
    made++;
    // Not awaited: a slow push service must not hold up the next change's notifications.
    if (created.push)
      void pushNotification(deps, created.row).catch((err: unknown) =>
        deps.logger.warn({ err, notification: created.row.id }, 'push not sent'),
      );
  }
  return made;
}

/**
 * Listens to the change feed on this instance: each message change is derived as it is heard (one
 * at a time, in order; a failure is logged). On start, and whenever the feed says announcements may
 * have been missed (a dropped connection), the last minutes of change_log are derived again.
 */
export function attachNotificationFeed(
  deps: NotificationDeps,
  feed: Pick<ChangeFeed, 'subscribe' | 'onReset'>,
  catchUp: (deps: NotificationDeps) => Promise<unknown>,
): () => void {
  let chain = Promise.resolve();
  const run = (work: () => Promise<unknown>, what: object) => {
    chain = chain.then(work).then(
      () => undefined,
      (err: unknown) => deps.logger.warn({ err, ...what }, 'notifications not derived'),
    );
  };
  const unsubscribe = feed.subscribe((change) => {
    if (concernsNotifications(change))
      run(() => deriveFromChange(deps, change), { table: change.table, id: change.id });
  });
  const unReset = feed.onReset(() => run(() => catchUp(deps), { catchUp: true }));
  run(() => catchUp(deps), { catchUp: true });
  return () => {
    unsubscribe();
    unReset();
  };
}
