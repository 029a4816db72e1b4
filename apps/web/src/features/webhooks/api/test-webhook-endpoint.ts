// POST /api/webhooks/endpoints/{id}/test/: a webhook.test event, answered with its delivery.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookDelivery } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useTestWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookDelivery).parse((await protectedClient.post(`${WEBHOOKS_PATH}${id}/test/`)).data)
        .result,
    onSuccess: invalidate,
  });
}
