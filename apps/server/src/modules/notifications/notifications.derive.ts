// What makes a notification: a message written in a conversation, read as the realtime hub reads it
// (the change feed names it, the conversations face loads it). An `assigned` activity line tells
// the new assignee; a note tells the members it mentions; a customer's message tells the
// conversation's assignee. Every instance hears every change; the one that claims its seq first
// (notification_derivations, migration 0097) derives it, the others pass it by. A claim lapsed
// undone (its instance died mid-batch) is taken again by a catch-up (at start, on a feed reset) or
// the minute's sweep, which also re-read change_log for what the feed dropped; the unique cause key
// still makes one notification if two ever derive the same change. The recipient must still be a
// member who may see the conversation — an agent only within their chat groups — and never the one
// who caused it.
import type { TConversation, TMessage, TNotificationType } from '@titan/contracts';
import type { Change, ChangeFeed } from '../../platform/change-feed';
import { findMembershipRole, listMembers } from '../business';
import { type ConversationHead, loadChangedMessages, loadConversationHeads } from '../conversations';
import { memberScopesOf, scopeFor } from '../../platform/inbox-scope';
import { createNotifications, type NotificationDeps, type NotificationDraft } from './notifications.service';
import { pushNotifications } from './notifications.push';
import * as repo from './notifications.repository';

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

/**
 * Whether this change may make notifications (cheap: before anything is loaded): a new message, and
 * where the announcement says what it is (migration 0094), only a note, an assignment or SLA breach
 * line, or a customer's message.
 */
export function concernsNotifications(
  change: Pick<Change, 'table' | 'op' | 'sender_type' | 'message_type' | 'action'>,
): boolean {
  if (change.op !== 'INSERT' || !MESSAGE_TABLES.has(change.table)) return false;
  if (!change.message_type) return true;
  if (change.message_type === 'note') return change.sender_type === 'staff';
  if (change.message_type === 'activity')
    return change.action === 'assigned' || change.action === 'sla_breached';
  return change.sender_type === 'customer';
}

/** The notifications a message makes, before anyone's rights are checked. */
export function draftsFor(
  businessId: number,
  conversation: ConversationHead,
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
  conversation: ConversationHead,
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

/** Whether a loaded message is one that may notify someone (before its conversation is read). */
function mayNotify(message: TMessage): boolean {
  if (message.message_type === 'note')
    return Array.isArray(message.meta_data.mentions) && message.meta_data.mentions.length > 0;
  if (message.message_type === 'activity')
    return message.meta_data.action === 'assigned' || message.meta_data.action === 'sla_breached';
  return message.sender_type === 'customer';
}

/** Derives, makes and pushes the notifications of one change; how many it made. */
export async function deriveFromChange(deps: NotificationDeps, change: Change): Promise<number> {
  return deriveFromChanges(deps, [change]);
}

/**
 * Derives, makes and pushes the notifications of several changes at once: the messages read in one
 * statement per table, their conversations' heads in one, the members' rights once, the notifications
 * made (preferences, insert, announcement) in one, with the derivation claims `done` marked done in
 * it (or alone when nothing is made). How many it made.
 */
export async function deriveFromChanges(
  deps: NotificationDeps,
  changes: readonly Change[],
  done: readonly number[] = [],
): Promise<number> {
  const refs = changes
    .filter((c) => concernsNotifications(c) && c.id !== null)
    .map((c) => ({
      table: c.table as 'messages' | 'wa_messages',
      id: c.id!,
      businessId: c.business_id === null ? undefined : Number(c.business_id),
    }));
  if (refs.length === 0) return (await createNotifications(deps.db, [], done), 0);
  const loaded = await loadChangedMessages(deps.inbox, refs);
  const messages = refs
    .map((r) => loaded.get(`${r.table}:${r.id}`))
    .filter((l): l is NonNullable<typeof l> => l !== undefined && mayNotify(l.row));
  if (messages.length === 0) return (await createNotifications(deps.db, [], done), 0);
  // Their conversations' heads (title, group, assignee, initiator): all a draft and its audience need.
  const conversations = await loadConversationHeads(
    deps.inbox,
    messages.map((m) => m.conversationId),
  );
  const candidates: { draft: NotificationDraft; conversation: ConversationHead }[] = [];
  for (const { businessId, conversationId, row: message } of messages) {
    const conv = conversations.get(conversationId);
    if (!conv || conv.businessId !== businessId) continue;
    const conversation = conv.row;
    const drafts =
      message.message_type === 'activity' && message.meta_data.action === 'sla_breached'
        ? await slaBreachDrafts(deps, businessId, conversation, message)
        : draftsFor(businessId, conversation, message);
    for (const draft of drafts) candidates.push({ draft, conversation });
  }
  // The recipients must still be members who may see the conversation: their roles and chat groups
  // read in one statement per business for the batch.
  const scopes = new Map<number, Map<number, number[] | null>>();
  for (const businessId of new Set(candidates.map((c) => c.draft.businessId))) {
    const userIds = [
      ...new Set(candidates.filter((c) => c.draft.businessId === businessId).map((c) => c.draft.userId)),
    ];
    scopes.set(businessId, await memberScopesOf(deps.db, businessId, userIds));
  }
  const drafts = candidates
    .filter(({ draft, conversation }) => {
      const scope = scopes.get(draft.businessId)?.get(draft.userId);
      if (scope === undefined) return false;
      const group = conversation.assigned_chat_group;
      return scope === null || group === null || scope.includes(group.id);
    })
    .map((c) => c.draft);
  const created = await createNotifications(deps.db, drafts, done);
  // Only members with a browser to push to: most have none, and then nothing more is read.
  const toPush = created.filter((c) => c.push && c.reachable).map((c) => c.row);
  // Not awaited: a slow push service must not hold up the next changes' notifications.
  if (toPush.length > 0)
    void pushNotifications(deps, toPush).catch((err: unknown) =>
      deps.logger.warn({ err, notifications: toPush.length }, 'push not sent'),
    );
  return created.length;
}

/** Changes derived together at most (one read per table, one insert). */
export const DERIVE_BATCH = 200;

/** How long a claim on changes holds while its instance derives them; lapsed undone, another may. */
export const DERIVE_LEASE_MS = 60_000;

/**
 * deriveFromChanges for the changes this instance claims (one statement): those no other instance
 * claimed, or whose claim lapsed undone. Marked done in the statement that makes their
 * notifications; a failure leaves the claim to lapse, for a catch-up or the sweep to take again. How
 * many notifications it made.
 */
export async function deriveClaimed(deps: NotificationDeps, changes: readonly Change[]): Promise<number> {
  const concerned = changes.filter((c) => concernsNotifications(c) && c.id !== null);
  if (concerned.length === 0) return 0;
  const seqOf = (c: Change) => (c.seq === undefined || c.seq === null ? null : Number(c.seq));
  const claimed = await repo.claimDerivations(
    deps.db,
    concerned.map(seqOf).filter((s): s is number => s !== null),
    DERIVE_LEASE_MS,
  );
  // A change without a seq (none is announced so) cannot be claimed: it is derived as heard.
  const mine = concerned.filter((c) => {
    const seq = seqOf(c);
    return seq === null || claimed.has(seq);
  });
  if (mine.length === 0) return 0;
  // Marked done with the notifications they made, in the same statement.
  return deriveFromChanges(deps, mine, [...claimed]);
}

/**
 * Listens to the change feed on this instance: the message changes heard are derived in batches, in
 * order, those this instance claims (deriveClaimed; a failure is logged). On start, and whenever the
 * feed says announcements may have been missed (a dropped connection), the last minutes of
 * change_log are derived again (what is claimed and done is passed by).
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
  // Changes heard while a batch is derived wait for the next: one batch at a time, in order.
  const pending: Change[] = [];
  let scheduled = false;
  const drain = async () => {
    scheduled = false;
    while (pending.length > 0) {
      const batch = pending.splice(0, DERIVE_BATCH);
      try {
        await deriveClaimed(deps, batch);
      } catch (err) {
        deps.logger.warn({ err, changes: batch.length }, 'notifications not derived');
      }
    }
  };
  const unsubscribe = feed.subscribe((change) => {
    if (!concernsNotifications(change)) return;
    pending.push(change);
    if (scheduled) return;
    scheduled = true;
    run(drain, { batch: true });
  });
  const unReset = feed.onReset(() => run(() => catchUp(deps), { catchUp: true }));
  run(() => catchUp(deps), { catchUp: true });
  return () => {
    unsubscribe();
    unReset();
  };
}
