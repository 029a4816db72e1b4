// The journeys API: GET/POST /api/journeys/, GET/PUT …/{id}/, …/publish/, …/pause/, …/stats/ and
// …/customers/{customerId}/ (a customer's path), …/move-in-flight/.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZJourney,
  ZJourneyCustomerPath,
  ZJourneyCustomerRun,
  ZJourneyMoveResult,
  ZJourneyStats,
  type TJourney,
  type TJourneyMoveRequest,
  type TJourneyRequest,
  type TJourneyTestRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const JOURNEYS_API_PATH = '/api/journeys/';
export const journeyApiPath = (id: number) => `${JOURNEYS_API_PATH}${id}/`;
export const JOURNEYS_KEY = [BUSINESS_SCOPE, 'journeys'] as const;
/** How often a live journey's counts are read again while its canvas is open. */
export const STATS_REFRESH_MS = 5_000;

export function journeysQueryOptions() {
  return queryOptions({
    queryKey: [...JOURNEYS_KEY, 'list'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(JOURNEYS_API_PATH, { signal });
      return ZEnvelope(z.array(ZJourney)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}
export const useJourneys = () => useQuery(journeysQueryOptions());

export function journeyQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...JOURNEYS_KEY, 'one', id],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(journeyApiPath(id), { signal });
      return ZEnvelope(ZJourney).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}
export const useJourney = (id: number) => useQuery(journeyQueryOptions(id));

export function useJourneyStats(id: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [...JOURNEYS_KEY, 'stats', id],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${journeyApiPath(id!)}stats/`, { signal });
      return ZEnvelope(ZJourneyStats).parse(data).result;
    },
    enabled: id !== null && enabled,
    refetchInterval: STATS_REFRESH_MS,
    // A failed read says so under the journey's name (and is tried again at the next interval).
    meta: { errorShownOnScreen: true },
  });
}

export function useCustomerPath(journeyId: number, customerId: number | null) {
  return useQuery({
    queryKey: [...JOURNEYS_KEY, 'path', journeyId, customerId],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${journeyApiPath(journeyId)}customers/${customerId}/`, {
        signal,
      });
      return ZEnvelope(ZJourneyCustomerPath).parse(data).result;
    },
    enabled: customerId !== null,
    refetchInterval: STATS_REFRESH_MS,
    // The path section shows its own failure, with a retry.
    meta: { errorShownOnScreen: true },
  });
}

/** POST (a new draft) or PUT (a draft changed in place; a published journey gets a new version). */
export function useSaveJourney(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyRequest): Promise<TJourney> => {
      const { data } = id
        ? await protectedClient.put(journeyApiPath(id), body)
        : await protectedClient.post(JOURNEYS_API_PATH, body);
      return ZEnvelope(ZJourney).parse(data).result;
    },
    onSuccess: (journey) => {
      queryClient.setQueryData(journeyQueryOptions(journey.id).queryKey, journey);
      void queryClient.invalidateQueries({ queryKey: [...JOURNEYS_KEY, 'list'] });
    },
  });
}

/** Test mode: a chosen customer through the newest version with a fast clock. */
export function useTestJourney(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyTestRequest) => {
      const { data } = await protectedClient.post(`${journeyApiPath(id)}test/`, body);
      return ZEnvelope(ZJourneyCustomerRun).parse(data).result;
    },
    onSuccess: (_run, body) =>
      void queryClient.invalidateQueries({ queryKey: [...JOURNEYS_KEY, 'path', id, body.customer_id] }),
  });
}

/** Publish or pause. */
export function useJourneyAction(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: 'publish' | 'pause'): Promise<TJourney> => {
      const { data } = await protectedClient.post(`${journeyApiPath(id!)}${action}/`);
      return ZEnvelope(ZJourney).parse(data).result;
    },
    onSuccess: (journey) => {
      queryClient.setQueryData(journeyQueryOptions(journey.id).queryKey, journey);
      void queryClient.invalidateQueries({ queryKey: JOURNEYS_KEY });
    },
  });
}

/** Customers in flight on older versions go on in the live version at the chosen step. */
export function useMoveInFlight(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TJourneyMoveRequest) => {
      const { data } = await protectedClient.post(`${journeyApiPath(id)}move-in-flight/`, body);
      return ZEnvelope(ZJourneyMoveResult).parse(data).result;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [...JOURNEYS_KEY, 'stats', id] }),
  });
}
