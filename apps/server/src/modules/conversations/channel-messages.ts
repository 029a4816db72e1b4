// Conversations on the channels Titan sends on and hears back from (SMS, email; next-api.md "Every
// channel in the inbox"): a customer's message opens or continues their conversation on that channel,
// in the transaction of the channel's own write (the inbound webhook, the SMTP listener); a staff
// reply is a message and its send on the spine, written together, then handed to the channel's job.
// The channels' modules build their sends (conversations never import them): composition hands
// each one's `ChannelReplier` in through InboxDeps.replies.
import type { TSendMessageRequest } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import type { QueuedSend } from '../sends';
import { emitCustomerEvents } from '../journeys';
import { recordEvent, recordEventsOfType } from '../webhooks';
import * as repo from './conversations.repository';

/** Characters of a customer's message a `message.created` event carries (the rest: GET the message). */
export const EVENT_CONTENT_CHARS = 2_000;

/** The channels whose conversations are opened by an inbound message and answered through a send. */
export type ReplyChannel = 'sms' | 'email';

/** The conversation a reply answers, as a channel needs it to address the send. */
export type ReplyTarget = Pick<
  repo.ConversationRow,
  'id' | 'businessId' | 'initiatorId' | 'title' | 'channel'
>;

/** A reply ready to record: its send (not yet written) and what the conversation shows of it. */
export type PreparedReply = {
  send: QueuedSend & { id: string };
  content: string;
  metaData: Record<string, unknown>;
};

export type ChannelReplier = {
  /**
   * Checks that this reply may go (refusing it with the reason: the customer said STOP, no address,
   * no account) and builds its send. Writes nothing.
   */
  prepare(
    target: ReplyTarget,
    input: TSendMessageRequest,
    userId: number | null,
    /** The first message of a conversation staff start (it has no thread yet); email: the From asked for. */
    opening?: { from?: string },
  ): Promise<PreparedReply>;
  /**
   * The customer a conversation staff start is with: by id (404 on `customer_id` when the business
   * has none), or the business's customer at this address or number (the oldest, as the channel's
   * inbound messages find them), else a new one with it, who keeps a suppression it already had.
   * A number or address that is not one is a 400 on `to`.
   */
  customerOf(
    businessId: number,
    who: { customerId: number } | { to: string },
  ): Promise<{ id: number; name: string | null; phone: string | null }>;
  /** Hands recorded sends to the channel's job, once their transaction committed. */
  dispatch(sendIds: string[]): Promise<void>;
};

export type ChannelReplies = Partial<Record<ReplyChannel, ChannelReplier>>;

/**
 * `conversation.opened` of each conversation's customer, in the caller's transaction (only where a
 * journey listens): a conversation created, or a resolved one opened again (`reopened`).
 */
export async function emitConversationsOpened(
  tx: Queryable,
  opened: {
    businessId: number;
    conversationId: number;
    customerId: number | null;
    channel: string;
    reopened: boolean;
    at?: Date;
  }[],
): Promise<void> {
  await emitCustomerEvents(
    tx,
    ...opened
      .filter((o) => o.customerId !== null)
      .map((o) => ({
        businessId: o.businessId,
        customerId: o.customerId!,
        name: 'conversation.opened' as const,
        properties: { conversation_id: o.conversationId, channel: o.channel, reopened: o.reopened },
        ...(o.at ? { at: o.at } : {}),
      })),
  );
}

/**
 * A customer's message on SMS or email: continues `conversationId` when the channel threaded it
 * there (it must be the customer's, on that channel, in that business), else their newest
 * conversation on the channel, else opens one. The conversation becomes active, unread and awaiting
 * a reply; `message.created` (and `conversation.created`) are recorded in the same transaction.
 */
export async function receiveChannelMessage(
  tx: Queryable,
  input: {
    businessId: number;
    channel: ReplyChannel;
    customerId: number;
    /** The conversation the channel threaded the message to (email's headers), when it did. */
    conversationId?: number | null;
    /** Open a new conversation rather than continue the newest (email: a new subject). */
    openNew?: boolean;
    /** The chat group a conversation this opens belongs to (an inbox address's). */
    chatGroupId?: number | null;
    title: string;
    content: string;
    messageType?: 'text' | 'file';
    metaData: Record<string, unknown>;
    at?: Date;
    /** Email: whether this mail scored as spam; the conversation is marked as its latest mail is. */
    spam?: boolean;
  },
): Promise<{ conversationId: number; messageId: number; opened: boolean }> {
  const at = input.at ?? new Date();
  let conversationId = input.conversationId ?? null;
  if (conversationId !== null) {
    const [row] = await repo.lockVisibleConversations(tx, { businessId: input.businessId, groupIds: null }, [
      conversationId,
    ]);
    if (!row || row.channel !== input.channel || row.initiatorId !== input.customerId) conversationId = null;
  }
  if (conversationId === null && !input.openNew) {
    conversationId =
      (await repo.findLatestConversationOf(tx, input.businessId, input.channel, input.customerId))?.id ??
      null;
  }
  let opened = false;
  if (conversationId === null) {
    const ids = await repo.insertOpenedConversations(tx, input.channel, [
      { businessId: input.businessId, initiatorId: input.customerId, title: input.title, lastMessageAt: at },
    ]);
    conversationId = ids.get(input.customerId)!;
    opened = true;
    if (input.chatGroupId)
      await repo.updateConversation(tx, input.businessId, conversationId, {
        assignedChatGroupId: input.chatGroupId,
      });
    await recordEvent(tx, {
      businessId: input.businessId,
      type: 'conversation.created',
      objectKey: `conversation:${conversationId}`,
      data: {
        id: conversationId,
        channel: input.channel,
        status: 'active',
        title: input.title,
        customer_id: input.customerId,
        assignee_id: null,
        chat_group_id: input.chatGroupId ?? null,
        is_read: false,
        created_at: at.toISOString(),
      },
    });
    await emitConversationsOpened(tx, [
      {
        businessId: input.businessId,
        conversationId,
        customerId: input.customerId,
        channel: input.channel,
        reopened: false,
        at,
      },
    ]);
  }
  const message = await repo.insertMessage(tx, {
    businessId: input.businessId,
    conversationId,
    senderType: 'customer',
    senderId: input.customerId,
    messageType: input.messageType ?? 'text',
    content: input.content,
    metaData: input.metaData,
    status: 'delivered',
    createdAt: at,
  });
  // An email's spam mark rides on the same update (the conversation follows its latest mail).
  const { reopened } = await repo.applyMessageArrivals(tx, 'inbound', [
    { businessId: input.businessId, conversationId, at, spam: input.spam },
  ]);
  await emitConversationsOpened(
    tx,
    reopened.map((r) => ({ ...r, reopened: true })),
  );
  // Built only when an endpoint listens, and with a preview of a long text (a 50 KB mail): the
  // body is the message's, which the API answers; an event carries ids and what a list shows.
  const content = message.content;
  await recordEventsOfType(tx, 'message.created', [{ businessId: input.businessId }], () => ({
    objectKey: `conversation:${conversationId}`,
    data: {
      id: message.id,
      conversation_id: conversationId,
      channel: input.channel,
      sender_type: 'customer',
      sender_id: input.customerId,
      message_type: message.messageType,
      content: content.length > EVENT_CONTENT_CHARS ? content.slice(0, EVENT_CONTENT_CHARS) : content,
      content_truncated: content.length > EVENT_CONTENT_CHARS,
      created_at: message.createdAt.toISOString(),
    },
  }));
  await emitCustomerEvents(tx, {
    businessId: input.businessId,
    customerId: input.customerId,
    name: 'message.received',
    properties: { channel: input.channel, conversation_id: conversationId, message_id: message.id },
    at,
  });
  return { conversationId, messageId: message.id, opened };
}

/**
 * An activity line (STOP, START, …) in the customer's newest conversation on the channel, when
 * they have one; answers its conversation (null: none, nothing written).
 */
export async function recordChannelActivity(
  tx: Queryable,
  input: {
    businessId: number;
    channel: ReplyChannel;
    customerId: number;
    content: string;
    metaData: Record<string, unknown>;
  },
): Promise<number | null> {
  const latest = await repo.findLatestConversationOf(tx, input.businessId, input.channel, input.customerId);
  if (!latest) return null;
  await repo.insertInternalMessage(
    tx,
    { id: latest.id, businessId: input.businessId, channel: input.channel },
    {
      messageType: 'activity',
      senderType: 'system',
      senderId: null,
      content: input.content,
      metaData: input.metaData,
    },
  );
  return latest.id;
}

/**
 * A reply its provider refused: the staff message shows `failed` and why (the send log keeps the
 * rest). Nothing when the send answered no conversation.
 */
export async function markReplyFailed(
  db: Queryable,
  send: { id: string; businessId: number; conversationId: number | null },
  reason: string,
): Promise<void> {
  if (send.conversationId === null) return;
  await repo.markSendMessageFailed(db, send.businessId, send.conversationId, send.id, reason);
}

/** How many days a mail with the same subject from the same sender still continues a conversation. */
export const SUBJECT_THREAD_DAYS = 30;

/**
 * The email conversation a customer's mail continues: by its In-Reply-To / References (a Message-ID
 * of a message in one), then `replyConversationId` (the signed reply address it was sent to), then
 * the same subject from the same customer within 30 days. Null: it opens a new one.
 */
export async function findEmailThread(
  db: Queryable,
  input: {
    businessId: number;
    customerId: number;
    messageIds: string[];
    replyConversationId: number | null;
    subject: string;
    now?: Date;
  },
): Promise<number | null> {
  const byHeaders = await repo.findConversationOfMessageIds(db, input.businessId, input.messageIds);
  if (byHeaders !== null) return byHeaders;
  if (input.replyConversationId !== null) return input.replyConversationId;
  if (!input.subject) return null;
  const since = new Date((input.now ?? new Date()).getTime() - SUBJECT_THREAD_DAYS * 86_400_000);
  return repo.findRecentConversationByTitle(
    db,
    input.businessId,
    'email',
    input.customerId,
    input.subject,
    since,
  );
}

/**
 * What a reply needs of its thread: the customer's last message's details, the From of the newest
 * message the business sent in it (a conversation staff started has no customer's message yet) and
 * the Message-IDs, oldest first.
 */
export async function replyThread(
  db: Queryable,
  conversationId: number,
): Promise<{ lastInbound: Record<string, unknown> | null; lastFrom: string | null; messageIds: string[] }> {
  const rows = await repo.listThreadMessages(db, conversationId, 30);
  const lastInbound = rows.find((r) => r.senderType === 'customer')?.metaData ?? null;
  const sent = rows.find((r) => r.senderType !== 'customer' && typeof r.metaData.from === 'string');
  const lastFrom = sent ? (sent.metaData.from as string) : null;
  const messageIds = rows
    .map((r) => r.metaData.message_id)
    .filter((id): id is string => typeof id === 'string')
    .reverse();
  return { lastInbound, lastFrom, messageIds };
}
