// PUT /api/whatsapp/account/ → the connected number. The access token and app secret are write-only:
// required to connect, left out afterwards to keep the stored ones.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZWhatsappAccount,
  type TSaveWhatsappAccountRequest,
  type TWhatsappAccount,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { WHATSAPP_ACCOUNT_PATH, whatsappAccountQueryOptions } from './get-whatsapp-account';

export async function saveWhatsappAccount(body: TSaveWhatsappAccountRequest): Promise<TWhatsappAccount> {
  const { data } = await protectedClient.put(WHATSAPP_ACCOUNT_PATH, body);
  return ZEnvelope(ZWhatsappAccount).parse(data).result;
}

export function useSaveWhatsappAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWhatsappAccount,
    onSuccess: (account) => queryClient.setQueryData(whatsappAccountQueryOptions().queryKey, account),
  });
}
