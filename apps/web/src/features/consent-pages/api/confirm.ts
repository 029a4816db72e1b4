// POST /api/public/confirm/{token}/: the double opt-in confirmed; the page shows the answer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZConsentConfirmation, ZEnvelope } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { confirmApiPath, confirmationKey } from './get-confirmation';

export function useConfirm(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { data } = await publicClient.post(confirmApiPath(token), {});
      return ZEnvelope(ZConsentConfirmation).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
    onSuccess: (done) => queryClient.setQueryData(confirmationKey(token), done),
  });
}
