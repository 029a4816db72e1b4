// Labels: a business's own tags (name, colour) on conversations and customers (next-api.md
// "Team inbox"). Kept apart from conversations.ts, which imports the label shape from here.
import { z } from 'zod';

export const LABEL_ERRORS = {
  nameTaken: 'A label with this name already exists.',
  noSuchLabel: 'One or more of these labels were not found.',
  badColor: 'Enter a colour as #rrggbb.',
} as const;

/** A label as conversations and customers carry it. */
export const ZLabelRef = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
});
export type TLabelRef = z.infer<typeof ZLabelRef>;

export const ZLabel = ZLabelRef.extend({
  created_at: z.string(),
  updated_at: z.string(),
});
export type TLabel = z.infer<typeof ZLabel>;

const ZLabelColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: LABEL_ERRORS.badColor })
  .transform((v) => v.toLowerCase());

export const ZLabelRequest = z.object({
  name: z.string().trim().min(1).max(60),
  color: ZLabelColor,
});
export type TLabelRequest = z.infer<typeof ZLabelRequest>;

export const ZUpdateLabelRequest = ZLabelRequest.partial().refine(
  (v) => v.name !== undefined || v.color !== undefined,
  { message: 'Send name or color.', path: ['non_field_errors'] },
);
export type TUpdateLabelRequest = z.infer<typeof ZUpdateLabelRequest>;

/** The labels put on a conversation or customer: the whole set (an empty array removes them all). */
export const ZLabelIds = z.array(z.number().int().positive()).max(50, 'Select at most 50 labels.');

const labelIdParam = z.coerce
  .number({ message: 'Enter a label id.' })
  .int({ message: 'Enter a label id.' })
  .positive({ message: 'Enter a label id.' });

/**
 * `label=<id>`, repeatable (`?label=1&label=2`): the rows carrying every one of them. A query
 * string gives one value or an array; a realtime filter may send either as well.
 */
export const ZLabelFilter = z
  .union([labelIdParam, z.array(labelIdParam).max(20, 'Filter by at most 20 labels.')])
  .transform((v) => [...new Set(Array.isArray(v) ? v : [v])]);

/** The suggested colours of the label editor (any #rrggbb is taken). */
export const LABEL_COLORS = [
  '#ef4444',
  '#f97316',
  '#eab308',
  '#22c55e',
  '#14b8a6',
  '#3b82f6',
  '#8b5cf6',
  '#ec4899',
  '#64748b',
] as const;
