// GET /api/webhooks/endpoints/{id}/deliveries/: an endpoint's delivery log, a page at a time,
// refreshed every 5 s while shown.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWebhookDeliveryPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { WEBHOOKS_KEY, WEBHOOKS_PATH } from './get-webhook-endpoints';

export function webhookDeliveriesQueryOptions(endpointId: number, page: number) {
  return queryOptions({
    queryKey: [...WEBHOOKS_KEY, 'deliveries', endpointId, page],
    queryFn: async ({ signal }) =>
      ZEnvelope(ZWebhookDeliveryPage).parse(
        (
          await protectedClient.get(`${WEBHOOKS_PATH}${endpointId}/deliveries/`, {
            params: { page, page_size: 20 },
            signal,
          })
        ).data,
      ).result,
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
    meta: { errorShownOnScreen: true },
  });
}
export const useWebhookDeliveries = (endpointId: number, page: number) =>
  useQuery(webhookDeliveriesQueryOptions(endpointId, page));
