// POST /api/template/template-images/ (multipart: file, template_id?) → {url, …}: an image for mail,
// with its absolute public URL.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZTemplateImage, type TTemplateImage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATES_API_PATH } from '../../../lib/email-templates';

const UPLOAD_TIMEOUT_MS = 60_000;

export async function uploadTemplateImage({
  file,
  templateId,
}: {
  file: File;
  templateId: number | null;
}): Promise<TTemplateImage> {
  const form = new FormData();
  if (templateId !== null) form.append('template_id', String(templateId));
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(`${EMAIL_TEMPLATES_API_PATH}template-images/`, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZTemplateImage).parse(data).result;
}

export function useUploadTemplateImage() {
  return useMutation({ mutationFn: uploadTemplateImage });
}
