// DELETE /api/msg/chat-groups/{id}/ (team.manage). Its conversations stay in the inbox.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChatGroupSettings } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { chatGroupApiPath, chatGroupsQueryOptions, CHAT_GROUPS_KEY } from './get-chat-groups';

export async function deleteChatGroup(id: number): Promise<void> {
  await protectedClient.delete(chatGroupApiPath(id));
}

export function useDeleteChatGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChatGroup,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<TChatGroupSettings[]>(chatGroupsQueryOptions().queryKey, (groups) =>
        groups?.filter((group) => group.id !== id),
      );
      void queryClient.invalidateQueries({ queryKey: CHAT_GROUPS_KEY });
    },
  });
}
