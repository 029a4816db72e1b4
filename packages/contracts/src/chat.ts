// Chat groups and the public chat API of the Titan Message channel (api.md "Public chat").
import { z } from 'zod';
import { ZVisitorFormField } from './chat-group';
import { ZConversation } from './conversations';
import { ZMemberUser, ZRole } from './business';

const origin = z
  .string()
  .trim()
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, {
    message: 'Enter an origin like https://www.example.com (no path).',
  })
  .transform((v) => v.toLowerCase());

export const ZSaveChatGroupRequest = z.object({
  name: z.string().trim().min(1).max(100),
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/, {
      message: 'Use lowercase letters, digits and hyphens (up to 50).',
    }),
  greeting: z.string().trim().max(500).default(''),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Enter a colour like #1f6feb.' })
    .default('#111827'),
  launcher_position: z.enum(['right', 'left']).default('right'),
  visitor_form: z.array(ZVisitorFormField).max(20).default([]),
  allowed_origins: z.array(origin).max(50).default([]),
});
export type TSaveChatGroupRequest = z.input<typeof ZSaveChatGroupRequest>;
export const ZUpdateChatGroupRequest = ZSaveChatGroupRequest.partial();

export const ZChatGroupUser = z.object({ user: ZMemberUser, role: ZRole, added_at: z.string() });
export type TChatGroupUser = z.infer<typeof ZChatGroupUser>;
export const ZAddChatGroupUserRequest = z.object({ user_id: z.number().int().positive() });
export const ZChatGroupUserParams = z.object({
  id: z.coerce.number().int().positive(),
  userId: z.coerce.number().int().positive(),
});

// ── Public chat (no staff login) ─────────────────────────────────────────────────────────────
export const ZPublicChatInfo = z.object({
  business: z.object({ name: z.string(), logo_url: z.string().nullable() }),
  group: z
    .object({
      name: z.string(),
      slug: z.string(),
      greeting: z.string(),
      color: z.string(),
      launcher_position: z.enum(['right', 'left']),
      visitor_form: z.array(ZVisitorFormField),
    })
    .nullable(),
  identity_verification: z.boolean(),
});
export type TPublicChatInfo = z.infer<typeof ZPublicChatInfo>;

export const ZBusinessCodeParams = z.object({ business_code: z.string().trim().min(1).max(64) });
export const ZGroupInfoParams = ZBusinessCodeParams.extend({ group_slug: z.string().trim().min(1).max(50) });

export const ZCreateVisitorRequest = z.object({
  business_code: z.string().trim().min(1).max(64),
  group_slug: z.string().trim().min(1).max(50).optional(),
  name: z.string().trim().max(150).optional(),
  email: z.email().max(254).optional(),
  phone: z.string().trim().max(40).optional(),
  fields: z.record(z.string(), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
  /** The embedding site's id for this person, with HMAC-SHA256(user_id) under the widget secret. */
  user_id: z.string().trim().min(1).max(200).optional(),
  user_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .optional(),
});
export type TCreateVisitorRequest = z.input<typeof ZCreateVisitorRequest>;

export const ZVisitor = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export const ZVisitorSession = z.object({ customer: ZVisitor, token: z.string() });
export type TVisitorSession = z.infer<typeof ZVisitorSession>;

export const ZCreatePublicConversationRequest = z.object({
  group_slug: z.string().trim().min(1).max(50).optional(),
  title: z.string().trim().max(200).optional(),
});
export const ZPublicSendMessageRequest = z.discriminatedUnion('message_type', [
  z.object({ message_type: z.literal('text').default('text'), content: z.string().trim().min(1).max(5000) }),
  z.object({ message_type: z.literal('file'), content: z.string().min(1).max(1000) }),
]);

export const ZPublicConversation = ZConversation;

/** Business-wide widget settings (embed settings screen). */
export const ZWidgetSettings = z.object({
  allowed_origins: z.array(z.string()),
  identity_verification: z.boolean(),
  /** The HMAC key the embedding site signs user ids with; null while verification is off. */
  identity_secret: z.string().nullable(),
});
export type TWidgetSettings = z.infer<typeof ZWidgetSettings>;

export const ZUpdateWidgetSettingsRequest = z.object({
  allowed_origins: z.array(origin).max(50).optional(),
  identity_verification: z.boolean().optional(),
});
