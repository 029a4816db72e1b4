// POST /api/email/unsubscribe/?token= {token} unsubscribes; POST /api/email/resubscribe/ {token}
// subscribes again: one switch, two endpoints. After either the state is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { publicClient } from '../../../lib/api-client';
import { UNSUBSCRIBE_API_PATH, type TUnsubscribeState, stateKey } from './get-unsubscribe-state';

export const RESUBSCRIBE_API_PATH = '/api/email/resubscribe/';

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
