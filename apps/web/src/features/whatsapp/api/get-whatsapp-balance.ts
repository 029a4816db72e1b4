// GET /api/whatsapp/client/balance/ → this month's WhatsApp messages and their estimated cost.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWhatsappBalance, type TWhatsappBalance } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const WHATSAPP_BALANCE_PATH = '/api/whatsapp/client/balance/';

export async function getWhatsappBalance(signal?: AbortSignal): Promise<TWhatsappBalance> {
  const { data } = await protectedClient.get(WHATSAPP_BALANCE_PATH, { signal });
  return ZEnvelope(ZWhatsappBalance).parse(data).result;
}

export function whatsappBalanceQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'whatsapp-balance'],
    queryFn: ({ signal }) => getWhatsappBalance(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsappBalance() {
  return useQuery(whatsappBalanceQueryOptions());
}
