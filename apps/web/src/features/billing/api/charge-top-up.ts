// POST /api/chargebee/charge/ {top_up} → the charge; the subscription's usage is fetched again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZChargeResult, ZEnvelope, type TChargeResult } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { billingQueryOptions } from './get-billing';

export function useChargeTopUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (topUp: string): Promise<TChargeResult> => {
      const { data } = await protectedClient.post('/api/chargebee/charge/', { top_up: topUp });
      return ZEnvelope(ZChargeResult).parse(data).result;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingQueryOptions().queryKey }),
  });
}
