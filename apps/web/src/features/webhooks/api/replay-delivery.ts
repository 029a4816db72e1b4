// POST /api/webhooks/endpoints/deliveries/{id}/replay/: one delivery sent again.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookDelivery } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useReplayDelivery() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookDelivery).parse(
        (await protectedClient.post(`${WEBHOOKS_PATH}deliveries/${id}/replay/`)).data,
      ).result,
    onSuccess: invalidate,
  });
}
