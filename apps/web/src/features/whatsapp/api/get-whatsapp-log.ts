// GET /api/whatsapp/events/{trackingId}/ → one message's log: the request sent to Meta, its answer
// and every status WhatsApp reported since.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWhatsappLogDetail, type TWhatsappLogDetail } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { WHATSAPP_LOGS_KEY, WHATSAPP_LOGS_PATH } from './get-whatsapp-logs';

export async function getWhatsappLog(trackingId: string, signal?: AbortSignal): Promise<TWhatsappLogDetail> {
  const { data } = await protectedClient.get(`${WHATSAPP_LOGS_PATH}${encodeURIComponent(trackingId)}/`, {
    signal,
  });
  return ZEnvelope(ZWhatsappLogDetail).parse(data).result;
}

export function whatsappLogQueryOptions(trackingId: string) {
  return queryOptions({
    queryKey: [...WHATSAPP_LOGS_KEY, 'detail', trackingId],
    queryFn: ({ signal }) => getWhatsappLog(trackingId, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsappLog(trackingId: string) {
  return useQuery(whatsappLogQueryOptions(trackingId));
}
