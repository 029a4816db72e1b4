// GET /api/business/ → the current business (the one named by X-Business-Code).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZBusiness, ZEnvelope, type TBusiness } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const BUSINESS_PATH = '/api/business/';

export async function getBusiness(): Promise<TBusiness> {
  const { data } = await protectedClient.get(BUSINESS_PATH);
  return ZEnvelope(ZBusiness).parse(data).result;
}

export function businessQueryOptions() {
  // Shown by the settings section that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'current'],
    queryFn: getBusiness,
    meta: { errorShownOnScreen: true },
  });
}

export function useBusiness() {
  return useQuery(businessQueryOptions());
}
