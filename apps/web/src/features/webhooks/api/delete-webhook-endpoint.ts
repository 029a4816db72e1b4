// DELETE /api/webhooks/endpoints/{id}/: an endpoint removed with its delivery log.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useDeleteWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${WEBHOOKS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
