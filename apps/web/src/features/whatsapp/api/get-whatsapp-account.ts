// GET /api/whatsapp/account/ → the business's connected number, or null when none is connected yet
// (the server answers 404). Owners and admins only (business.update).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWhatsappAccount, type TWhatsappAccount } from '@titan/contracts';

import { apiErrorStatus } from '../../../lib/api-errors';
import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const WHATSAPP_ACCOUNT_PATH = '/api/whatsapp/account/';
const NOT_FOUND = 404;

export async function getWhatsappAccount(signal?: AbortSignal): Promise<TWhatsappAccount | null> {
  try {
    const { data } = await protectedClient.get(WHATSAPP_ACCOUNT_PATH, { signal });
    return ZEnvelope(ZWhatsappAccount).parse(data).result;
  } catch (error) {
    if (apiErrorStatus(error) === NOT_FOUND) return null;
    throw error;
  }
}

export function whatsappAccountQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'whatsapp-account'],
    queryFn: ({ signal }) => getWhatsappAccount(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsappAccount() {
  return useQuery(whatsappAccountQueryOptions());
}
