// POST /api/upload/ (multipart: file, prefix, conversation_id) → {presigned_url, key, size, mime_type,
// file_name}. Own-channel chat media live under public/public_chat_media/{business}/{conversation}.
// Files over 10 MB are refused here before any upload (spec section 5), as the server would (413).
import { useMutation } from '@tanstack/react-query';
import {
  FILE_TOO_LARGE_MESSAGE,
  OWN_CHANNEL_FILE_LIMIT_BYTES,
  UPLOAD_TIMEOUT_MS,
  ZEnvelope,
  ZUploadResult,
  type TUploadPrefix,
  type TUploadResult,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const UPLOAD_PATH = '/api/upload/';
export const CHAT_MEDIA_PREFIX: TUploadPrefix = 'public/public_chat_media';

/** The spec's message when the file is over the own-channel limit, else null. */
export function fileSizeProblem(file: Pick<File, 'size'>): string | null {
  return file.size > OWN_CHANNEL_FILE_LIMIT_BYTES ? FILE_TOO_LARGE_MESSAGE : null;
}

export async function uploadFile({
  file,
  conversationId,
}: {
  file: File;
  conversationId: number;
}): Promise<TUploadResult> {
  const form = new FormData();
  form.append('prefix', CHAT_MEDIA_PREFIX);
  form.append('conversation_id', String(conversationId));
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(UPLOAD_PATH, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZUploadResult).parse(data).result;
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}
