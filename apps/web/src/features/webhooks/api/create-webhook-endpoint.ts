// POST /api/webhooks/endpoints/: a new endpoint, answered with its signing secret (shown once).
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookEndpointWithSecret, type TWebhookEndpointRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useCreateWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async (body: TWebhookEndpointRequest) =>
      ZEnvelope(ZWebhookEndpointWithSecret).parse((await protectedClient.post(WEBHOOKS_PATH, body)).data)
        .result,
    onSuccess: invalidate,
  });
}
