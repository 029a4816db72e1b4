// GET /api/msg/conversations/counts/ → how many conversations each inbox view holds (next-api.md
// "Team inbox").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZConversationCounts, ZEnvelope, type TConversationCounts } from '@titan/contracts';

import { protectedClient } from '../../../../lib/protected-client';
import { CONVERSATIONS_KEY, CONVERSATIONS_PATH } from '../../api/get-conversations';

export const COUNTS_KEY = [...CONVERSATIONS_KEY, 'counts'] as const;

export async function getConversationCounts(): Promise<TConversationCounts> {
  const { data } = await protectedClient.get(`${CONVERSATIONS_PATH}counts/`);
  return ZEnvelope(ZConversationCounts).parse(data).result;
}

export function conversationCountsQueryOptions() {
  return queryOptions({ queryKey: COUNTS_KEY, queryFn: getConversationCounts });
}

export function useConversationCounts() {
  return useQuery(conversationCountsQueryOptions());
}
