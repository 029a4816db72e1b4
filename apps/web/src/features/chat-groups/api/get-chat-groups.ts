// GET /api/msg/chat-groups/ → the business's chat groups (any staff member may read them). The embed
// settings find a group by slug in this list: the API has no lookup by slug.
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ZChatGroupSettings, ZEnvelope, type TChatGroupSettings } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const CHAT_GROUPS_PATH = '/api/msg/chat-groups/';

/** Every chat group query of the business starts with this key. */
export const CHAT_GROUPS_KEY = [BUSINESS_SCOPE, 'chat-groups'] as const;

export function chatGroupApiPath(id: number): string {
  return `${CHAT_GROUPS_PATH}${id}/`;
}

export async function getChatGroups(): Promise<TChatGroupSettings[]> {
  const { data } = await protectedClient.get(CHAT_GROUPS_PATH);
  return ZEnvelope(z.array(ZChatGroupSettings)).parse(data).result;
}

export function chatGroupsQueryOptions() {
  return queryOptions({
    queryKey: [...CHAT_GROUPS_KEY, 'list'],
    queryFn: getChatGroups,
    meta: { errorShownOnScreen: true },
  });
}

export function useChatGroups() {
  return useQuery(chatGroupsQueryOptions());
}

/** A created or saved group replaces its row in the loaded list (or joins it) at once. */
export function storeChatGroup(queryClient: QueryClient, group: TChatGroupSettings): void {
  queryClient.setQueryData(chatGroupsQueryOptions().queryKey, (groups) => {
    if (!groups) return groups;
    return groups.some((g) => g.id === group.id)
      ? groups.map((g) => (g.id === group.id ? group : g))
      : [...groups, group];
  });
}
