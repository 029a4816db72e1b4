// GET /api/whatsapp/conversations/{id}/window/ → whether the 24-hour customer-service window is open.
// Refetched when the customer writes (live messages), when a send answers 409, and when it expires.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWhatsappWindow, type TWhatsappWindow } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { CONVERSATIONS_KEY } from './get-conversations';

/** setTimeout's ceiling; a window never lasts longer than a day anyway. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A little after the server's expiry, so the refetch finds it closed. */
const EXPIRY_SLACK_MS = 1000;

export function whatsappConversationPath(conversationId: number): string {
  return `/api/whatsapp/conversations/${conversationId}/`;
}

export async function getWhatsappWindow(
  conversationId: number,
  signal?: AbortSignal,
): Promise<TWhatsappWindow> {
  const { data } = await protectedClient.get(`${whatsappConversationPath(conversationId)}window/`, {
    signal,
  });
  return ZEnvelope(ZWhatsappWindow).parse(data).result;
}

export function whatsappWindowQueryKey(conversationId: number) {
  return [...CONVERSATIONS_KEY, 'detail', conversationId, 'whatsapp-window'] as const;
}

/** How long until an open window closes (false: nothing to wait for). */
export function untilExpiry(window: TWhatsappWindow | undefined, now = Date.now()): number | false {
  if (!window?.open || !window.expires_at) return false;
  const expires = Date.parse(window.expires_at);
  if (Number.isNaN(expires)) return false;
  return Math.min(MAX_DELAY_MS, Math.max(0, expires - now) + EXPIRY_SLACK_MS);
}

export function whatsappWindowQueryOptions(conversationId: number) {
  return queryOptions({
    queryKey: whatsappWindowQueryKey(conversationId),
    queryFn: ({ signal }) => getWhatsappWindow(conversationId, signal),
    refetchInterval: (query) => untilExpiry(query.state.data),
    // Not worth a toast: until it is known the box is offered, and a send into a closed window
    // answers 409 with its own message.
  });
}

export function useWhatsappWindow(conversationId: number, enabled = true) {
  return useQuery({ ...whatsappWindowQueryOptions(conversationId), enabled });
}
