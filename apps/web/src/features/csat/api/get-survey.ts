// GET /api/public/csat/{token}/ (no session: the token is the survey's key): the survey and any answer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCsatSurvey, ZEnvelope } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const surveyApiPath = (token: string) => `/api/public/csat/${encodeURIComponent(token)}/`;
export const surveyKey = (token: string) => ['csat', token] as const;

export function surveyQueryOptions(token: string) {
  return queryOptions({
    queryKey: surveyKey(token),
    queryFn: async ({ signal }) => {
      const { data } = await publicClient.get(surveyApiPath(token), { signal });
      return ZEnvelope(ZCsatSurvey).parse(data).result;
    },
    retry: false,
  });
}

export const useSurvey = (token: string) => useQuery(surveyQueryOptions(token));
