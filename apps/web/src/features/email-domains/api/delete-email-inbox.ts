// DELETE /api/email/inboxes/{id}/: an inbox address removed.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_INBOXES_KEY, EMAIL_INBOXES_PATH } from './get-email-inboxes';

export function useDeleteEmailInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${EMAIL_INBOXES_PATH}${id}/`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_INBOXES_KEY }),
  });
}
