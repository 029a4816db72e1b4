// The shared inbox: list and filter conversations, change their state, read and write messages.
// The write path keeps last_message_at, is_read and business_replied true to what happened, for
// every channel (applyMessageToConversations); staff replies here are titan_message sends.
import type {
  TBulkConversationRequest,
  TConversationCounts,
  TChannel,
  TConversation,
  TConversationFilter,
  TConversationStatus,
  TConversationListQuery,
  TMessage,
  TMessageListQuery,
  TSendMessageRequest,
  TSender,
  TUpdateConversationRequest,
  TVisitorConversation,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { jsonText, type JsonText } from '../../platform/http';
import type { Storage } from '../../platform/storage';
import { findCustomerNames } from '../directory';
import { findBusinessFile } from '../files';
import * as sends from '../sends';
import { titan } from '../../channels/titan/titan.adapter';
import * as repo from './conversations.repository';
import { memberName, NO_ME, resolveMe, toAssignee, toConversation } from './conversation-view';
import { searchConversations } from './search/search.service';
import { labelConversations } from './labels-activity';
import { emitCustomerEvents } from '../journeys';
import { recordEvent, type WebhookEvent } from '../webhooks';
import { listConversations } from './list';
import {
  type ChannelReplier,
  type ChannelReplies,
  emitConversationsOpened,
  type PreparedReply,
  type ReplyChannel,
  type ReplyTarget,
} from './channel-messages';
import type { InboxScope } from './conversations.repository';
import { businessScope } from '../../platform/inbox-scope';
import * as levels from './service-levels.repository';

export type { InboxScope };
export { businessScope };
export { NO_ME, resolveMe, toAssignee, toConversation };

export type InboxDeps = {
  db: Db;
  storage: Storage;
  /** Told when staff mark a conversation read (WhatsApp sends the customer a read receipt). */
  onConversationRead?: OnConversationRead;
  /** How staff replies leave on SMS and email (each channel's module builds its sends). */
  replies?: ChannelReplies;
};

export type OnConversationRead = (conversation: repo.ConversationRow) => Promise<void>;

export const INBOX_ERRORS = {
  whatsappReply: 'WhatsApp conversations are answered through the WhatsApp channel.',
  unknownFile: 'Upload the file first and send its key.',
  badBefore: 'Enter the id of a message in this conversation.',
  noSuchMember: 'No member of this business has this id.',
  memberCannotSee: 'This member cannot see this conversation: it belongs to a chat group they are not in.',
  notVisible: 'One or more of these conversations were not found.',
  emailOnly: 'Only email conversations take this field.',
  noReplier: 'This channel cannot send replies on this server.',
} as const;

type AnyMessageRow = repo.MessageRow | repo.WaMessageRow;

/** An email message's stored attachments, each with a signed link to open it (the key stays). */
async function withAttachmentUrls(
  storage: Storage,
  meta: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!Array.isArray(meta.attachments) || meta.attachments.length === 0) return meta;
  const attachments = await Promise.all(
    (meta.attachments as { key?: unknown; file_name?: unknown }[]).map(async (a) =>
      typeof a.key === 'string'
        ? { ...a, url: await storage.signedUrl(a.key, String(a.file_name ?? 'file')) }
        : a,
    ),
  );
  return { ...meta, attachments };
}

/** Serialises messages with their senders, loading every sender of the batch in two queries. */
export async function toMessages(
  deps: InboxDeps,
  businessId: number,
  rows: AnyMessageRow[],
): Promise<TMessage[]> {
  const staffIds = [
    ...new Set(rows.filter((r) => r.senderType !== 'customer' && r.senderId).map((r) => r.senderId!)),
  ];
  const customerIds = [
    ...new Set(rows.filter((r) => r.senderType === 'customer' && r.senderId).map((r) => r.senderId!)),
  ];
  const [staff, customers] = await Promise.all([
    repo.findStaffSenders(deps.db, businessId, staffIds),
    findCustomerNames(deps.db, businessId, customerIds),
  ]);
  const staffById = new Map(staff.map((s) => [s.id, s]));
  const customerById = new Map(customers.map((c) => [c.id, c]));
  return Promise.all(
    rows.map(async (row) => {
      let sender: TSender | null = null;
      if (row.senderId && row.senderType === 'customer') {
        const c = customerById.get(row.senderId);
        if (c) sender = { id: c.id, name: c.name, email: c.email, role: 'customer', avatar_url: null };
      } else if (row.senderId) {
        const s = staffById.get(row.senderId);
        if (s) {
          const name = `${s.firstName} ${s.lastName}`.trim() || s.email;
          sender = { id: s.id, name, email: s.email, role: s.role ?? null, avatar_url: null };
        }
      }
      const meta = await withAttachmentUrls(deps.storage, row.metaData);
      const content =
        row.messageType === 'file' && typeof meta.key === 'string'
          ? await deps.storage.signedUrl(meta.key, String(meta.file_name ?? 'file'))
          : row.content;
      return {
        id: row.id,
        conversation_id: row.conversationId,
        content,
        created_at: row.createdAt.toISOString(),
        is_read: row.isRead,
        sender_id: row.senderId,
        sender_type: row.senderType,
        message_type: row.messageType,
        meta_data: meta,
        status: row.status,
        timestamp: 'timestamp' in row ? row.timestamp : Math.floor(row.createdAt.getTime() / 1000),
        sender,
      };
    }),
  );
}

/**
 * A page of the list as the JSON text of TPage<TConversation>: the rows arrive from the
 * list engine already encoded (see list/list.repository.ts), and are passed through.
 */
export async function findConversations(
  db: Db,
  scope: InboxScope,
  query: TConversationListQuery,
  viewerId: number | null = null,
): Promise<JsonText> {
  const { page, page_size, q, ...asked } = query;
  const filter = resolveMe(asked, viewerId);
  if (q !== undefined)
    return jsonText(JSON.stringify(await searchConversations(db, scope, filter, q, page, page_size)));
  const { count, resultsJson } = await listConversations(
    db,
    scope,
    filter,
    page_size,
    (page - 1) * page_size,
  );
  const next = page * page_size < count ? page + 1 : null;
  const previous = page > 1 ? page - 1 : null;
  return jsonText(`{"count":${count},"next":${next},"previous":${previous},"results":${resultsJson}}`);
}

async function findOwnConversation(db: Db, scope: InboxScope, id: number) {
  const row = await repo.findConversation(db, scope, id);
  if (!row) throw AppError.notFound();
  return row;
}

export async function findConversation(db: Db, scope: InboxScope, id: number): Promise<TConversation> {
  return toConversation(await findOwnConversation(db, scope, id));
}

/** Who changed something, for the activity lines (null: an API key). */
export type Actor = number | null;

/**
 * Changes one conversation: status, read state, assignee. An assignment and a status change each
 * leave an activity line in the timeline, written in the same transaction as the change.
 */
export async function updateConversation(
  deps: Pick<InboxDeps, 'db'>,
  scope: InboxScope,
  id: number,
  input: TUpdateConversationRequest,
  onRead?: OnConversationRead,
  actorId: Actor = null,
): Promise<TConversation> {
  const { db } = deps;
  const { conversation } = await findOwnConversation(db, scope, id);
  await db.transaction(async (tx) => {
    const [locked] = await repo.lockVisibleConversations(tx, scope, [id]);
    if (!locked) throw AppError.notFound();
    const assignee =
      input.assignee_id === undefined
        ? undefined
        : await assignableMember(tx, scope.businessId, input.assignee_id);
    if (assignee) assertMemberSees(assignee, locked);
    const status = snoozeStatus(input, locked);
    const changed = await repo.updateConversation(tx, scope.businessId, id, {
      ...status,
      ...(input.is_read !== undefined ? { isRead: input.is_read } : {}),
      ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    });
    if (!changed) throw AppError.notFound();
    if (input.is_read) await repo.markCustomerMessagesRead(tx, id);
    await recordActivity(
      tx,
      scope.businessId,
      [locked],
      actorId,
      { ...input, status: status.status },
      assignee ?? null,
    );
    if (input.label_ids)
      await labelConversations(tx, scope.businessId, [locked], input.label_ids, 'set', actorId);
    await recordConversationChanges(tx, scope.businessId, [locked], { ...input, status: status.status });
  });
  if (input.is_read && onRead) await onRead(conversation);
  return findConversation(db, scope, id);
}

/**
 * The status columns a change writes: `snoozed_until` snoozes (status snoozed) or, null, wakes a
 * snoozed conversation; a status of active or resolved always ends a snooze.
 */
function snoozeStatus(
  input: TUpdateConversationRequest,
  current: repo.ConversationRow,
): { status?: TConversationStatus; snoozedUntil?: Date | null } {
  if (input.snoozed_until) return { status: 'snoozed', snoozedUntil: new Date(input.snoozed_until) };
  if (input.status !== undefined) return { status: input.status, snoozedUntil: null };
  if (input.snoozed_until === null && current.status === 'snoozed')
    return { status: 'active', snoozedUntil: null };
  return {};
}

type Member = NonNullable<Awaited<ReturnType<typeof repo.findMember>>> & { groupIds: number[] | null };

// ---- Webhook events (recorded in the transaction of the change) ----

/** A conversation as webhook events carry it: flat. */
export function conversationEventData(c: repo.ConversationRow): Record<string, unknown> {
  return {
    id: c.id,
    channel: c.channel,
    status: c.status,
    title: c.title,
    customer_id: c.initiatorId,
    assignee_id: c.assigneeId,
    chat_group_id: c.assignedChatGroupId,
    is_read: c.isRead,
    created_at: c.createdAt.toISOString(),
  };
}

/** The events of conversations changed in `tx`: updated, and resolved when they were resolved now. */
async function recordConversationChanges(
  tx: Queryable,
  businessId: number,
  before: repo.ConversationRow[],
  input: {
    status?: 'active' | 'resolved' | 'snoozed';
    is_read?: boolean;
    assignee_id?: number | null;
    snoozed_until?: string | null;
    label_ids?: number[];
  },
): Promise<void> {
  const changedFields = Object.keys(input).filter((k) => k !== 'ids');
  if (changedFields.length === 0) return;
  const events: WebhookEvent[] = [];
  for (const b of before) {
    const after: repo.ConversationRow = {
      ...b,
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.is_read !== undefined ? { isRead: input.is_read } : {}),
      ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    };
    const data = { ...conversationEventData(after), changed: changedFields.join(',') };
    const objectKey = `conversation:${b.id}`;
    events.push({ businessId, type: 'conversation.updated', objectKey, data });
    if (b.status !== 'resolved' && after.status === 'resolved')
      events.push({ businessId, type: 'conversation.resolved', objectKey, data });
  }
  await recordEvent(tx, ...events);
  // Journeys may follow a resolved conversation up (a rating, a thank-you).
  await emitCustomerEvents(
    tx,
    ...before
      .filter((b) => b.status !== 'resolved' && input.status === 'resolved' && b.initiatorId !== null)
      .map((b) => ({
        businessId,
        customerId: b.initiatorId!,
        name: 'conversation.resolved' as const,
        properties: { conversation_id: b.id, channel: b.channel },
      })),
  );
  // A resolved conversation staff open again (active, or snoozed until later).
  const reopens = input.status === 'active' || input.status === 'snoozed' || !!input.snoozed_until;
  await emitConversationsOpened(
    tx,
    before
      .filter((b) => reopens && b.status === 'resolved')
      .map((b) => ({
        businessId,
        conversationId: b.id,
        customerId: b.initiatorId,
        channel: b.channel,
        reopened: true,
      })),
  );
}

/** A message as webhook events carry it: flat. */
export function messageEventData(
  m: {
    id: number | string;
    conversationId: number;
    senderType: string;
    senderId: number | null;
    messageType: string;
    content: string | null;
    createdAt: Date;
  },
  channel: string,
): Record<string, unknown> {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    channel,
    sender_type: m.senderType,
    sender_id: m.senderId,
    message_type: m.messageType,
    content: m.content,
    created_at: m.createdAt.toISOString(),
  };
}

const messageCreated = (businessId: number, data: Record<string, unknown>): WebhookEvent => ({
  businessId,
  type: 'message.created',
  objectKey: `conversation:${String(data.conversation_id)}`,
  data,
});

/** The member named by assignee_id (null: unassign); 404 naming the field for anyone else. */
async function assignableMember(tx: Queryable, businessId: number, userId: number | null) {
  if (userId === null) return null;
  const member = await repo.findMember(tx, businessId, userId);
  if (!member) {
    throw new AppError('not_found', INBOX_ERRORS.noSuchMember, {
      assignee_id: [INBOX_ERRORS.noSuchMember],
    });
  }
  const groupIds = member.role === 'agent' ? await repo.findUserGroupIds(tx, businessId, userId) : null;
  return { ...member, groupIds } satisfies Member;
}

/** Assignment never widens what someone may read: an agent takes only what their groups show. */
function assertMemberSees(member: Member, conversation: repo.ConversationRow) {
  const group = conversation.assignedChatGroupId;
  if (member.groupIds === null || group === null || member.groupIds.includes(group)) return;
  throw AppError.fields({ assignee_id: [INBOX_ERRORS.memberCannotSee] });
}

/** The activity lines of one change to these conversations (those it really changed). */
async function recordActivity(
  tx: Queryable,
  businessId: number,
  before: repo.ConversationRow[],
  actorId: Actor,
  input: { status?: TConversationStatus; assignee_id?: number | null; snoozed_until?: string | null },
  assignee: repo.AssigneeRow | null,
) {
  const [actorRow] = actorId === null ? [] : await repo.findStaffSenders(tx, businessId, [actorId]);
  const actor = actorRow ? { id: actorRow.id, name: memberName(actorRow) } : null;
  const who = actor?.name ?? 'An API key';
  for (const c of before) {
    if (input.assignee_id !== undefined && c.assigneeId !== input.assignee_id) {
      const to = assignee && { id: assignee.id, name: memberName(assignee) };
      await repo.insertInternalMessage(tx, c, {
        messageType: 'activity',
        senderType: 'system',
        senderId: actorId,
        content: to
          ? `${who} assigned this conversation to ${to.name}`
          : `${who} unassigned this conversation`,
        metaData: {
          action: to ? 'assigned' : 'unassigned',
          actor,
          assignee: to,
          previous_assignee_id: c.assigneeId,
        },
      });
    }
    if (input.status === 'snoozed' && input.snoozed_until) {
      await repo.insertInternalMessage(tx, c, {
        messageType: 'activity',
        senderType: 'system',
        senderId: actorId,
        content: `${who} snoozed this conversation until ${new Date(input.snoozed_until).toISOString()}`,
        metaData: {
          action: 'snoozed',
          actor,
          snoozed_until: new Date(input.snoozed_until).toISOString(),
          previous_status: c.status,
        },
      });
    } else if (input.status !== undefined && c.status !== input.status) {
      await repo.insertInternalMessage(tx, c, {
        messageType: 'activity',
        senderType: 'system',
        senderId: actorId,
        content: `${who} ${input.status === 'resolved' ? 'resolved' : c.status === 'snoozed' ? 'woke' : 'reopened'} this conversation`,
        metaData: { action: 'status_changed', actor, status: input.status, previous_status: c.status },
      });
    }
  }
}

/**
 * One change to many conversations (POST /api/msg/conversations/bulk/): all of them or none. An
 * id the caller may not see is 404 naming `ids`, and nothing is written.
 */
export async function bulkUpdateConversations(
  deps: Pick<InboxDeps, 'db'>,
  scope: InboxScope,
  input: TBulkConversationRequest,
  actorId: Actor,
): Promise<{ updated: number[] }> {
  const ids = [...new Set(input.ids)];
  const updated = await deps.db.transaction(async (tx) => {
    const rows = await repo.lockVisibleConversations(tx, scope, ids);
    if (rows.length !== ids.length) {
      throw new AppError('not_found', INBOX_ERRORS.notVisible, { ids: [INBOX_ERRORS.notVisible] });
    }
    const assignee =
      input.assignee_id === undefined
        ? undefined
        : await assignableMember(tx, scope.businessId, input.assignee_id);
    if (assignee) for (const row of rows) assertMemberSees(assignee, row);
    const changed = await repo.updateConversations(tx, scope.businessId, ids, {
      ...(input.status !== undefined ? { status: input.status, snoozedUntil: null } : {}),
      ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    });
    await recordActivity(tx, scope.businessId, rows, actorId, input, assignee ?? null);
    if (input.label_ids)
      await labelConversations(tx, scope.businessId, rows, input.label_ids, 'add', actorId);
    await recordConversationChanges(tx, scope.businessId, rows, input);
    return changed;
  });
  return { updated: updated.sort((a, b) => a - b) };
}

/** The inbox views' counts (sidebar): all, mine, unassigned, per assignee, chat group and label. */
export async function countConversationViews(
  db: Db,
  scope: InboxScope,
  userId: number | null,
  status?: TConversationStatus,
): Promise<TConversationCounts> {
  return repo.countViews(db, scope, userId, status);
}

export async function findMessages(
  deps: InboxDeps,
  scope: InboxScope,
  conversationId: number,
  query: TMessageListQuery,
  /** 'staff' includes notes and activity lines; anything else (a visitor) never sees them. */
  audience: 'staff' | 'visitor' = 'visitor',
): Promise<TMessage[]> {
  const businessId = scope.businessId;
  const internal = audience === 'staff';
  const conversation = (await findOwnConversation(deps.db, scope, conversationId)).conversation;
  let rows: AnyMessageRow[];
  if (conversation.channel === 'whatsapp') {
    let before: number | undefined;
    if (query.before) {
      const anchor = await repo.findWaMessage(deps.db, businessId, query.before);
      if (!anchor || anchor.conversationId !== conversationId)
        throw AppError.fields({ before: [INBOX_ERRORS.badBefore] });
      before = anchor.position;
    }
    rows = await repo.listWaMessages(deps.db, conversationId, query.limit, before, internal);
  } else {
    const before = query.before === undefined ? undefined : Number(query.before);
    if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) {
      throw AppError.fields({ before: [INBOX_ERRORS.badBefore] });
    }
    rows = await repo.listMessages(deps.db, conversationId, query.limit, before, internal);
  }
  return toMessages(deps, businessId, rows.reverse());
}

/**
 * A staff reply on the own channel, through the send spine: the message, its `titan_message` send
 * (queued) and the conversation's replied state in one transaction; then the send is delivered.
 */
export async function sendStaffMessage(
  deps: InboxDeps,
  scope: InboxScope,
  userId: number | null,
  conversationId: number,
  input: TSendMessageRequest,
): Promise<TMessage> {
  const businessId = scope.businessId;
  const conversation = (await findOwnConversation(deps.db, scope, conversationId)).conversation;
  if (conversation.channel === 'whatsapp') throw new AppError('conflict', INBOX_ERRORS.whatsappReply);
  if (conversation.channel !== 'email' && input.message_type === 'text') {
    // SMS takes a picture (MMS) by attachment_ids; the rest is email's only.
    const fields = [
      'html',
      'cc',
      'bcc',
      'subject',
      ...(conversation.channel === 'sms' ? [] : ['attachment_ids']),
    ] as const;
    const emailOnly = fields.filter((k) => input[k as keyof typeof input] !== undefined);
    if (emailOnly.length > 0)
      throw AppError.fields(Object.fromEntries(emailOnly.map((k) => [k, [INBOX_ERRORS.emailOnly]])));
  }
  if (conversation.channel === 'sms' || conversation.channel === 'email') {
    const message = await sendChannelReply(deps.db, deps.replies, conversation, userId, input);
    return (await toMessages(deps, businessId, [message]))[0]!;
  }
  const body = await messageBody(deps, businessId, input);
  const { message, send } = await deps.db.transaction(async (tx) => {
    const message = await repo.insertMessage(tx, {
      businessId,
      conversationId,
      senderType: 'staff',
      senderId: userId,
      isRead: true,
      status: 'sent',
      ...body,
    });
    const send = await sends.createQueued(tx, {
      businessId,
      channel: 'titan_message',
      cause: 'staff_reply',
      customerId: conversation.initiatorId,
      conversationId,
      recipient:
        conversation.initiatorId !== null
          ? String(conversation.initiatorId)
          : conversation.title || `conversation ${conversationId}`,
      createdBy: userId,
      providerRequest: { message_id: message.id, message_type: message.messageType },
    });
    await applyMessageToConversations(tx, 'outbound', [
      { businessId, conversationId, at: message.createdAt },
    ]);
    await recordEvent(tx, messageCreated(businessId, messageEventData(message, conversation.channel)));
    return { message, send };
  });
  await deliverTitanSend(deps.db, send.id);
  return (await toMessages(deps, businessId, [message]))[0]!;
}

/**
 * The AI's message on the own channel (sender `agent`), through the send spine like a staff reply;
 * `guard` runs first in the same transaction (the AI still holds the conversation).
 */
export async function sendAgentWidgetMessage(
  deps: InboxDeps,
  conversation: Pick<repo.ConversationRow, 'id' | 'businessId' | 'initiatorId' | 'title' | 'channel'>,
  reply: { content: string; metaData: Record<string, unknown>; idempotencyKey?: string },
  guard: (tx: Queryable) => Promise<void>,
): Promise<number> {
  const { message, send } = await deps.db.transaction(async (tx) => {
    await guard(tx);
    const message = await repo.insertMessage(tx, {
      businessId: conversation.businessId,
      conversationId: conversation.id,
      senderType: 'agent',
      senderId: null,
      isRead: true,
      status: 'sent',
      messageType: 'text',
      content: reply.content,
      metaData: reply.metaData,
    });
    const send = await sends.createQueued(tx, {
      businessId: conversation.businessId,
      channel: 'titan_message',
      cause: 'agent',
      idempotencyKey: reply.idempotencyKey ?? null,
      customerId: conversation.initiatorId,
      conversationId: conversation.id,
      recipient:
        conversation.initiatorId !== null
          ? String(conversation.initiatorId)
          : conversation.title || `conversation ${conversation.id}`,
      createdBy: null,
      providerRequest: { message_id: message.id, message_type: message.messageType },
    });
    await applyMessageToConversations(tx, 'outbound', [
      { businessId: conversation.businessId, conversationId: conversation.id, at: message.createdAt },
    ]);
    await recordEvent(
      tx,
      messageCreated(conversation.businessId, messageEventData(message, conversation.channel)),
    );
    return { message, send };
  });
  await deliverTitanSend(deps.db, send.id);
  return message.id;
}

/**
 * A staff reply on SMS or email: the message and its send (queued) and the conversation's replied
 * state in one transaction, then the send is handed to the channel's job. The message shows the
 * send's id, so its delivery can be followed in the send log.
 */
export async function sendChannelReply(
  db: Db,
  replies: ChannelReplies | undefined,
  target: ReplyTarget,
  userId: number | null,
  input: TSendMessageRequest,
  /**
   * The AI first responder's reply (sender `agent`), what its message carries beside, and the key
   * its send is recorded under once (a second recording of the same reply fails, rolling back).
   */
  agent?: { metaData: Record<string, unknown>; idempotencyKey?: string },
  /** An automatic message (the away reply): sent by the system, and no answer of the business's. */
  automatic?: { metaData: Record<string, unknown> },
): Promise<repo.MessageRow> {
  const replier: ChannelReplier | undefined = replies?.[target.channel as ReplyChannel];
  if (!replier) throw new AppError('conflict', INBOX_ERRORS.noReplier);
  const prepared = await replier.prepare(target, input, userId);
  const message = await db.transaction((tx) =>
    recordChannelReply(tx, target, prepared, userId, agent, automatic),
  );
  await replier.dispatch([prepared.send.id]);
  return message;
}

/**
 * A prepared reply recorded in the caller's transaction: the message (showing its send's id), the
 * send (queued), the conversation's replied state and `message.created`. The caller dispatches
 * the send once the transaction committed.
 */
export async function recordChannelReply(
  tx: Queryable,
  target: ReplyTarget,
  prepared: PreparedReply,
  userId: number | null,
  agent?: { metaData: Record<string, unknown>; idempotencyKey?: string },
  automatic?: { metaData: Record<string, unknown> },
  idempotencyKey?: string | null,
): Promise<repo.MessageRow> {
  const message = await repo.insertMessage(tx, {
    businessId: target.businessId,
    conversationId: target.id,
    senderType: agent ? 'agent' : automatic ? 'system' : 'staff',
    senderId: userId,
    isRead: true,
    status: 'accepted',
    messageType: 'text',
    content: prepared.content,
    metaData: {
      ...prepared.metaData,
      ...agent?.metaData,
      ...automatic?.metaData,
      send_id: prepared.send.id,
    },
  });
  await sends.createQueued(tx, {
    ...prepared.send,
    ...(agent
      ? { cause: 'agent' as const, idempotencyKey: agent.idempotencyKey ?? null }
      : automatic
        ? { cause: 'system' as const }
        : idempotencyKey
          ? { idempotencyKey }
          : {}),
    conversationId: target.id,
    createdBy: userId,
  });
  if (!automatic)
    await applyMessageToConversations(tx, 'outbound', [
      { businessId: target.businessId, conversationId: target.id, at: message.createdAt },
    ]);
  await recordEvent(tx, {
    businessId: target.businessId,
    type: 'message.created',
    objectKey: `conversation:${target.id}`,
    data: {
      id: message.id,
      conversation_id: target.id,
      channel: target.channel,
      sender_type: message.senderType,
      sender_id: userId,
      message_type: message.messageType,
      content: message.content,
      created_at: message.createdAt.toISOString(),
    },
  });
  return message;
}

/**
 * Delivers a queued titan_message send: the message is already stored, so the titan adapter
 * accepts it at once (the realtime feed carries it to the visitor). Claim, call and record are one
 * transaction, so such a send is never left `sending`; a send left `queued` (the process stopped
 * after the message was stored) is delivered by the recovery job through here. Answers false when
 * another caller had it.
 */
export async function deliverTitanSend(db: Db, sendId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const send = await sends.claim(tx, sendId);
    if (!send || send.channel !== 'titan_message') return false;
    const outcome = await titan.send(null, send.providerRequest);
    if (outcome.ok) await sends.recordAccepted(tx, send, outcome);
    else await sends.recordFailed(tx, send.id, outcome);
    return outcome.ok;
  });
}

/**
 * What new messages do to their conversations, for every channel: inbound (a customer wrote) opens
 * the conversation again, unread and awaiting a reply; outbound (staff, an agent, Titan) marks it
 * replied and read; last_message_at moves to the newest message. Set-based: one statement for the
 * batch, in the caller's transaction (the count triggers fire on it as on any update).
 */
export async function applyMessageToConversations(
  tx: Queryable,
  direction: 'inbound' | 'outbound',
  arrivals: repo.MessageArrival[],
): Promise<void> {
  const { answered, reopened } = await repo.applyMessageArrivals(tx, direction, arrivals);
  await emitConversationsOpened(
    tx,
    reopened.map((r) => ({ ...r, reopened: true })),
  );
  // A customer who was waiting got their answer: journeys may stop a follow-up on it.
  await emitCustomerEvents(
    tx,
    ...answered.map((a) => ({
      businessId: a.businessId,
      customerId: a.customerId,
      name: 'conversation.replied' as const,
      properties: {
        conversation_id: a.conversationId,
        channel: a.channel,
        waited_since: a.waitedSince.toISOString(),
      },
      at: a.at,
    })),
  );
}

async function messageBody(deps: InboxDeps, businessId: number, input: TSendMessageRequest) {
  if (input.message_type === 'text') {
    return { messageType: 'text' as const, content: input.content, metaData: {} };
  }
  const file = await findBusinessFile(deps.db, businessId, input.content);
  if (!file) throw AppError.fields({ content: [INBOX_ERRORS.unknownFile] });
  return {
    messageType: 'file' as const,
    content: file.fileName,
    metaData: { key: file.key, file_name: file.fileName, mime_type: file.mimeType, size: file.size },
  };
}

/** A customer's message: the conversation becomes unread, not replied, and active again. */
export async function receiveCustomerMessage(
  deps: InboxDeps,
  input: { businessId: number; conversationId: number; customerId: number; message: TSendMessageRequest },
): Promise<TMessage> {
  const conversation = (
    await findOwnConversation(deps.db, businessScope(input.businessId), input.conversationId)
  ).conversation;
  if (conversation.channel !== 'titan_message') throw new AppError('conflict', INBOX_ERRORS.whatsappReply);
  const body = await messageBody(deps, input.businessId, input.message);
  const row = await deps.db.transaction(async (tx) => {
    const message = await repo.insertMessage(tx, {
      businessId: input.businessId,
      conversationId: input.conversationId,
      senderType: 'customer',
      senderId: input.customerId,
      status: 'sent',
      ...body,
    });
    await applyMessageToConversations(tx, 'inbound', [
      { businessId: input.businessId, conversationId: input.conversationId, at: message.createdAt },
    ]);
    await recordEvent(tx, messageCreated(input.businessId, messageEventData(message, conversation.channel)));
    await emitCustomerEvents(tx, {
      businessId: input.businessId,
      customerId: input.customerId,
      name: 'message.received',
      properties: {
        channel: conversation.channel,
        conversation_id: input.conversationId,
        message_id: message.id,
      },
      at: message.createdAt,
    });
    return message;
  });
  return (await toMessages(deps, input.businessId, [row]))[0]!;
}

export async function startConversation(
  db: Db,
  input: {
    businessId: number;
    channel: TChannel;
    initiatorId: number | null;
    chatGroupId?: number | null;
    title: string;
  },
): Promise<TConversation> {
  const row = await db.transaction((tx) => openConversation(tx, input));
  return findConversation(db, businessScope(input.businessId), row.id);
}

/**
 * A new conversation, in the caller's transaction, announced as every new conversation is (see
 * announceConversation). Also for conversations Titan opens itself to send into (a WhatsApp
 * campaign's message to a customer who has none).
 */
export async function openConversation(
  tx: Queryable,
  input: {
    businessId: number;
    channel: TChannel;
    initiatorId: number | null;
    chatGroupId?: number | null;
    title: string;
  },
): Promise<repo.ConversationRow> {
  const row = await repo.insertConversation(tx, {
    businessId: input.businessId,
    channel: input.channel,
    initiatorId: input.initiatorId,
    assignedChatGroupId: input.chatGroupId ?? null,
    title: input.title,
  });
  await announceConversation(tx, row);
  return row;
}

/**
 * A conversation's `conversation.created` webhook event and its customer's `conversation.opened`
 * journey event, in the caller's transaction. A conversation opened for a first message that its
 * provider may still refuse (a WhatsApp template to a new number) is announced by the transaction
 * that records the message's acceptance (`announceOpenedConversation`), so a refused one, taken back,
 * was never told of.
 */
async function announceConversation(tx: Queryable, row: repo.ConversationRow): Promise<void> {
  await recordEvent(tx, {
    businessId: row.businessId,
    type: 'conversation.created',
    objectKey: `conversation:${row.id}`,
    data: conversationEventData(row),
  });
  await emitConversationsOpened(tx, [
    {
      businessId: row.businessId,
      conversationId: row.id,
      customerId: row.initiatorId,
      channel: row.channel,
      reopened: false,
    },
  ]);
}

/** Announces a conversation opened earlier without its events (see announceConversation). */
export async function announceOpenedConversation(
  tx: Queryable,
  businessId: number,
  conversationId: number,
): Promise<void> {
  const row = await repo.findConversation(tx, businessScope(businessId), conversationId);
  if (row) await announceConversation(tx, row.conversation);
}

/** The list filter applied to one conversation: the realtime twin of the SQL in list/list.repository.ts. */
export function matchesFilter(c: TConversation, filter: TConversationFilter): boolean {
  const idMatches = (wanted: 'me' | 'none' | number | undefined, actual: number | null) =>
    wanted === undefined || (wanted === 'none' ? actual === null : wanted === actual);
  if (!idMatches(filter.assignee, c.assignee?.id ?? null)) return false;
  if (!idMatches(filter.assigned_chat_group, c.assigned_chat_group?.id ?? null)) return false;
  if (filter.label && !filter.label.every((id) => c.labels.some((l) => l.id === id))) return false;
  const at = (v: string | null) => (v ? Date.parse(v) : null);
  const created = Date.parse(c.created_at);
  const last = at(c.last_message_at);
  if (filter.status && c.status !== filter.status) return false;
  if (filter.is_read !== undefined && c.is_read !== filter.is_read) return false;
  if (filter.business_replied !== undefined && c.business_replied !== filter.business_replied) return false;
  if (filter.channel__in && !filter.channel__in.includes(c.channel)) return false;
  if (filter.created_at__gte && created < filter.created_at__gte.getTime()) return false;
  if (filter.created_at__lte && created > filter.created_at__lte.getTime()) return false;
  if (filter.last_message_at__gte && (last === null || last < filter.last_message_at__gte.getTime()))
    return false;
  if (filter.last_message_at__lte && (last === null || last > filter.last_message_at__lte.getTime()))
    return false;
  return true;
}

/**
 * One changed row, loaded and serialised as the REST API would answer it. A wa_messages row is
 * named by its business and wamid (wamids are unique within a business only).
 */
export async function loadChangedRow(
  deps: InboxDeps,
  table: string,
  id: string,
  businessId?: number,
): Promise<{ businessId: number; conversationId: number; row: TConversation | TMessage } | null> {
  if (table === 'conversations') {
    const row = await repo.findConversationById(deps.db, Number(id));
    if (!row) return null;
    const c = row.conversation;
    return { businessId: c.businessId, conversationId: c.id, row: toConversation(row) };
  }
  if (table !== 'messages' && table !== 'wa_messages') return null;
  const loaded = await loadChangedMessages(deps, [{ table, id, businessId }]);
  return loaded.get(`${table}:${id}`) ?? null;
}

/**
 * loadChangedRow for many new messages at once (the notifications' batches): one read per message
 * table (and business, for WhatsApp's wamids), keyed `table:id`. Rows not found are left out.
 */
export async function loadChangedMessages(
  deps: InboxDeps,
  refs: readonly { table: 'messages' | 'wa_messages'; id: string; businessId?: number }[],
): Promise<Map<string, { businessId: number; conversationId: number; row: TMessage }>> {
  const own = refs.filter((r) => r.table === 'messages' && /^\d+$/.test(r.id)).map((r) => Number(r.id));
  const waByBusiness = new Map<number, string[]>();
  for (const r of refs)
    if (r.table === 'wa_messages' && r.businessId !== undefined)
      waByBusiness.set(r.businessId, [...(waByBusiness.get(r.businessId) ?? []), r.id]);
  const found: { table: 'messages' | 'wa_messages'; row: AnyMessageRow }[] = [
    ...(await repo.findMessagesByIds(deps.db, own)).map((row) => ({ table: 'messages' as const, row })),
  ];
  for (const [businessId, ids] of waByBusiness)
    for (const row of await repo.findWaMessagesByIds(deps.db, businessId, ids))
      found.push({ table: 'wa_messages', row });
  const out = new Map<string, { businessId: number; conversationId: number; row: TMessage }>();
  const byBusiness = new Map<number, typeof found>();
  for (const f of found) byBusiness.set(f.row.businessId, [...(byBusiness.get(f.row.businessId) ?? []), f]);
  for (const [businessId, items] of byBusiness) {
    const serialised = await toMessages(
      deps,
      businessId,
      items.map((i) => i.row),
    );
    items.forEach((item, i) =>
      out.set(`${item.table}:${String(item.row.id)}`, {
        businessId,
        conversationId: item.row.conversationId,
        row: serialised[i]!,
      }),
    );
  }
  return out;
}

/** Conversations by id as the API writes them (loadChangedRow's, for many at once). */
export async function loadConversationsByIds(
  deps: InboxDeps,
  ids: readonly number[],
): Promise<Map<number, { businessId: number; row: TConversation }>> {
  const rows = await repo.findConversationsByIds(deps.db, null, [...new Set(ids)]);
  return new Map(
    rows.map((r) => [r.conversation.id, { businessId: r.conversation.businessId, row: toConversation(r) }]),
  );
}

/**
 * A conversation as the feed's listeners need it to tell who hears of a change: its title, group,
 * assignee and initiator (the shape of TConversation's fields of those names, nothing else).
 */
export type ConversationHead = {
  id: number;
  title: string;
  assignee: { id: number; name: string } | null;
  initiator: { id: number; name: string | null } | null;
  assigned_chat_group: { id: number } | null;
};

/** loadConversationsByIds' rows, their heads only: one plain statement for many. */
export async function loadConversationHeads(
  deps: Pick<InboxDeps, 'db'>,
  ids: readonly number[],
): Promise<Map<number, { businessId: number; row: ConversationHead }>> {
  const rows = await repo.findConversationHeads(deps.db, [...new Set(ids)]);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        businessId: r.businessId,
        row: {
          id: r.id,
          title: r.title,
          assignee: r.assignee && { id: r.assignee.id, name: memberName(r.assignee) },
          initiator: r.initiatorId === null ? null : { id: r.initiatorId, name: r.initiatorName },
          assigned_chat_group: r.assignedChatGroupId === null ? null : { id: r.assignedChatGroupId },
        },
      },
    ]),
  );
}

export { findUserGroupIds } from './conversations.repository';

/** A page of the conversations a customer started, as the visitor's page lists them. */
export async function findCustomerConversations(
  db: Db,
  scope: InboxScope,
  customerId: number,
  page: number,
  pageSize: number,
): Promise<{ count: number; next: number | null; previous: number | null; results: TVisitorConversation[] }> {
  const { rows, count } = await repo.listCustomerConversations(
    db,
    scope,
    customerId,
    pageSize,
    (page - 1) * pageSize,
  );
  return {
    count,
    next: page * pageSize < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results: rows.map((c) => ({
      id: c.id,
      title: c.title,
      status: c.status,
      channel: c.channel,
      is_read: c.isRead,
      last_message_at: c.lastMessageAt?.toISOString() ?? null,
      created_at: c.createdAt.toISOString(),
    })),
  };
}

/** Open conversations the business never answered, and how many customers opened them. */
export async function countUnansweredConversations(db: Db, businessId: number) {
  return repo.countUnanswered(db, businessId);
}

/** Conversations opened, unanswered and the median first response in a range, for the dashboard. */
export async function conversationMetrics(
  db: Db,
  businessId: number,
  range: { from: Date; to: Date },
  timeZone = 'UTC',
) {
  return repo.conversationMetrics(db, businessId, range, timeZone);
}

/** Service levels per member and chat group over a range (the dashboard's `team`). */
export async function serviceLevelMetrics(db: Db, businessId: number, range: { from: Date; to: Date }) {
  const { members, groups } = await levels.serviceLevels(db, businessId, range);
  return {
    members: members.map(({ key, ...row }) => ({ user_id: key, ...row })),
    groups: groups.map(({ key, ...row }) => ({ chat_group_id: key, ...row })),
  };
}

/** New conversations customers opened by writing (set-based), with their `conversation.created` events. */
export async function insertOpenedConversations(
  tx: Queryable,
  channel: repo.ConversationRow['channel'],
  values: Parameters<typeof repo.insertOpenedConversations>[2],
): Promise<Map<number, number>> {
  const ids = await repo.insertOpenedConversations(tx, channel, values);
  await recordEvent(
    tx,
    ...values.flatMap((v) => {
      const id = ids.get(v.initiatorId);
      if (id === undefined) return [];
      return [
        {
          businessId: v.businessId,
          type: 'conversation.created' as const,
          objectKey: `conversation:${id}`,
          data: {
            id,
            channel,
            status: 'active',
            title: v.title,
            customer_id: v.initiatorId,
            assignee_id: null,
            chat_group_id: null,
            is_read: false,
            created_at: v.lastMessageAt.toISOString(),
          },
        },
      ];
    }),
  );
  await emitConversationsOpened(
    tx,
    values.flatMap((v) => {
      const id = ids.get(v.initiatorId);
      return id === undefined
        ? []
        : [
            {
              businessId: v.businessId,
              conversationId: id,
              customerId: v.initiatorId,
              channel,
              reopened: false,
              at: v.lastMessageAt,
            },
          ];
    }),
  );
  return ids;
}

/** Customers' WhatsApp messages (set-based), with their `message.created` events. */
export async function insertInboundWaMessages(
  tx: Queryable,
  values: Parameters<typeof repo.insertInboundWaMessages>[1],
): Promise<{ businessId: number; id: string }[]> {
  const stored = await repo.insertInboundWaMessages(tx, values);
  const kept = new Set(stored.map((r) => `${r.businessId}:${r.id}`));
  await recordEvent(
    tx,
    ...values
      .filter((v) => kept.has(`${v.businessId}:${v.id}`))
      .map((v) =>
        messageCreated(v.businessId, {
          id: v.id,
          conversation_id: v.conversationId,
          channel: 'whatsapp',
          sender_type: 'customer',
          sender_id: v.senderId,
          message_type: v.messageType,
          content: v.content,
          created_at: (v.createdAt ?? new Date()).toISOString(),
        }),
      ),
  );
  return stored;
}

// ----- The AI first responder -----
// What the AI first responder (modules/ai, issue 33) does to a conversation, through this module's
// face — this module's repositories alone write conversations and messages:
// - its answer: a message with sender `agent` on the conversation's own channel (the widget's
//   titan_message send, or an SMS / email send like a staff reply), only while the AI still holds
//   the conversation (active, nobody assigned, not handed off) — checked under the row's lock, so a
//   person who took it meanwhile is never talked over;
// - its handoff: ai_handed_off_at set, a private note for staff and an activity line in one
//   transaction. The conversation is still waiting (awaiting_assignment_at), so auto-assignment,
//   woken by the change, gives it out by the group's rules.
export type AiHeldConversation = Pick<
  repo.ConversationRow,
  'id' | 'businessId' | 'channel' | 'initiatorId' | 'title' | 'assignedChatGroupId'
>;

export const AI_REPLY_ERRORS = {
  notHeld: 'A person has this conversation now: the AI does not answer in it.',
  channel: 'The AI cannot answer on this channel on this server.',
} as const;

const held = (row: repo.ConversationRow | undefined): row is repo.ConversationRow =>
  !!row && row.status === 'active' && row.assigneeId === null && row.aiHandedOffAt === null;

/** The conversation while the AI holds it; null once a person has it (or it is closed). */
export async function findAiHeldConversation(
  db: Db,
  businessId: number,
  conversationId: number,
): Promise<AiHeldConversation | null> {
  const row = (await repo.findConversation(db, businessScope(businessId), conversationId))?.conversation;
  return row && held(row) ? row : null;
}

/**
 * How the AI's message leaves on WhatsApp: the whatsapp module's own free-form send (recorded on the
 * spine under `idempotencyKey` before Meta is called; the 24-hour window checked), built by
 * composition — this module never imports the channel.
 */
export type AiWhatsappSender = (
  target: { businessId: number; conversationId: number },
  reply: { content: string; metaData: Record<string, unknown>; idempotencyKey: string },
) => Promise<void>;

/**
 * The AI's answer on the conversation's channel (sender `agent`, `meta_data` with its sources and
 * run): the widget's titan_message send, an SMS or email send like a staff reply, or a WhatsApp
 * free-form message — each recorded once under `idempotencyKey` before any provider is called.
 * 409 when a person has the conversation by now, or on a channel this server cannot answer on.
 */
export async function sendAiReply(
  deps: InboxDeps,
  conversation: AiHeldConversation,
  reply: { content: string; metaData: Record<string, unknown>; idempotencyKey: string },
  whatsapp?: AiWhatsappSender,
): Promise<void> {
  const channel: TChannel = conversation.channel;
  const stillHeld = async (tx: Queryable) => {
    const [row] = await repo.lockVisibleConversations(tx, businessScope(conversation.businessId), [
      conversation.id,
    ]);
    if (!held(row)) throw new AppError('conflict', AI_REPLY_ERRORS.notHeld);
  };
  if (channel === 'sms' || channel === 'email') {
    await deps.db.transaction(stillHeld);
    await sendChannelReply(
      deps.db,
      deps.replies,
      conversation,
      null,
      { message_type: 'text', content: reply.content },
      { metaData: reply.metaData, idempotencyKey: reply.idempotencyKey },
    );
    return;
  }
  if (channel === 'whatsapp') {
    if (!whatsapp) throw new AppError('conflict', AI_REPLY_ERRORS.channel);
    await deps.db.transaction(stillHeld);
    await whatsapp({ businessId: conversation.businessId, conversationId: conversation.id }, reply);
    return;
  }
  if (channel !== 'titan_message') throw new AppError('conflict', AI_REPLY_ERRORS.channel);
  await sendAgentWidgetMessage(deps, conversation, reply, stillHeld);
}

/**
 * Hands the conversation from the AI to a person: it stops holding it, staff get a private note
 * (why, and what the customer asked) and an activity line; auto-assignment then gives it out.
 * Answers false when it was already handed off (nothing written twice).
 */
export async function handOffFromAi(
  db: Db,
  conversation: Pick<AiHeldConversation, 'id' | 'businessId' | 'channel'>,
  handoff: { note: string; reason: string; runId: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await repo.lockVisibleConversations(tx, businessScope(conversation.businessId), [
      conversation.id,
    ]);
    if (!row || row.aiHandedOffAt !== null) return false;
    await repo.updateConversation(tx, conversation.businessId, conversation.id, {
      aiHandedOffAt: new Date(),
    });
    await repo.insertInternalMessage(tx, conversation, {
      messageType: 'note',
      senderType: 'agent',
      senderId: null,
      content: handoff.note,
      metaData: { ai_handoff: true, reason: handoff.reason, run_id: handoff.runId },
    });
    await repo.insertInternalMessage(tx, conversation, {
      messageType: 'activity',
      senderType: 'system',
      senderId: null,
      content: 'The AI assistant handed this conversation to a person',
      metaData: { action: 'ai_handoff', reason: handoff.reason, run_id: handoff.runId },
    });
    return true;
  });
}
