// GET /api/{channel}/events/download/ (the list's filters) → the channel's matching sends as a CSV
// file. Fetched with the session like every protected call, then handed to the browser as a download.
import { useMutation } from '@tanstack/react-query';
import { WHATSAPP_TIMEOUT_MS, type TEventLogChannel } from '@titan/contracts';

import { downloadCsv, fileNameFrom } from '../../../lib/download';
import type { TLogQuery } from '../utils/log-filters';
import { eventLogsApiPath } from './get-event-logs';

/** Every matching row is streamed: longer than the usual five seconds. */
const DOWNLOAD_TIMEOUT_MS = WHATSAPP_TIMEOUT_MS;

export function eventLogsDownloadPath(channel: TEventLogChannel): string {
  return `${eventLogsApiPath(channel)}download/`;
}

/** The name the server gives in Content-Disposition, else one with today's date. */
export function csvFileName(channel: TEventLogChannel, disposition: unknown, today = new Date()): string {
  return fileNameFrom(disposition, `${channel}-logs-${today.toISOString().slice(0, 10)}.csv`);
}

export async function downloadEventLogs({
  channel,
  query,
}: {
  channel: TEventLogChannel;
  query: TLogQuery;
}): Promise<string> {
  return downloadCsv({
    path: eventLogsDownloadPath(channel),
    params: query,
    timeout: DOWNLOAD_TIMEOUT_MS,
    fallbackName: csvFileName(channel, undefined),
  });
}

export function useDownloadEventLogs() {
  return useMutation({ mutationFn: downloadEventLogs });
}
