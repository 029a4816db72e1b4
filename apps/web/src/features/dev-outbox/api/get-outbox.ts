// GET /api/dev/outbox/?to= → the mail kept for one address, newest first. The server answers only
// requests made on the machine running Titan.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZOutboxMail, type TOutboxMail } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const OUTBOX_API_PATH = '/api/dev/outbox/';

export async function getOutbox(to: string): Promise<TOutboxMail[]> {
  const { data } = await publicClient.get(OUTBOX_API_PATH, { params: { to } });
  return ZEnvelope(ZOutboxMail.array()).parse(data).result;
}

export function outboxQueryOptions(to: string) {
  return queryOptions({
    queryKey: ['dev-outbox', to],
    queryFn: () => getOutbox(to),
    meta: { errorShownOnScreen: true },
  });
}

export function useOutbox(to: string) {
  return useQuery({ ...outboxQueryOptions(to), enabled: to !== '' });
}
