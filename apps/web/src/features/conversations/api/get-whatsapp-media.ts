// GET /api/whatsapp/media/{id}/ → the bytes of a WhatsApp image, video or document (30 s timeout).
// Failures are shown where the media would be, not as toasts: one per message would pile up.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { WHATSAPP_TIMEOUT_MS } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export function whatsappMediaPath(mediaId: string): string {
  return `/api/whatsapp/media/${encodeURIComponent(mediaId)}/`;
}

/** The media as a page-local object URL. One per media id for the page's life: the cache reuses it,
 * so nothing revokes it while a message could still show it. */
export async function getWhatsAppMedia(mediaId: string, signal?: AbortSignal): Promise<{ url: string }> {
  const { data } = await protectedClient.get<Blob>(whatsappMediaPath(mediaId), {
    responseType: 'blob',
    timeout: WHATSAPP_TIMEOUT_MS,
    signal,
  });
  return { url: URL.createObjectURL(data) };
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
