// GET /api/whatsapp/events/?status&search&created_at__gte&created_at__lte&page&page_size → one page
// of the WhatsApp message log, newest first. The previous page stays on screen while the next loads.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWhatsappLog } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';
import type { TLogQuery } from '../utils/log-filters';

export const WHATSAPP_LOGS_PATH = '/api/whatsapp/events/';
export const WHATSAPP_LOGS_PAGE_SIZE = 20;
export const WHATSAPP_LOGS_KEY = [BUSINESS_SCOPE, 'whatsapp-logs'] as const;

const ZLogPage = z.object({ count: z.number().int(), results: z.array(ZWhatsappLog) });
/** The answer with the page it is, so a page kept on screen while the next loads says which it is. */
export type TLogPage = z.infer<typeof ZLogPage> & { page: number };

export async function getWhatsappLogs(
  query: TLogQuery,
  page: number,
  signal?: AbortSignal,
): Promise<TLogPage> {
  const { data } = await protectedClient.get(WHATSAPP_LOGS_PATH, {
    params: { ...query, page, page_size: WHATSAPP_LOGS_PAGE_SIZE },
    signal,
  });
  return { ...ZEnvelope(ZLogPage).parse(data).result, page };
}

export function whatsappLogsQueryOptions(query: TLogQuery, page: number) {
  return queryOptions({
    queryKey: [...WHATSAPP_LOGS_KEY, 'list', query, page],
    queryFn: ({ signal }) => getWhatsappLogs(query, page, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsappLogs(query: TLogQuery, page: number) {
  return useQuery(whatsappLogsQueryOptions(query, page));
}
