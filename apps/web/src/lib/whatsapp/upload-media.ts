// POST /api/whatsapp/media/ (multipart `file`) → the WhatsApp media id with its type, name and size.
// Shared: the inbox's composer sends it with the next message (spec section 4), a campaign's
// media-header template sends it to every recipient.
import { useMutation } from '@tanstack/react-query';
import {
  WHATSAPP_TIMEOUT_MS,
  ZEnvelope,
  ZWhatsappMediaUpload,
  type TWhatsappMediaUpload,
} from '@titan/contracts';

import { protectedClient } from '../protected-client';

export const WHATSAPP_MEDIA_PATH = '/api/whatsapp/media/';

export async function uploadWhatsappMedia(file: File): Promise<TWhatsappMediaUpload> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(WHATSAPP_MEDIA_PATH, form, {
    timeout: WHATSAPP_TIMEOUT_MS,
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZWhatsappMediaUpload).parse(data).result;
}

export function useUploadWhatsappMedia() {
  return useMutation({ mutationFn: uploadWhatsappMedia });
}
