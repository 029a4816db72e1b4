// POST /api/msg/chat-groups/ → the new group (team.manage; 400 {slug: [...]} when the slug is taken).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZChatGroupSettings,
  ZEnvelope,
  type TChatGroupSettings,
  type TSaveChatGroupRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { CHAT_GROUPS_KEY, CHAT_GROUPS_PATH, storeChatGroup } from './get-chat-groups';

export async function createChatGroup(body: TSaveChatGroupRequest): Promise<TChatGroupSettings> {
  const { data } = await protectedClient.post(CHAT_GROUPS_PATH, body);
  return ZEnvelope(ZChatGroupSettings).parse(data).result;
}

export function useCreateChatGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChatGroup,
    onSuccess: (group) => {
      storeChatGroup(queryClient, group);
      void queryClient.invalidateQueries({ queryKey: CHAT_GROUPS_KEY });
    },
  });
}
