// Hands bytes fetched by the app to the browser as a file download.
import { isAxiosError } from 'axios';

import { protectedClient } from './protected-client';

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The file name a Content-Disposition header gives (RFC 6266 `filename*` first), else `fallback`. */
export function fileNameFrom(disposition: unknown, fallback: string): string {
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
  return fallback;
}

/** A Blob from whichever realm made it (the page's, or the fetch implementation's). */
function isBlobLike(value: unknown): value is Pick<Blob, 'text'> {
  return typeof value === 'object' && value !== null && typeof (value as Blob).text === 'function';
}

/**
 * GETs a CSV download with the session like every protected call and hands it to the browser;
 * answers the file's name. An error answer arrives as a Blob too: its envelope is read, so its
 * message can be shown.
 */
export async function downloadCsv({
  path,
  params,
  timeout,
  fallbackName,
}: {
  path: string;
  params?: object;
  timeout: number;
  fallbackName: string;
}): Promise<string> {
  try {
    const response = await protectedClient.get<Blob>(path, {
      params,
      responseType: 'blob',
      timeout,
      headers: { Accept: 'text/csv, application/json' },
    });
    const fileName = fileNameFrom(response.headers['content-disposition'], fallbackName);
    saveBlob(response.data, fileName);
    return fileName;
  } catch (error) {
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
