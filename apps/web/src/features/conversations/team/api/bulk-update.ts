// POST /api/msg/conversations/bulk/ → how many conversations a bulk change (assign, close, reopen)
// changed; the lists and counts are fetched again (the live feed also moves the rows).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZBulkConversationResult, ZEnvelope, type TBulkConversationRequest } from '@titan/contracts';

import { protectedClient } from '../../../../lib/protected-client';
import { CONVERSATIONS_KEY, CONVERSATIONS_PATH } from '../../api/get-conversations';

export async function bulkUpdate(body: TBulkConversationRequest) {
  const { data } = await protectedClient.post(`${CONVERSATIONS_PATH}bulk/`, body);
  return ZEnvelope(ZBulkConversationResult).parse(data).result;
}

/** A bulk change; the lists and counts are fetched again (the live feed also moves the rows). */
export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkUpdate,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY }),
  });
}
