// PUT /api/business/frequency-cap/ → the saved cap (business.update).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZFrequencyCap, type TFrequencyCap, type TFrequencyCapRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { FREQUENCY_CAP_PATH, frequencyCapQueryOptions } from './get-frequency-cap';

export async function updateFrequencyCap(body: TFrequencyCapRequest): Promise<TFrequencyCap> {
  const { data } = await protectedClient.put(FREQUENCY_CAP_PATH, body);
  return ZEnvelope(ZFrequencyCap).parse(data).result;
}

export function useUpdateFrequencyCap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFrequencyCap,
    onSuccess: (cap) => queryClient.setQueryData(frequencyCapQueryOptions().queryKey, cap),
  });
}
