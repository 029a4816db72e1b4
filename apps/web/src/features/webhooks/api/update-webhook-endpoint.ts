// PUT /api/webhooks/endpoints/{id}/: an endpoint changed (a new secret when asked for).
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookEndpointWithSecret, type TWebhookEndpointUpdate } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useUpdateWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async ({ id, ...body }: TWebhookEndpointUpdate & { id: number }) =>
      ZEnvelope(ZWebhookEndpointWithSecret).parse(
        (await protectedClient.put(`${WEBHOOKS_PATH}${id}/`, body)).data,
      ).result,
    onSuccess: invalidate,
  });
}
