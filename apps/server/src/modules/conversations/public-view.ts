// What a visitor sees of inbox rows. Messages name their sender by display name and avatar only:
// staff emails, roles and user ids stay inside the business (REST answers and realtime alike).
import {
  INTERNAL_MESSAGE_TYPES,
  type TConversation,
  type TMessage,
  type TPublicMessage,
  type TPublicSender,
} from '@titan/contracts';

export function toPublicSender(sender: TMessage['sender']): TPublicSender | null {
  if (!sender) return null;
  // Staff without a name are labelled by their email inside the inbox; visitors get no name
  // (the widget shows the business's) rather than the address.
  const name = sender.name && sender.name !== sender.email ? sender.name : null;
  return { name, avatar_url: sender.avatar_url };
}

export function toPublicMessage(message: TMessage): TPublicMessage {
  return {
    id: message.id,
    conversation_id: message.conversation_id,
    content: message.content,
    created_at: message.created_at,
    is_read: message.is_read,
    sender_type: message.sender_type,
    message_type: message.message_type,
    meta_data: message.meta_data,
    status: message.status,
    timestamp: message.timestamp,
    sender: toPublicSender(message.sender),
  };
}

/** Notes and activity lines: the team's alone, never in any visitor payload. */
export const isInternalMessage = (message: Pick<TMessage, 'message_type'>): boolean =>
  (INTERNAL_MESSAGE_TYPES as readonly string[]).includes(message.message_type);

/**
 * A conversation as its visitor sees it: who on the team owns it stays inside the business (the
 * member's id and name are staff data, as a sender's email is), and so are a snooze and the list's
 * preview.
 */
export function toPublicConversation(conversation: TConversation): TConversation {
  // A snooze is the team's own plan: to the visitor the conversation is simply open.
  const status = conversation.status === 'snoozed' ? 'active' : conversation.status;
  return {
    ...conversation,
    assignee: null,
    status,
    snoozed_until: null,
    last_message_preview: null,
    // The team's own targets are no business of the visitor's.
    sla: { first_response_due_at: null, resolution_due_at: null, breached: false },
  };
}
