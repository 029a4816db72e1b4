// PUT /api/sms/account/ → the connected account, once Twilio accepted the credentials. The Auth
// Token and API key secret are write-only: required to connect, left out afterwards to keep them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZSmsAccount, type TSaveSmsAccountRequest, type TSmsAccount } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { SMS_ACCOUNT_PATH, smsAccountQueryOptions } from './get-sms-account';

export async function saveSmsAccount(body: TSaveSmsAccountRequest): Promise<TSmsAccount> {
  const { data } = await protectedClient.put(SMS_ACCOUNT_PATH, body);
  return ZEnvelope(ZSmsAccount).parse(data).result;
}

export function useSaveSmsAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSmsAccount,
    onSuccess: (account) => queryClient.setQueryData(smsAccountQueryOptions().queryKey, account),
  });
}
