// GET /api/email/unsubscribe/?token= (no session; the token says who and which business) →
// {email, business_name, unsubscribed}.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope } from '@titan/contracts';
import { z } from 'zod';

import { publicClient } from '../../../lib/api-client';

export const UNSUBSCRIBE_API_PATH = '/api/email/unsubscribe/';

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

export const stateKey = (token: string) => ['unsubscribe', token] as const;

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
