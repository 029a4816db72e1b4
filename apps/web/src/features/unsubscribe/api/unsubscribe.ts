// The public unsubscribe API (no session; the token from the email says who and which business):
// GET /api/email/unsubscribe/?token= → {email, business_name, unsubscribed};
// POST /api/email/unsubscribe/?token= {token} unsubscribes; POST /api/email/resubscribe/ {token}
// subscribes again. After either change the state is read again from the server.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const UNSUBSCRIBE_API_PATH = '/api/email/unsubscribe/';
export const RESUBSCRIBE_API_PATH = '/api/email/resubscribe/';

export const ZUnsubscribeState = z.object({
  email: z.string(),
  business_name: z.string(),
  unsubscribed: z.boolean(),
});
export type TUnsubscribeState = z.infer<typeof ZUnsubscribeState>;

export async function getUnsubscribeState(token: string, signal?: AbortSignal): Promise<TUnsubscribeState> {
  const { data } = await publicClient.get(UNSUBSCRIBE_API_PATH, { params: { token }, signal });
  return ZEnvelope(ZUnsubscribeState).parse(data).result;
}

const stateKey = (token: string) => ['unsubscribe', token] as const;

export function unsubscribeStateQueryOptions(token: string) {
  return queryOptions({
    queryKey: stateKey(token),
    queryFn: ({ signal }) => getUnsubscribeState(token, signal),
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export function useUnsubscribeState(token: string) {
  return useQuery({ ...unsubscribeStateQueryOptions(token), enabled: token !== '' });
}

export async function unsubscribe(token: string): Promise<void> {
  await publicClient.post(UNSUBSCRIBE_API_PATH, { token }, { params: { token } });
}

export async function resubscribe(token: string): Promise<void> {
  await publicClient.post(RESUBSCRIBE_API_PATH, { token });
}

/** Unsubscribes (`unsubscribed: true`) or subscribes again (`false`), then shows the server's state. */
export function useSetSubscription(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (unsubscribed: boolean) => (unsubscribed ? unsubscribe(token) : resubscribe(token)),
    onSuccess: (_, unsubscribed) => {
      queryClient.setQueryData<TUnsubscribeState>(stateKey(token), (old) =>
        old ? { ...old, unsubscribed } : old,
      );
      return queryClient.invalidateQueries({ queryKey: stateKey(token) });
    },
  });
}
