// Email templates (engage.md §2): MJML or HTML with Liquid, every save a version, previews and images.
import { z } from 'zod';
import { ZFieldErrors } from './envelope';

export const EMAIL_TEMPLATE_FORMATS = ['mjml', 'html'] as const;
export const ZEmailTemplateFormat = z.enum(EMAIL_TEMPLATE_FORMATS);
export type TEmailTemplateFormat = z.infer<typeof ZEmailTemplateFormat>;

/** The largest template source accepted (content and text part each). */
export const EMAIL_TEMPLATE_MAX_CHARS = 500_000;
/** Images for mail: PNG, JPEG, GIF or WebP, at most this many bytes. */
export const TEMPLATE_IMAGE_LIMIT_BYTES = 5 * 1024 * 1024;
export const TEMPLATE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const EMAIL_TEMPLATE_ERRORS = {
  notFound: 'Template not found.',
  nameTaken: 'A template with this name already exists.',
  versionNotFound: 'This template has no such version.',
  staleVersion:
    'This template was saved elsewhere since you opened it. Reload it to see the latest version before saving.',
  nothingToSave: 'Send at least one field to change, or restore_version.',
  restoreAlone: 'restore_version cannot be combined with other changes.',
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  multipartOnly: 'Send the file as multipart/form-data.',
  notAnImage: 'Upload a PNG, JPEG, GIF or WebP image.',
  imageTooLarge: 'Images for email can be at most 5 MB.',
  imageNotFound: 'Image not found.',
  customerNotFound: 'Customer not found.',
  mjmlUnparsable: 'The MJML could not be parsed: check that it is one <mjml> document with matching tags.',
} as const;

const name = z.string().trim().min(1).max(200);
const subject = z.string().trim().min(1).max(998);
const preheader = z.string().max(500);
const content = z.string().min(1).max(EMAIL_TEMPLATE_MAX_CHARS);
const textContent = z.string().max(EMAIL_TEMPLATE_MAX_CHARS);

export const ZEmailTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  format: ZEmailTemplateFormat,
  content: z.string(),
  text_content: z.string().nullable(),
  /** The Liquid variables the template reads (`customer.name`, `offer_code`…), sorted. */
  variables: z.array(z.string()),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  thumbnail_url: z.string().nullable(),
});
export type TEmailTemplate = z.infer<typeof ZEmailTemplate>;

/** A list row: the source is left out. */
export const ZEmailTemplateSummary = ZEmailTemplate.omit({ content: true, text_content: true });
export type TEmailTemplateSummary = z.infer<typeof ZEmailTemplateSummary>;

export const ZCreateEmailTemplateRequest = z.object({
  name,
  subject,
  preheader: preheader.default(''),
  format: ZEmailTemplateFormat.default('mjml'),
  content,
  text_content: textContent.nullish(),
});
export type TCreateEmailTemplateRequest = z.infer<typeof ZCreateEmailTemplateRequest>;

/**
 * A save: any of the fields (a new version when the source changes), or `restore_version` alone
 * (a new version with that version's source). `base_version`, when given, must be the current
 * version (409 otherwise), so two editors never overwrite each other silently.
 */
export const ZUpdateEmailTemplateRequest = z.object({
  name: name.optional(),
  subject: subject.optional(),
  preheader: preheader.optional(),
  format: ZEmailTemplateFormat.optional(),
  content: content.optional(),
  text_content: textContent.nullish(),
  restore_version: z.number().int().positive().optional(),
  base_version: z.number().int().positive().optional(),
});
export type TUpdateEmailTemplateRequest = z.infer<typeof ZUpdateEmailTemplateRequest>;

export const ZEmailTemplateVersion = z.object({
  version: z.number().int(),
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  format: ZEmailTemplateFormat,
  content: z.string(),
  text_content: z.string().nullable(),
  variables: z.array(z.string()),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
});
export type TEmailTemplateVersion = z.infer<typeof ZEmailTemplateVersion>;

/** An unsaved source to preview (the editor's live preview). */
export const ZEmailTemplateDraft = z.object({
  subject: z.string().max(998),
  preheader: preheader.default(''),
  format: ZEmailTemplateFormat,
  content: z.string().max(EMAIL_TEMPLATE_MAX_CHARS),
  text_content: textContent.nullish(),
});
export type TEmailTemplateDraft = z.infer<typeof ZEmailTemplateDraft>;

const ZVariables = z.record(z.string(), z.unknown());

/**
 * A preview: with a customer of the business (their name, email, phone and fields) or sample
 * variables; of the saved template, or of `draft` when given (the editor previews before saving).
 */
export const ZEmailTemplatePreviewRequest = z.object({
  customer_id: z.number().int().positive().optional(),
  variables: ZVariables.optional(),
  draft: ZEmailTemplateDraft.optional(),
});
export type TEmailTemplatePreviewRequest = z.infer<typeof ZEmailTemplatePreviewRequest>;

/** `POST /api/template/preview/`: a template not saved yet, so the draft is required. */
export const ZEmailTemplateDraftPreviewRequest = ZEmailTemplatePreviewRequest.extend({
  draft: ZEmailTemplateDraft,
});

/** Errors map fields (`subject`, `content`…) to messages that start with `Line N: `. */
export const ZEmailTemplatePreview = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  errors: ZFieldErrors,
});
export type TEmailTemplatePreview = z.infer<typeof ZEmailTemplatePreview>;

export const ZTemplateImage = z.object({
  /** Absolute and permanent: usable in mail. */
  url: z.string(),
  key: z.string(),
  size: z.number().int(),
  mime_type: z.string(),
  file_name: z.string(),
});
export type TTemplateImage = z.infer<typeof ZTemplateImage>;

/** The number in a `Line N: reason` message, for the editor to mark. */
export function lineOfTemplateError(message: string): number | null {
  const m = /^Line (\d+):/.exec(message);
  return m ? Number(m[1]) : null;
}
