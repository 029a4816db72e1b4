// GET /api/{channel}/events/?status&search&created_at__gte&created_at__lte&page&page_size → one page
// of a channel's sends, newest first. The previous page stays on screen while the next loads.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZEventLog, type TEventLogChannel } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';
import type { TLogQuery } from '../utils/log-filters';

export const EVENT_LOGS_PAGE_SIZE = 20;

export function eventLogsApiPath(channel: TEventLogChannel): string {
  return `/api/${channel}/events/`;
}

/** Every query of one channel's log starts with this key. */
export function eventLogsKey(channel: TEventLogChannel) {
  return [BUSINESS_SCOPE, 'event-logs', channel] as const;
}

const ZLogPage = z.object({ count: z.number().int(), results: z.array(ZEventLog) });
/** The answer with the page it is, so a page kept on screen while the next loads says which it is. */
export type TLogPage = z.infer<typeof ZLogPage> & { page: number };

export async function getEventLogs(
  channel: TEventLogChannel,
  query: TLogQuery,
  page: number,
  signal?: AbortSignal,
): Promise<TLogPage> {
  const { data } = await protectedClient.get(eventLogsApiPath(channel), {
    params: { ...query, page, page_size: EVENT_LOGS_PAGE_SIZE },
    signal,
  });
  return { ...ZEnvelope(ZLogPage).parse(data).result, page };
}

export function eventLogsQueryOptions(channel: TEventLogChannel, query: TLogQuery, page: number) {
  return queryOptions({
    queryKey: [...eventLogsKey(channel), 'list', query, page],
    queryFn: ({ signal }) => getEventLogs(channel, query, page, signal),
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useEventLogs(
  channel: TEventLogChannel,
  query: TLogQuery,
  page: number,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({ ...eventLogsQueryOptions(channel, query, page), enabled });
}
