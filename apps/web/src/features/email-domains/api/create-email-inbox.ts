// POST /api/email/inboxes/ {domain_id, local_part, chat_group_id?} → the address with the records to publish.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEmailInbox, ZEnvelope, type TCreateEmailInboxRequest, type TEmailInbox } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_INBOXES_KEY, EMAIL_INBOXES_PATH } from './get-email-inboxes';

export function useCreateEmailInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TCreateEmailInboxRequest): Promise<TEmailInbox> => {
      const { data } = await protectedClient.post(EMAIL_INBOXES_PATH, body);
      return ZEnvelope(ZEmailInbox).parse(data).result;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_INBOXES_KEY }),
  });
}
