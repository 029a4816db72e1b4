// GET /api/sms/account/ → the business's Twilio account, or null when none is connected yet (the
// server answers 404). Owners and admins only (business.update).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZSmsAccount, type TSmsAccount } from '@titan/contracts';

import { apiErrorStatus } from '../../../lib/api-errors';
import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const SMS_ACCOUNT_PATH = '/api/sms/account/';
const NOT_FOUND = 404;

export async function getSmsAccount(signal?: AbortSignal): Promise<TSmsAccount | null> {
  try {
    const { data } = await protectedClient.get(SMS_ACCOUNT_PATH, { signal });
    return ZEnvelope(ZSmsAccount).parse(data).result;
  } catch (error) {
    if (apiErrorStatus(error) === NOT_FOUND) return null;
    throw error;
  }
}

export function smsAccountQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'sms-account'],
    queryFn: ({ signal }) => getSmsAccount(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useSmsAccount() {
  return useQuery(smsAccountQueryOptions());
}
