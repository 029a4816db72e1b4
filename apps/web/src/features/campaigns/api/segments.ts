// The composer's segment builder: POST /api/business/customer-lists/segments/count/ counts the
// rules live; POST /api/business/customer-lists/ saves them as a segment (every list picker follows).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCustomerList,
  ZEnvelope,
  ZSegmentCount,
  type TCustomerList,
  type TSegmentRules,
} from '@titan/contracts';

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

export function useSaveSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; rules: TSegmentRules }): Promise<TCustomerList> => {
      const { data } = await protectedClient.post(CUSTOMER_LISTS_PATH, { ...body, kind: 'segment' });
      return ZEnvelope(ZCustomerList).parse(data).result;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CUSTOMER_LISTS_KEY }),
  });
}
