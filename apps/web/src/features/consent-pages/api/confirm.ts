// GET /api/public/confirm/{token}/ says what a double opt-in link is about without confirming
// (mail scanners open every link); POST confirms. No session: the signed token is the credential.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZConsentConfirmation, ZEnvelope, type TConsentConfirmation } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const confirmApiPath = (token: string) => `/api/public/confirm/${encodeURIComponent(token)}/`;

export const confirmationKey = (token: string) => ['public-confirmation', token] as const;

export async function getConfirmation(token: string, signal?: AbortSignal): Promise<TConsentConfirmation> {
  const { data } = await publicClient.get(confirmApiPath(token), { signal });
  return ZEnvelope(ZConsentConfirmation).parse(data).result;
}

export function useConfirmation(token: string) {
  return useQuery({
    ...queryOptions({
      queryKey: confirmationKey(token),
      queryFn: ({ signal }) => getConfirmation(token, signal),
      retry: false,
      meta: { errorShownOnScreen: true },
    }),
    enabled: token !== '',
  });
}

export async function postConfirmation(token: string): Promise<TConsentConfirmation> {
  const { data } = await publicClient.post(confirmApiPath(token), {});
  return ZEnvelope(ZConsentConfirmation).parse(data).result;
}

export function useConfirm(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postConfirmation(token),
    meta: { errorShownOnScreen: true },
    onSuccess: (done) => queryClient.setQueryData(confirmationKey(token), done),
  });
}
