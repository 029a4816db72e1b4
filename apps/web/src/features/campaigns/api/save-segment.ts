// POST /api/business/customer-lists/ {name, rules, kind: segment}: the composer's rules saved as a
// segment (every list picker follows).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCustomerList, ZEnvelope, type TCustomerList, type TSegmentRules } from '@titan/contracts';

import { CUSTOMER_LISTS_KEY, CUSTOMER_LISTS_PATH } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';

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
