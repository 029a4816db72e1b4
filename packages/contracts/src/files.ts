// Uploads (api.md "Files"): storage folders of spec section 3.
import { z } from 'zod';

export const STORAGE_PREFIXES = [
  'customer_lists',
  'agent_images',
  'public/business/logo',
  'public/template_images',
  'public/whatsapp_media',
  'public/public_chat_media',
  'chat_media',
] as const;

export const ZUploadPrefix = z.enum(STORAGE_PREFIXES);
export type TUploadPrefix = z.infer<typeof ZUploadPrefix>;

export const ZUploadResult = z.object({
  presigned_url: z.string(),
  key: z.string(),
  size: z.number().int(),
  mime_type: z.string(),
  file_name: z.string(),
});
export type TUploadResult = z.infer<typeof ZUploadResult>;

/** A multipart upload's file part, as the OpenAPI document describes it (routes read parts themselves). */
export const ZFilePart = z.object({ file: z.file() });
