// POST /api/public/csat/{token}/ (no session): the customer's rating; the page shows the survey answered.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCsatSurvey, ZEnvelope, type TCsatAnswer } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { surveyApiPath, surveyKey } from './get-survey';

export function useRate(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (answer: TCsatAnswer) => {
      const { data } = await publicClient.post(surveyApiPath(token), answer);
      return ZEnvelope(ZCsatSurvey).parse(data).result;
    },
    onSuccess: (survey) => queryClient.setQueryData(surveyKey(token), survey),
  });
}
