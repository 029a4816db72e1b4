// GET /api/msg/chat-groups/{id}/users/ → the group's staff, each with their business role.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZChatGroupUser, ZEnvelope, type TChatGroupUser } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { chatGroupApiPath, CHAT_GROUPS_KEY } from './get-chat-groups';

export function chatGroupUsersApiPath(groupId: number): string {
  return `${chatGroupApiPath(groupId)}users/`;
}

export async function getChatGroupUsers(groupId: number): Promise<TChatGroupUser[]> {
  const { data } = await protectedClient.get(chatGroupUsersApiPath(groupId));
  return ZEnvelope(z.array(ZChatGroupUser)).parse(data).result;
}

export function chatGroupUsersQueryOptions(groupId: number) {
  return queryOptions({
    queryKey: [...CHAT_GROUPS_KEY, groupId, 'users'],
    queryFn: () => getChatGroupUsers(groupId),
    meta: { errorShownOnScreen: true },
  });
}

export function useChatGroupUsers(groupId: number) {
  return useQuery(chatGroupUsersQueryOptions(groupId));
}
