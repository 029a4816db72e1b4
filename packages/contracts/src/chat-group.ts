// A chat group record, shared by the chat-group settings and every conversation assigned to one
// (spec section 3: a conversation's assigned_chat_group is "a full chat group record").
import { z } from 'zod';

/** Which bottom corner of the page the widget's launcher sits in. */
export const LAUNCHER_POSITIONS = ['right', 'left'] as const;

export const VISITOR_FIELD_TYPES = [
  'text',
  'email',
  'phone',
  'textarea',
  'number',
  'select',
  'checkbox',
] as const;

export const ZVisitorFormField = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, {
      message: 'Use lowercase letters, digits and _ (start with a letter).',
    }),
  label: z.string().trim().min(1).max(100),
  type: z.enum(VISITOR_FIELD_TYPES),
  required: z.boolean().default(false),
  options: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
});
export type TVisitorFormField = z.infer<typeof ZVisitorFormField>;

export const ZChatGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  greeting: z.string(),
  color: z.string(),
  launcher_position: z.enum(LAUNCHER_POSITIONS),
  visitor_form: z.array(ZVisitorFormField),
  allowed_origins: z.array(z.string()),
  created_at: z.string(),
});
export type TChatGroup = z.infer<typeof ZChatGroup>;
