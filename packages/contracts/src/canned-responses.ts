// Canned responses: saved replies with Liquid variables, picked with `/` in the composer
// (next-api.md "Team inbox").
import { z } from 'zod';

export const CANNED_ERRORS = {
  shortCodeTaken: 'A canned response with this short code already exists.',
  badShortCode: 'Use letters, digits, - and _ only.',
  unknownFile: 'Upload the file first and send its key.',
  noSuchConversation: 'No conversation you can see has this id.',
} as const;

/** The variables a canned response may use, as `{{ customer.name }}`. */
export const CANNED_VARIABLES = [
  'customer.name',
  'customer.first_name',
  'customer.email',
  'customer.phone',
  'agent.name',
  'agent.first_name',
  'agent.email',
  'business.name',
] as const;

export const ZCannedAttachment = z.object({
  key: z.string(),
  file_name: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
});
export type TCannedAttachment = z.infer<typeof ZCannedAttachment>;

export const ZCannedResponse = z.object({
  id: z.number().int(),
  short_code: z.string(),
  content: z.string(),
  /** The stored file's key (as POST /api/upload/ answered it), or null. */
  attachment_id: z.string().nullable(),
  attachment: ZCannedAttachment.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCannedResponse = z.infer<typeof ZCannedResponse>;

const ZShortCode = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[\p{L}\p{N}_-]+$/u, { message: CANNED_ERRORS.badShortCode })
  .transform((v) => v.toLowerCase());

export const ZCannedResponseRequest = z.object({
  short_code: ZShortCode,
  content: z.string().trim().min(1).max(10_000),
  attachment_id: z.string().trim().min(1).max(500).nullable().optional(),
});
export type TCannedResponseRequest = z.infer<typeof ZCannedResponseRequest>;

export const ZUpdateCannedResponseRequest = z
  .object({
    short_code: ZShortCode.optional(),
    content: z.string().trim().min(1).max(10_000).optional(),
    attachment_id: z.string().trim().min(1).max(500).nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Send short_code, content or attachment_id.',
    path: ['non_field_errors'],
  });
export type TUpdateCannedResponseRequest = z.infer<typeof ZUpdateCannedResponseRequest>;

/** `?search=` matches the short code (from its start) or the text (anywhere), case-insensitively. */
export const ZCannedResponseQuery = z.strictObject({
  search: z.string().trim().max(100).optional(),
});
export type TCannedResponseQuery = z.infer<typeof ZCannedResponseQuery>;

export const ZRenderCannedRequest = z.object({ conversation_id: z.number().int().positive() });
export type TRenderCannedRequest = z.infer<typeof ZRenderCannedRequest>;

export const ZRenderedCanned = z.object({
  content: z.string(),
  /** The file to send with the reply, with a short-lived URL to fetch it (a channel that re-uploads it). */
  attachment: ZCannedAttachment.extend({ url: z.string() }).nullable(),
});
export type TRenderedCanned = z.infer<typeof ZRenderedCanned>;
