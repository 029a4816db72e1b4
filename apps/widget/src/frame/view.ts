// What the chat shows: loading, a failure, the visitor form, the conversation list or one chat (null:
// a new one, created on the first message).
import type { TPublicChatInfo } from '@titan/contracts';

export type TView =
  | { name: 'loading' }
  | { name: 'error'; message: string }
  | { name: 'form' }
  | { name: 'list' }
  | { name: 'chat'; id: number | null };

/** A new visitor starts on the group's form when it has one, else on a new chat. */
export function firstView(chatInfo: TPublicChatInfo | null): TView {
  return chatInfo?.group?.visitor_form.length ? { name: 'form' } : { name: 'chat', id: null };
}
