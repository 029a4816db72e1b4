// POST /api/business/customer-lists/segments/count/ {rules}: how many customers the composer's
// segment rules hold, counted live (a read, so a query).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZSegmentCount, type TSegmentRules } from '@titan/contracts';

import { CUSTOMER_LISTS_KEY, CUSTOMER_LISTS_PATH } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';

export function segmentCountQueryOptions(rules: TSegmentRules | null) {
  return queryOptions({
    queryKey: [...CUSTOMER_LISTS_KEY, 'segment-count', rules],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.post(
        `${CUSTOMER_LISTS_PATH}segments/count/`,
        { rules },
        { signal },
      );
      return ZEnvelope(ZSegmentCount).parse(data).result.count;
    },
    enabled: rules !== null,
    placeholderData: keepPreviousData,
  });
}

export const useSegmentCount = (rules: TSegmentRules | null) => useQuery(segmentCountQueryOptions(rules));
