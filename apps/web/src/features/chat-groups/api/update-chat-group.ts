// PUT /api/msg/chat-groups/{id}/ with any of the group's fields → the group (team.manage).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZChatGroupSettings,
  ZEnvelope,
  type TChatGroupSettings,
  type ZUpdateChatGroupRequest,
} from '@titan/contracts';
import type { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { chatGroupApiPath, CHAT_GROUPS_KEY, storeChatGroup } from './get-chat-groups';

export type TUpdateChatGroupRequest = z.input<typeof ZUpdateChatGroupRequest>;

export async function updateChatGroup({
  id,
  ...body
}: TUpdateChatGroupRequest & { id: number }): Promise<TChatGroupSettings> {
  const { data } = await protectedClient.put(chatGroupApiPath(id), body);
  return ZEnvelope(ZChatGroupSettings).parse(data).result;
}

export function useUpdateChatGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChatGroup,
    onSuccess: (group) => {
      storeChatGroup(queryClient, group);
      void queryClient.invalidateQueries({ queryKey: CHAT_GROUPS_KEY });
    },
  });
}
