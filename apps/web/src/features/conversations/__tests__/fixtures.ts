// Conversations and messages as the API answers them, for the inbox tests.
import type { TChatGroup, TConversation, TMessage } from '@titan/contracts';

export function conversation(overrides: Partial<TConversation> = {}): TConversation {
  return {
    id: 1,
    title: 'Where is my order?',
    status: 'active',
    is_read: true,
    channel: 'titan_message',
    initiator: { id: 11, name: 'Grace Hopper', email: 'grace@example.com' },
    assigned_chat_group: null,
    last_message_at: '2026-03-01T10:00:00.000Z',
    created_at: '2026-03-01T09:00:00.000Z',
    business_replied: false,
    engage_business_id: 1,
    assignee: null,
    snoozed_until: null,
    labels: [],
    last_message_preview: null,
    spam: false,
    sla: { first_response_due_at: null, resolution_due_at: null, breached: false },
    ...overrides,
  };
}

/** A conversation's assigned chat group: the full record (spec section 3). */
export function chatGroup(overrides: Partial<TChatGroup> = {}): TChatGroup {
  return {
    id: 3,
    name: 'Support',
    slug: 'support',
    greeting: '',
    color: '#111827',
    launcher_position: 'right',
    visitor_form: [],
    allowed_origins: [],
    created_at: '2026-01-01T09:00:00.000Z',
    ...overrides,
  };
}

export function message(overrides: Partial<TMessage> = {}): TMessage {
  return {
    id: 1,
    conversation_id: 1,
    content: 'Hello',
    created_at: '2026-03-01T10:00:00.000Z',
    is_read: false,
    sender_id: 11,
    sender_type: 'customer',
    message_type: 'text',
    meta_data: {},
    status: 'sent',
    timestamp: 1772359200,
    sender: { id: 11, name: 'Grace Hopper', email: 'grace@example.com', role: 'customer', avatar_url: null },
    ...overrides,
  };
}

export function page(results: TConversation[], count = results.length) {
  return { count, next: null, previous: null, results };
}
