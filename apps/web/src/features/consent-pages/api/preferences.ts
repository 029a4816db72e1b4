// GET /api/public/preferences/{token}/ → what the preference centre shows (the business, the
// address, every topic with whether it still reaches them, leave-all); PUT {topics,
// unsubscribe_all} keeps exactly these topics, or leaves all of the business's mail. The token is
// the one of the mail's unsubscribe link; no session.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZPreferences, type TPreferences, type TUpdatePreferencesRequest } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const preferencesApiPath = (token: string) => `/api/public/preferences/${encodeURIComponent(token)}/`;

export const preferencesKey = (token: string) => ['public-preferences', token] as const;

export async function getPreferences(token: string, signal?: AbortSignal): Promise<TPreferences> {
  const { data } = await publicClient.get(preferencesApiPath(token), { signal });
  return ZEnvelope(ZPreferences).parse(data).result;
}

export function usePreferences(token: string) {
  return useQuery({
    ...queryOptions({
      queryKey: preferencesKey(token),
      queryFn: ({ signal }) => getPreferences(token, signal),
      retry: false,
      meta: { errorShownOnScreen: true },
    }),
    enabled: token !== '',
  });
}

export async function putPreferences(token: string, body: TUpdatePreferencesRequest): Promise<TPreferences> {
  const { data } = await publicClient.put(preferencesApiPath(token), body);
  return ZEnvelope(ZPreferences).parse(data).result;
}

/** Saves the choice; the page then shows what the server kept. */
export function useSavePreferences(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdatePreferencesRequest) => putPreferences(token, body),
    meta: { errorShownOnScreen: true },
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey(token), saved),
  });
}
