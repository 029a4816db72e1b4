// POST /api/msg/chat-groups/{id}/users/ {user_id} → the new staff entry (team.manage; 400 when the
// person is not a member of the business).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZChatGroupUser, ZEnvelope, type TChatGroupUser } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { chatGroupUsersApiPath, chatGroupUsersQueryOptions } from './get-chat-group-users';

export async function addChatGroupUser({
  groupId,
  userId,
}: {
  groupId: number;
  userId: number;
}): Promise<TChatGroupUser> {
  const { data } = await protectedClient.post(chatGroupUsersApiPath(groupId), { user_id: userId });
  return ZEnvelope(ZChatGroupUser).parse(data).result;
}

export function useAddChatGroupUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addChatGroupUser,
    onSuccess: (_entry, { groupId }) =>
      queryClient.invalidateQueries({ queryKey: chatGroupUsersQueryOptions(groupId).queryKey }),
  });
}
