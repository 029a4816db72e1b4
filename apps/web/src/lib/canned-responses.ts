// GET /api/msg/canned-responses/ (?search=) (next-api.md "Team inbox"): the business's canned
// responses. Shared: Settings → Canned responses lists and changes them
// (features/settings/api/*-canned.ts); the inbox composer's `/` picker finds them and renders one
// (features/conversations/api/render-canned.ts).
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZCannedResponse, ZEnvelope, type TCannedResponse } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const CANNED_PATH = '/api/msg/canned-responses/';
export const CANNED_KEY = [BUSINESS_SCOPE, 'canned-responses'] as const;

export async function getCannedResponses(search = '', signal?: AbortSignal): Promise<TCannedResponse[]> {
  const { data } = await protectedClient.get(CANNED_PATH, {
    params: search ? { search } : {},
    signal,
  });
  return ZEnvelope(z.array(ZCannedResponse)).parse(data).result;
}

export function cannedQueryOptions(search = '') {
  return queryOptions({
    queryKey: [...CANNED_KEY, search],
    queryFn: ({ signal }) => getCannedResponses(search, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useCannedResponses(search = '', enabled = true) {
  return useQuery({ ...cannedQueryOptions(search), enabled, placeholderData: keepPreviousData });
}

/** After a change: every canned-responses list read again. */
export function useInvalidateCanned() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: CANNED_KEY });
}
