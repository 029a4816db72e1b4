// GET /api/msg/conversations/{id}/messages/?limit&before → the newest `limit` messages before a
// message, oldest first. Page 0 holds the newest; each further page reaches further back.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { MESSAGES_LIMIT_DEFAULT, ZEnvelope, ZMessage, type TMessage } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { CONVERSATIONS_KEY, CONVERSATIONS_PATH } from './get-conversations';

export function messagesPath(conversationId: number): string {
  return `${CONVERSATIONS_PATH}${conversationId}/messages/`;
}

export async function getMessages(
  conversationId: number,
  before: string | null,
  signal?: AbortSignal,
): Promise<TMessage[]> {
  const { data } = await protectedClient.get(messagesPath(conversationId), {
    params: { limit: MESSAGES_LIMIT_DEFAULT, ...(before ? { before } : {}) },
    signal,
  });
  return ZEnvelope(z.array(ZMessage)).parse(data).result;
}

export function messagesQueryKey(conversationId: number) {
  return [...CONVERSATIONS_KEY, 'detail', conversationId, 'messages'] as const;
}

export function messagesQueryOptions(conversationId: number) {
  return infiniteQueryOptions({
    queryKey: messagesQueryKey(conversationId),
    queryFn: ({ pageParam, signal }) => getMessages(conversationId, pageParam, signal),
    initialPageParam: null as string | null,
    // A short page is the start of the conversation.
    getNextPageParam: (lastPage) =>
      lastPage.length < MESSAGES_LIMIT_DEFAULT || !lastPage[0] ? undefined : String(lastPage[0].id),
    meta: { errorToast: true },
  });
}

export function useMessages(conversationId: number) {
  return useInfiniteQuery(messagesQueryOptions(conversationId));
}
