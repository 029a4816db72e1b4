// GET and POST /api/public/csat/{token}/ (no session: the token is the survey's key).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZCsatSurvey, ZEnvelope, type TCsatAnswer, type TCsatSurvey } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

const path = (token: string) => `/api/public/csat/${encodeURIComponent(token)}/`;
const key = (token: string) => ['csat', token] as const;

export async function getSurvey(token: string, signal?: AbortSignal): Promise<TCsatSurvey> {
  const { data } = await publicClient.get(path(token), { signal });
  return ZEnvelope(ZCsatSurvey).parse(data).result;
}

export function useSurvey(token: string) {
  return useQuery(
    queryOptions({ queryKey: key(token), queryFn: ({ signal }) => getSurvey(token, signal), retry: false }),
  );
}

export function useRate(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (answer: TCsatAnswer) => {
      const { data } = await publicClient.post(path(token), answer);
      return ZEnvelope(ZCsatSurvey).parse(data).result;
    },
    onSuccess: (survey) => queryClient.setQueryData(key(token), survey),
  });
}
