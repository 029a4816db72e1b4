// GET /api/whatsapp/media/{id}/ → the bytes of a WhatsApp image, video or document (30 s timeout).
// Failures are shown where the media would be, and toasted once per conversation view by the
// component (use-media-failure-notice), not by the query cache: one toast per media would pile up.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { WHATSAPP_TIMEOUT_MS } from '@titan/contracts';
import { isAxiosError } from 'axios';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export function whatsappMediaPath(mediaId: string): string {
  return `/api/whatsapp/media/${encodeURIComponent(mediaId)}/`;
}

/** The media as a page-local object URL. One per media id for the page's life: the cache reuses it,
 * so nothing revokes it while a message could still show it. */
export async function getWhatsAppMedia(mediaId: string, signal?: AbortSignal): Promise<{ url: string }> {
  try {
    const { data } = await protectedClient.get<Blob>(whatsappMediaPath(mediaId), {
      responseType: 'blob',
      timeout: WHATSAPP_TIMEOUT_MS,
      signal,
    });
    return { url: URL.createObjectURL(data) };
  } catch (error) {
    throw await withJsonErrorBody(error);
  }
}

/** A refusal arrives as a Blob too (responseType applies to every answer): read its JSON envelope,
 * so the server's message can be shown (spec section 8). */
async function withJsonErrorBody(error: unknown): Promise<unknown> {
  const response = isAxiosError(error) ? error.response : undefined;
  // Duck-typed: the fetch adapter's Blob need not be this realm's Blob.
  const body = response?.data as Partial<Blob> | undefined;
  if (!response || typeof body?.text !== 'function' || !body.type?.includes('json')) return error;
  try {
    response.data = JSON.parse(await body.text()) as unknown;
  } catch {
    // Not JSON after all: the caller's fallback text is shown.
  }
  return error;
}

export function whatsappMediaQueryOptions(mediaId: string) {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'whatsapp-media', mediaId],
    queryFn: ({ signal }) => getWhatsAppMedia(mediaId, signal),
    // Media never change; a failed fetch says so on screen and is not repeated on every render.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsAppMedia(mediaId: string) {
  return useQuery(whatsappMediaQueryOptions(mediaId));
}
