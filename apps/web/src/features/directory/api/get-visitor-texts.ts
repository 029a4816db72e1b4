// GET /api/sms/inbound/?customer_id= → the texts a visitor sent the business's SMS number, newest
// first (STOP and START among them, marked).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPage, ZSmsInbound, type TSmsInbound } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { DIRECTORY_KEY } from './get-visitors';

const TEXTS_SHOWN = 20;

export async function getVisitorTexts(
  id: number,
  signal?: AbortSignal,
): Promise<{ count: number; results: TSmsInbound[] }> {
  const { data } = await protectedClient.get('/api/sms/inbound/', {
    params: { customer_id: id, page_size: TEXTS_SHOWN },
    signal,
  });
  return ZEnvelope(ZPage(ZSmsInbound)).parse(data).result;
}

export function visitorTextsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...DIRECTORY_KEY, 'detail', id, 'texts'],
    queryFn: ({ signal }) => getVisitorTexts(id, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useVisitorTexts(id: number) {
  return useQuery(visitorTextsQueryOptions(id));
}
