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
