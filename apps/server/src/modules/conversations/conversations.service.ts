// The shared inbox: list and filter conversations, change their state, read and write messages.
// The write path keeps last_message_at, is_read and business_replied true to what happened, for
// every channel (applyMessageToConversations); staff replies here are titan_message sends.
import type {
  TAssignee,
  TBulkConversationRequest,
  TConversationCounts,
  TChannel,
  TConversation,
  TConversationFilter,
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
import { toChatGroup } from '../chat-groups';
import { findCustomerNames } from '../directory';
import { findBusinessFile } from '../files';
import * as sends from '../sends';
import { titan } from '../../channels/titan/titan.adapter';
import * as repo from './conversations.repository';
import { listConversations } from './list';
import type { InboxScope } from './conversations.repository';

export type { InboxScope };

export type InboxDeps = {
  db: Db;
  storage: Storage;
  /** Told when staff mark a conversation read (WhatsApp sends the customer a read receipt). */
  onConversationRead?: OnConversationRead;
};

export type OnConversationRead = (conversation: repo.ConversationRow) => Promise<void>;

export const INBOX_MESSAGES = {
  whatsappReply: 'WhatsApp conversations are answered through the WhatsApp channel.',
  unknownFile: 'Upload the file first and send its key.',
  badBefore: 'Enter the id of a message in this conversation.',
  noSuchMember: 'No member of this business has this id.',
  memberCannotSee: 'This member cannot see this conversation: it belongs to a chat group they are not in.',
  notVisible: 'One or more of these conversations were not found.',
} as const;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toConversation(row: repo.EnrichedConversationRow): TConversation {
  const c = row.conversation;
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    is_read: c.isRead,
    channel: c.channel,
    initiator: row.initiator,
    assigned_chat_group: row.group && toChatGroup(row.group),
    last_message_at: iso(c.lastMessageAt),
    created_at: c.createdAt.toISOString(),
    business_replied: c.businessReplied,
    engage_business_id: c.businessId,
    assignee: row.assignee && toAssignee(row.assignee),
  };
}

const memberName = (m: { firstName: string; lastName: string; email: string }) =>
  `${m.firstName} ${m.lastName}`.trim() || m.email;

export const toAssignee = (m: repo.AssigneeRow): TAssignee => ({
  id: m.id,
  name: memberName(m),
  avatar_url: null,
});

type AnyMessageRow = repo.MessageRow | repo.WaMessageRow;

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
      const meta = row.metaData;
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
  const { page, page_size, ...asked } = query;
  const filter = resolveMe(asked, viewerId);
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

/** Whole-business visibility: for the channels' own write paths. */
export const businessScope = (businessId: number): InboxScope => ({ businessId, groupIds: null });

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
    const changed = await repo.updateConversation(tx, scope.businessId, id, {
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.is_read !== undefined ? { isRead: input.is_read } : {}),
      ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    });
    if (!changed) throw AppError.notFound();
    if (input.is_read) await repo.markCustomerMessagesRead(tx, id);
    await recordActivity(tx, scope.businessId, [locked], actorId, input, assignee ?? null);
  });
  if (input.is_read && onRead) await onRead(conversation);
  return findConversation(db, scope, id);
}

type Member = NonNullable<Awaited<ReturnType<typeof repo.findMember>>> & { groupIds: number[] | null };

/** The member named by assignee_id (null: unassign); 404 naming the field for anyone else. */
async function assignableMember(tx: Queryable, businessId: number, userId: number | null) {
  if (userId === null) return null;
  const member = await repo.findMember(tx, businessId, userId);
  if (!member) {
    throw new AppError('not_found', INBOX_MESSAGES.noSuchMember, {
      assignee_id: [INBOX_MESSAGES.noSuchMember],
    });
  }
  const groupIds = member.role === 'agent' ? await repo.findUserGroupIds(tx, businessId, userId) : null;
  return { ...member, groupIds } satisfies Member;
}

/** Assignment never widens what someone may read: an agent takes only what their groups show. */
function assertMemberSees(member: Member, conversation: repo.ConversationRow) {
  const group = conversation.assignedChatGroupId;
  if (member.groupIds === null || group === null || member.groupIds.includes(group)) return;
  throw AppError.fields({ assignee_id: [INBOX_MESSAGES.memberCannotSee] });
}

/** The activity lines of one change to these conversations (those it really changed). */
async function recordActivity(
  tx: Queryable,
  businessId: number,
  before: repo.ConversationRow[],
  actorId: Actor,
  input: { status?: 'active' | 'resolved'; assignee_id?: number | null },
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
    if (input.status !== undefined && c.status !== input.status) {
      await repo.insertInternalMessage(tx, c, {
        messageType: 'activity',
        senderType: 'system',
        senderId: actorId,
        content: `${who} ${input.status === 'resolved' ? 'resolved' : 'reopened'} this conversation`,
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
      throw new AppError('not_found', INBOX_MESSAGES.notVisible, { ids: [INBOX_MESSAGES.notVisible] });
    }
    const assignee =
      input.assignee_id === undefined
        ? undefined
        : await assignableMember(tx, scope.businessId, input.assignee_id);
    if (assignee) for (const row of rows) assertMemberSees(assignee, row);
    const changed = await repo.updateConversations(tx, scope.businessId, ids, {
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.assignee_id !== undefined ? { assigneeId: input.assignee_id } : {}),
    });
    await recordActivity(tx, scope.businessId, rows, actorId, input, assignee ?? null);
    return changed;
  });
  return { updated: updated.sort((a, b) => a - b) };
}

/** The inbox views' counts (sidebar): all, mine, unassigned, per assignee and per chat group. */
export async function countConversationViews(
  db: Db,
  scope: InboxScope,
  userId: number | null,
  status?: 'active' | 'resolved',
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
        throw AppError.fields({ before: [INBOX_MESSAGES.badBefore] });
      before = anchor.position;
    }
    rows = await repo.listWaMessages(deps.db, conversationId, query.limit, before, internal);
  } else {
    const before = query.before === undefined ? undefined : Number(query.before);
    if (before !== undefined && !(Number.isSafeInteger(before) && before > 0)) {
      throw AppError.fields({ before: [INBOX_MESSAGES.badBefore] });
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
  if (conversation.channel === 'whatsapp') throw new AppError('conflict', INBOX_MESSAGES.whatsappReply);
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
    return { message, send };
  });
  await deliverTitanSend(deps.db, send.id);
  return (await toMessages(deps, businessId, [message]))[0]!;
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
  await repo.applyMessageArrivals(tx, direction, arrivals);
}

async function messageBody(deps: InboxDeps, businessId: number, input: TSendMessageRequest) {
  if (input.message_type === 'text') {
    return { messageType: 'text' as const, content: input.content, metaData: {} };
  }
  const file = await findBusinessFile(deps.db, businessId, input.content);
  if (!file) throw AppError.fields({ content: [INBOX_MESSAGES.unknownFile] });
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
  if (conversation.channel !== 'titan_message') throw new AppError('conflict', INBOX_MESSAGES.whatsappReply);
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
  const row = await repo.insertConversation(db, {
    businessId: input.businessId,
    channel: input.channel,
    initiatorId: input.initiatorId,
    assignedChatGroupId: input.chatGroupId ?? null,
    title: input.title,
  });
  return findConversation(db, businessScope(input.businessId), row.id);
}

export const NO_ME = 'An API key has no conversations of its own: name a member id.';

/** `assignee=me` as the caller's own id (an API key, which is no member, is told so). */
export function resolveMe<F extends TConversationFilter>(filter: F, viewerId: number | null): F {
  if (filter.assignee !== 'me') return filter;
  if (viewerId === null) throw AppError.fields({ assignee: [NO_ME] });
  return { ...filter, assignee: viewerId };
}

/** The list filter applied to one conversation: the realtime twin of the SQL in list/list.repository.ts. */
export function matchesFilter(c: TConversation, filter: TConversationFilter): boolean {
  const idMatches = (wanted: 'me' | 'none' | number | undefined, actual: number | null) =>
    wanted === undefined || (wanted === 'none' ? actual === null : wanted === actual);
  if (!idMatches(filter.assignee, c.assignee?.id ?? null)) return false;
  if (!idMatches(filter.assigned_chat_group, c.assigned_chat_group?.id ?? null)) return false;
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
  const message =
    table === 'messages'
      ? await repo.findMessage(deps.db, Number(id))
      : businessId === undefined
        ? null
        : await repo.findWaMessage(deps.db, businessId, id);
  if (!message) return null;
  const [serialised] = await toMessages(deps, message.businessId, [message]);
  return { businessId: message.businessId, conversationId: message.conversationId, row: serialised! };
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
