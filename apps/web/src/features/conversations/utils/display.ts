// Small display rules of the inbox: who a conversation is with, group names cut at 25 characters,
// avatar initials, and which messages are WhatsApp ones.
import type { TConversation, TMessage } from '@titan/contracts';

import { CONVERSATIONS_STRINGS } from '../strings';

export const GROUP_NAME_MAX = 25;

export function initiatorName(conversation: Pick<TConversation, 'initiator'>): string {
  return conversation.initiator?.name?.trim() || CONVERSATIONS_STRINGS.anonymousCustomer;
}

export function truncateGroupName(name: string): string {
  return name.length > GROUP_NAME_MAX ? `${name.slice(0, GROUP_NAME_MAX)}...` : name;
}

/**
 * Who wrote a message: the sender's name, else the conversation's customer, the AI first responder
 * (an agent message with no sender), or the sender's email.
 */
export function senderName(message: TMessage, conversation: Pick<TConversation, 'initiator'>): string {
  const name = message.sender?.name?.trim();
  if (name) return name;
  if (message.sender_type === 'agent' && !message.sender) return CONVERSATIONS_STRINGS.aiAssistant;
  return message.sender_type === 'customer' ? initiatorName(conversation) : (message.sender?.email ?? '');
}

/** Up to two initials from a name ("Ada Lovelace" → "AL"), or "?" when there is none. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [words[0]!] : [words[0]!, words[words.length - 1]!];
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join('');
}

/** WhatsApp messages have ids starting with "wamid" (api.md); own-channel ids are numbers. */
export function isWhatsAppMessage(message: Pick<TMessage, 'id'>): boolean {
  return String(message.id).startsWith('wamid');
}

export function isOutgoing(message: Pick<TMessage, 'sender_type'>): boolean {
  return message.sender_type !== 'customer';
}

type TRecord = Record<string, unknown>;

function record(value: unknown): TRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as TRecord) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The wamid a WhatsApp message replies to: `context.id` from Meta, `context.message_id` as sent. */
export function repliedMessageId(message: Pick<TMessage, 'meta_data'>): string | null {
  const context = record(message.meta_data.context);
  return text(context?.id) ?? text(context?.message_id);
}

/** One line that stands for a message in a quote: its text, or its kind in brackets. */
export function messageSummary(message: Pick<TMessage, 'content' | 'meta_data'>): string {
  const content = text(message.content);
  if (content) return content;
  const meta = message.meta_data;
  const type = text(meta.type);
  const body = text(record(meta.text)?.body) ?? (type ? text(record(meta[type])?.caption) : null);
  return body ?? (type ? `[${type}]` : '');
}

/**
 * Why WhatsApp did not deliver a message, from `meta_data.errors[0]` ({code, title, message,
 * error_data.details}) as Meta reports it: the title or message, the details when they add
 * something, and the code.
 */
export function failureReason(message: Pick<TMessage, 'meta_data'>): string | null {
  const errors = message.meta_data.errors;
  const first = record(Array.isArray(errors) ? errors[0] : null);
  if (!first) return null;
  const headline = text(first.message) ?? text(first.title);
  const details = text(record(first.error_data)?.details);
  const code = typeof first.code === 'number' || typeof first.code === 'string' ? String(first.code) : null;
  const parts = [headline, details && details !== headline ? details : null].filter(
    (part): part is string => part !== null,
  );
  if (parts.length === 0) return code ? CONVERSATIONS_STRINGS.errorCode(code) : null;
  return `${parts.join(' — ')}${code ? ` (${code})` : ''}`;
}
