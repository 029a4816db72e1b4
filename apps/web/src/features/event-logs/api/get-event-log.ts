// GET /api/{channel}/events/{trackingId}/ → one send: the request made to the provider, its answer
// and every status reported since.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZEventLogDetail, type TEventLogChannel, type TEventLogDetail } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { eventLogsApiPath, eventLogsKey } from './get-event-logs';

export async function getEventLog(
  channel: TEventLogChannel,
  trackingId: string,
  signal?: AbortSignal,
): Promise<TEventLogDetail> {
  const { data } = await protectedClient.get(
    `${eventLogsApiPath(channel)}${encodeURIComponent(trackingId)}/`,
    { signal },
  );
  return ZEnvelope(ZEventLogDetail).parse(data).result;
}

export function eventLogQueryOptions(channel: TEventLogChannel, trackingId: string) {
  return queryOptions({
    queryKey: [...eventLogsKey(channel), 'detail', trackingId],
    queryFn: ({ signal }) => getEventLog(channel, trackingId, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useEventLog(channel: TEventLogChannel, trackingId: string) {
  return useQuery(eventLogQueryOptions(channel, trackingId));
}
