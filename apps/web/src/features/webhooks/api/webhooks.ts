// /api/webhooks/endpoints/: the business's endpoints (list, add → the secret once, change, remove),
// each endpoint's delivery log, replay of one or every failed delivery, and the test send.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZWebhookDelivery,
  ZWebhookDeliveryPage,
  ZWebhookEndpoint,
  ZWebhookEndpointWithSecret,
  ZWebhookReplayResult,
  type TWebhookEndpointRequest,
  type TWebhookEndpointUpdate,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const PATH = '/api/webhooks/endpoints/';
const KEY = [BUSINESS_SCOPE, 'webhooks'] as const;

export function webhookEndpointsQueryOptions() {
  return queryOptions({
    queryKey: [...KEY, 'endpoints'],
    queryFn: async ({ signal }) =>
      ZEnvelope(z.array(ZWebhookEndpoint)).parse((await protectedClient.get(PATH, { signal })).data).result,
    meta: { errorShownOnScreen: true },
  });
}
export const useWebhookEndpoints = () => useQuery(webhookEndpointsQueryOptions());

export function webhookDeliveriesQueryOptions(endpointId: number, page: number) {
  return queryOptions({
    queryKey: [...KEY, 'deliveries', endpointId, page],
    queryFn: async ({ signal }) =>
      ZEnvelope(ZWebhookDeliveryPage).parse(
        (
          await protectedClient.get(`${PATH}${endpointId}/deliveries/`, {
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

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KEY });
}

export function useCreateWebhookEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: TWebhookEndpointRequest) =>
      ZEnvelope(ZWebhookEndpointWithSecret).parse((await protectedClient.post(PATH, body)).data).result,
    onSuccess: invalidate,
  });
}

export function useUpdateWebhookEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ id, ...body }: TWebhookEndpointUpdate & { id: number }) =>
      ZEnvelope(ZWebhookEndpointWithSecret).parse((await protectedClient.put(`${PATH}${id}/`, body)).data)
        .result,
    onSuccess: invalidate,
  });
}

export function useDeleteWebhookEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}

export function useTestWebhookEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookDelivery).parse((await protectedClient.post(`${PATH}${id}/test/`)).data).result,
    onSuccess: invalidate,
  });
}

export function useReplayDelivery() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookDelivery).parse((await protectedClient.post(`${PATH}deliveries/${id}/replay/`)).data)
        .result,
    onSuccess: invalidate,
  });
}

export function useReplayFailed() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: number) =>
      ZEnvelope(ZWebhookReplayResult).parse((await protectedClient.post(`${PATH}${id}/replay-failed/`)).data)
        .result,
    onSuccess: invalidate,
  });
}
