// GET /api/{channel}/events/download/ (the list's filters) → the channel's matching sends as a CSV
// file. Fetched with the session like every protected call, then handed to the browser as a download.
import { useMutation } from '@tanstack/react-query';
import { WHATSAPP_TIMEOUT_MS, type TEventLogChannel } from '@titan/contracts';
import { isAxiosError } from 'axios';

import { saveBlob } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';
import type { TLogQuery } from '../utils/log-filters';
import { eventLogsApiPath } from './get-event-logs';

/** Every matching row is streamed: longer than the usual five seconds. */
const DOWNLOAD_TIMEOUT_MS = WHATSAPP_TIMEOUT_MS;

export function eventLogsDownloadPath(channel: TEventLogChannel): string {
  return `${eventLogsApiPath(channel)}download/`;
}

/** The name the server gives in Content-Disposition, else one with today's date. */
export function csvFileName(channel: TEventLogChannel, disposition: unknown, today = new Date()): string {
  if (typeof disposition === 'string') {
    const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
    if (encoded) {
      try {
        return decodeURIComponent(encoded);
      } catch {
        // A malformed name: fall through to the plain one.
      }
    }
    const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
    if (plain) return plain;
  }
  return `${channel}-logs-${today.toISOString().slice(0, 10)}.csv`;
}

/** A Blob from whichever realm made it (the page's, or the fetch implementation's). */
function isBlobLike(value: unknown): value is Pick<Blob, 'text'> {
  return typeof value === 'object' && value !== null && typeof (value as Blob).text === 'function';
}

export async function downloadEventLogs({
  channel,
  query,
}: {
  channel: TEventLogChannel;
  query: TLogQuery;
}): Promise<string> {
  try {
    const response = await protectedClient.get<Blob>(eventLogsDownloadPath(channel), {
      params: query,
      responseType: 'blob',
      timeout: DOWNLOAD_TIMEOUT_MS,
      headers: { Accept: 'text/csv, application/json' },
    });
    const fileName = csvFileName(channel, response.headers['content-disposition']);
    saveBlob(response.data, fileName);
    return fileName;
  } catch (error) {
    // An error answer arrives as a Blob too: read its envelope so its message can be shown.
    const body: unknown = isAxiosError(error) ? error.response?.data : undefined;
    if (isAxiosError(error) && error.response && isBlobLike(body)) {
      try {
        error.response.data = JSON.parse(await body.text()) as unknown;
      } catch {
        // Not JSON: the generic message stands.
      }
    }
    throw error;
  }
}

export function useDownloadEventLogs() {
  return useMutation({ mutationFn: downloadEventLogs });
}
