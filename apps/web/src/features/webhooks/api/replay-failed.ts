// POST /api/webhooks/endpoints/{id}/replay-failed/: every failed delivery of an endpoint sent again.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookReplayResult } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateWebhooks, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function useReplayFailed() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookReplayResult).parse(
        (await protectedClient.post(`${WEBHOOKS_PATH}${id}/replay-failed/`)).data,
      ).result,
    onSuccess: invalidate,
  });
}
