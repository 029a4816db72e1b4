// PUT /api/public/preferences/{token}/ {topics, unsubscribe_all}: keeps exactly these topics, or
// leaves all of the business's mail; the page then shows what the server kept. No session.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZPreferences, type TUpdatePreferencesRequest } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { preferencesApiPath, preferencesKey } from './get-preferences';

export function useSavePreferences(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TUpdatePreferencesRequest) => {
      const { data } = await publicClient.put(preferencesApiPath(token), body);
      return ZEnvelope(ZPreferences).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey(token), saved),
  });
}
