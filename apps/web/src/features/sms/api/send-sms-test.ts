// POST /api/sms/account/test/ → the recorded test text (queued; its delivery shows in the SMS logs).
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZSmsSend, type TSmsSend, type TSmsTestRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export async function sendSmsTest(body: TSmsTestRequest): Promise<TSmsSend> {
  const { data } = await protectedClient.post('/api/sms/account/test/', body);
  return ZEnvelope(ZSmsSend).parse(data).result;
}

export function useSendSmsTest() {
  return useMutation({ mutationFn: sendSmsTest });
}
