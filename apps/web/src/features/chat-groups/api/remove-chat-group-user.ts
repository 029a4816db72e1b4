// DELETE /api/msg/chat-groups/{id}/users/{userId}/ takes a person off the group's staff (team.manage).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { chatGroupUsersApiPath, chatGroupUsersQueryOptions } from './get-chat-group-users';

export async function removeChatGroupUser({ groupId, userId }: { groupId: number; userId: number }) {
  await protectedClient.delete(`${chatGroupUsersApiPath(groupId)}${userId}/`);
}

export function useRemoveChatGroupUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeChatGroupUser,
    onSuccess: (_data, { groupId }) =>
      queryClient.invalidateQueries({ queryKey: chatGroupUsersQueryOptions(groupId).queryKey }),
  });
}
