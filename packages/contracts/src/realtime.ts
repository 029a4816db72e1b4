// The WebSocket protocol at /api/realtime/ (api.md "Realtime").
import { z } from 'zod';
import { ZConversation, ZConversationFilter, ZMessage, ZPublicMessage } from './conversations';
import { ZCustomerImport } from './customer-imports';
import { ZNotification } from './notifications';
import { ZPresence, ZTypingWho } from './presence';

const ZSubscribe = z.discriminatedUnion('topic', [
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.literal('conversations'),
    business_code: z.string().min(1).max(64),
    filter: ZConversationFilter.optional(),
    after_seq: z.number().int().min(0).optional(),
  }),
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.literal('messages'),
    conversation_id: z.number().int().positive(),
    business_code: z.string().min(1).max(64).optional(),
    after_seq: z.number().int().min(0).optional(),
  }),
  // A business's CSV imports (staff only): each committed batch and the end, as the import reads.
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.literal('imports'),
    business_code: z.string().min(1).max(64),
    /** Only this import's progress; every import of the business without it. */
    import_id: z.uuid('Not a valid import id.').optional(),
    after_seq: z.number().int().min(0).optional(),
  }),
  // The caller's own notifications in this business (staff only), as GET /api/notifications/ lists them.
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.literal('notifications'),
    business_code: z.string().min(1).max(64),
    after_seq: z.number().int().min(0).optional(),
  }),
  // The presence of a business's members (staff only): online, away, offline as it changes.
  z.object({
    type: z.literal('subscribe'),
    id: z.string().min(1).max(64),
    topic: z.literal('presence'),
    business_code: z.string().min(1).max(64),
    after_seq: z.number().int().min(0).optional(),
  }),
]);

export const ZRealtimeClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4000) }),
  ZSubscribe,
  z.object({ type: z.literal('unsubscribe'), id: z.string().min(1).max(64) }),
  z.object({ type: z.literal('pong') }),
  // "I am typing" in a conversation (staff and visitors): passed to the others who see it.
  z.object({ type: z.literal('typing'), conversation_id: z.number().int().positive() }),
]);
export type TRealtimeClientMessage = z.input<typeof ZRealtimeClientMessage>;
export type TRealtimeClientMessageParsed = z.infer<typeof ZRealtimeClientMessage>;

export const ZRealtimeChange = z.object({
  type: z.literal('change'),
  sub: z.string(),
  seq: z.number().int(),
  table: z.enum([
    'conversations',
    'messages',
    'wa_messages',
    'customer_imports',
    'notifications',
    'user_presence',
  ]),
  event: z.enum(['INSERT', 'UPDATE']),
  /** Visitors receive messages as ZPublicMessage (no staff email, role or id). */
  /** The imports topic sends the import as GET …/imports/{id}/ answers it. */
  /** The notifications topic sends the notification as GET /api/notifications/ lists it. */
  /** The presence topic sends ZPresence. */
  new: z.union([ZConversation, ZMessage, ZPublicMessage, ZCustomerImport, ZNotification, ZPresence]),
  old: z.object({ last_message_at: z.string().nullable() }).nullable(),
  /** Conversations topic only: false when an updated row no longer fits the subscription's filter. */
  matches: z.boolean().optional(),
});
export type TRealtimeChange = z.infer<typeof ZRealtimeChange>;

export type TRealtimeServerMessage =
  | { type: 'ready' }
  | { type: 'subscribed'; id: string; seq: number }
  | { type: 'unsubscribed'; id: string }
  | TRealtimeChange
  | { type: 'resync'; id: string }
  | { type: 'error'; id?: string; message: string; errors?: Record<string, string[]> }
  | { type: 'ping' }
  | TRealtimeTyping;

/** Someone else is typing in the conversation of a `messages` subscription. */
export const ZRealtimeTyping = z.object({
  type: z.literal('typing'),
  sub: z.string(),
  conversation_id: z.number().int(),
  who: ZTypingWho,
});
export type TRealtimeTyping = z.infer<typeof ZRealtimeTyping>;
