// GET /api/business/ → the current business (the one named by X-Business-Code). Shared: settings edit
// it, and every screen that counts days does so in its time zone.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZBusiness, ZEnvelope, type TBusiness } from '@titan/contracts';

import { protectedClient } from '../protected-client';
import { BUSINESS_SCOPE } from '../query-client';
import { browserTimeZone } from '../time-zones';

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

/**
 * The business's time zone, which its days (dashboards, logs) and new schedules count in: null
 * while the business loads, the browser's zone when it cannot be read.
 */
export function useBusinessTimeZone(): string | null {
  const business = useBusiness();
  return business.data?.time_zone ?? (business.isError ? browserTimeZone() : null);
}
