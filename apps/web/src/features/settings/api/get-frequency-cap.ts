// GET /api/business/frequency-cap/ → the business's marketing frequency cap (any member may read it).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZFrequencyCap, type TFrequencyCap } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const FREQUENCY_CAP_PATH = '/api/business/frequency-cap/';

export async function getFrequencyCap(): Promise<TFrequencyCap> {
  const { data } = await protectedClient.get(FREQUENCY_CAP_PATH);
  return ZEnvelope(ZFrequencyCap).parse(data).result;
}

export function frequencyCapQueryOptions() {
  // Shown by the settings card that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'frequency-cap'],
    queryFn: getFrequencyCap,
    meta: { errorShownOnScreen: true },
  });
}

export function useFrequencyCap() {
  return useQuery(frequencyCapQueryOptions());
}
