// GET /api/msg/chat-groups/ → the business's chat groups as choices (id and name): the inbox's "by
// chat group" views and a custom role's scope pick from these (any staff member may read them).
// Keyed under the chat groups' own key, so creating or renaming a group refreshes the choices.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZChatGroup, ZEnvelope } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export type TChatGroupChoice = { id: number; name: string };

export async function getChatGroupChoices(signal?: AbortSignal): Promise<TChatGroupChoice[]> {
  const { data } = await protectedClient.get('/api/msg/chat-groups/', { signal });
  return ZEnvelope(z.array(ZChatGroup))
    .parse(data)
    .result.map((g) => ({ id: g.id, name: g.name }));
}

export function chatGroupChoicesQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'chat-groups', 'choices'],
    queryFn: ({ signal }) => getChatGroupChoices(signal),
  });
}

export function useChatGroupChoices() {
  return useQuery(chatGroupChoicesQueryOptions());
}
