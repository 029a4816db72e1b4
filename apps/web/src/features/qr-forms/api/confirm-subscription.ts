// The double opt-in's confirmation (no session; the token from the mail says who and which
// business): POST /api/public/qr-forms/confirm/ {token} → {business_name, email, subscribed}.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZQrConfirmResult, type TQrConfirmResult } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const QR_CONFIRM_API_PATH = '/api/public/qr-forms/confirm/';

export async function confirmSubscription(token: string): Promise<TQrConfirmResult> {
  const { data } = await publicClient.post(QR_CONFIRM_API_PATH, { token });
  return ZEnvelope(ZQrConfirmResult).parse(data).result;
}

export function useConfirmSubscription(token: string) {
  return useMutation({ mutationFn: () => confirmSubscription(token), meta: { errorShownOnScreen: true } });
}
