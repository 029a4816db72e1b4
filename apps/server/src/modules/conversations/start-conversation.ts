// Staff start a conversation from the inbox on email or SMS (POST /api/msg/conversations/): with a
// customer of the directory, or an address / number (the business's customer with it, or a new one).
// The first message leaves exactly as a reply does: the channel's module checks and builds the send
// (the customer said STOP, no address, suppressed: refused with the reason, nothing sent), then the
// conversation, its message and the send are recorded in one transaction before the channel's job
// calls the provider. An `idempotency_key` is the send's key: a retry — or the same key twice at
// once — answers the conversation the first call started and sends nothing more.
import type { TStartConversationRequest, TStartedConversation } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { sqlStateOf } from '../../platform/db-errors';
import { findGroup } from '../chat-groups';
import * as sends from '../sends';
import { recordEvent } from '../webhooks';
import { emitConversationsOpened, type ReplyTarget } from './channel-messages';
import * as repo from './conversations.repository';
import {
  conversationEventData,
  findConversation,
  INBOX_ERRORS,
  type InboxDeps,
  recordChannelReply,
  toMessages,
} from './conversations.service';

export const START_ERRORS = {
  noGroup: 'No chat group of this business has this id.',
  outsideGroups: 'Choose one of your chat groups: you would not see this conversation otherwise.',
} as const;

/** The send's idempotency key: apart from the keys of the API's own sends (send-mail, send-sms). */
const sendKey = (key: string) => `conversation:${key}`;

export async function startChannelConversation(
  deps: InboxDeps,
  scope: repo.InboxScope,
  userId: number | null,
  input: TStartConversationRequest,
): Promise<{ started: TStartedConversation; created: boolean }> {
  const businessId = scope.businessId;
  const replier = deps.replies?.[input.channel];
  if (!replier) throw new AppError('conflict', INBOX_ERRORS.noReplier);
  const key = input.idempotency_key ? sendKey(input.idempotency_key) : null;
  if (key) {
    const done = await answered(deps, scope, key);
    if (done) return { started: done, created: false };
  }
  const chatGroupId = await groupFor(deps, scope, input.chat_group_id);
  const customer = await replier.customerOf(
    businessId,
    input.customer_id !== undefined ? { customerId: input.customer_id } : { to: input.to! },
  );
  const customerId = customer.id;
  // An SMS conversation is titled as inbound texts title theirs: the customer's name, else the number.
  const title = input.channel === 'email' ? input.subject : customer.name || customer.phone || 'SMS';
  const target: ReplyTarget = { id: 0, businessId, initiatorId: customerId, title, channel: input.channel };
  const prepared = await replier.prepare(
    target,
    {
      message_type: 'text',
      content: input.content,
      ...(input.attachment_ids ? { attachment_ids: input.attachment_ids } : {}),
      ...(input.channel === 'email'
        ? {
            subject: input.subject,
            ...(input.html !== undefined ? { html: input.html } : {}),
            ...(input.cc ? { cc: input.cc } : {}),
            ...(input.bcc ? { bcc: input.bcc } : {}),
          }
        : {}),
    },
    userId,
    input.channel === 'email' && input.from ? { from: input.from } : {},
  );
  const assigneeId = userId !== null && (await repo.findMember(deps.db, businessId, userId)) ? userId : null;
  let recorded: { conversationId: number; messageId: number };
  try {
    recorded = await deps.db.transaction(async (tx) => {
      const row = await repo.insertConversation(tx, {
        businessId,
        channel: input.channel,
        initiatorId: customerId,
        assignedChatGroupId: chatGroupId,
        assigneeId,
        title,
      });
      await recordEvent(tx, {
        businessId,
        type: 'conversation.created',
        objectKey: `conversation:${row.id}`,
        data: conversationEventData(row),
      });
      await emitConversationsOpened(tx, [
        { businessId, conversationId: row.id, customerId, channel: row.channel, reopened: false },
      ]);
      const message = await recordChannelReply(
        tx,
        { ...target, id: row.id },
        prepared,
        userId,
        undefined,
        undefined,
        key,
      );
      return { conversationId: row.id, messageId: message.id };
    });
  } catch (err) {
    // The same key at once: the other call recorded it (this transaction rolled back whole).
    if (key && sqlStateOf(err) === '23505') {
      const done = await answered(deps, scope, key);
      if (done) return { started: done, created: false };
    }
    throw err;
  }
  await replier.dispatch([prepared.send.id]);
  const message = await repo.findMessageOfSend(
    deps.db,
    businessId,
    recorded.conversationId,
    prepared.send.id,
  );
  return {
    started: {
      conversation: await findConversation(deps.db, scope, recorded.conversationId),
      message: (await toMessages(deps, businessId, [message!]))[0]!,
    },
    created: true,
  };
}

/** What an earlier call with this key started, when it did. */
async function answered(
  deps: InboxDeps,
  scope: repo.InboxScope,
  key: string,
): Promise<TStartedConversation | null> {
  const send = await sends.findByIdempotencyKey(deps.db, scope.businessId, key);
  if (!send || send.conversationId === null) return null;
  const message = await repo.findMessageOfSend(deps.db, scope.businessId, send.conversationId, send.id);
  if (!message) return null;
  return {
    conversation: await findConversation(deps.db, scope, send.conversationId),
    message: (await toMessages(deps, scope.businessId, [message]))[0]!,
  };
}

/** The chat group asked for, of this business and (for a member limited to groups) one of theirs. */
async function groupFor(
  deps: InboxDeps,
  scope: repo.InboxScope,
  chatGroupId: number | undefined,
): Promise<number | null> {
  if (chatGroupId === undefined) {
    // A member limited to groups sees conversations of no group too: none is fine.
    return null;
  }
  if (!(await findGroup(deps.db, scope.businessId, chatGroupId)))
    throw new AppError('not_found', START_ERRORS.noGroup, { chat_group_id: [START_ERRORS.noGroup] });
  if (scope.groupIds !== null && !scope.groupIds.includes(chatGroupId))
    throw AppError.fields({ chat_group_id: [START_ERRORS.outsideGroups] });
  return chatGroupId;
}
