// Chat groups and the public chat API of the Titan Message channel (api.md "Public chat").
import { z } from 'zod';
import { LAUNCHER_POSITIONS, ZVisitorFormField } from './chat-group';
import { ZConversation } from './conversations';
import { ZMemberUser, ZRole } from './business';
import { ZChatGroup } from './chat-group';
import { ZAiResponderSettings } from './ai';
import { ZAssignmentSettings } from './presence';
import { ZWidgetLocale, ZWidgetStrings } from './widget-strings';
import { ZAwayMessage, ZBusinessHours, ZGroupAvailability, ZSlaTargets } from './service-levels';

const origin = z
  .string()
  .trim()
  .regex(/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, {
    message: 'Enter an origin like https://www.example.com (no path).',
  })
  .transform((v) => v.toLowerCase());

const chatGroupFields = {
  name: z.string().trim().min(1).max(100),
  slug: z
    .string()
    .trim()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/, {
      message: 'Use lowercase letters, digits and hyphens (up to 50).',
    }),
  greeting: z.string().trim().max(500),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'Enter a colour like #1f6feb.' }),
  launcher_position: z.enum(LAUNCHER_POSITIONS),
  visitor_form: z.array(ZVisitorFormField).max(20),
  allowed_origins: z.array(origin).max(50),
  /** Auto-assignment (next-api.md "Team inbox"); off when never set. */
  assignment: ZAssignmentSettings.optional(),
  /** The widget's language when neither the page nor the browser names a shipped one (issue 30). */
  locale: ZWidgetLocale.optional(),
  /** Per-locale text overrides, ICU MessageFormat: `{es: {placeholder: "Escríbenos…"}}`. */
  strings: ZWidgetStrings.optional(),
  /** The AI first responder (next-api.md "Knowledge and AI in the inbox"); off when never set. */
  ai_responder: ZAiResponderSettings.optional(),
  /** When the group answers (null: always); outside them the away message goes out once per closed period. */
  business_hours: ZBusinessHours.nullable().optional(),
  /** Sent once per conversation per closed period, on every channel; the widget shows it outside hours. */
  away_message: ZAwayMessage.optional(),
  /** First-response and resolution targets (null: none). */
  sla: ZSlaTargets.nullable().optional(),
  /** Resolving a conversation asks the customer for a 1–5 rating. */
  csat: z.boolean().optional(),
};

/** Creating a group: what is left out takes its default. */
export const ZSaveChatGroupRequest = z.object({
  ...chatGroupFields,
  greeting: chatGroupFields.greeting.default(''),
  color: chatGroupFields.color.default('#111827'),
  launcher_position: chatGroupFields.launcher_position.default('right'),
  visitor_form: chatGroupFields.visitor_form.default([]),
  allowed_origins: chatGroupFields.allowed_origins.default([]),
});
export type TSaveChatGroupRequest = z.input<typeof ZSaveChatGroupRequest>;
/**
 * Updating a group: only the fields sent change. No defaults here — zod fills a default in even
 * inside .partial(), so `PUT {name}` would otherwise reset the greeting, colour, form and origins.
 */
export const ZUpdateChatGroupRequest = z.object(chatGroupFields).partial();

/** A chat group as its own routes answer: the record conversations carry, and its settings. */
export const ZChatGroupSettings = ZChatGroup.extend({
  assignment: ZAssignmentSettings,
  locale: ZWidgetLocale,
  strings: z.record(z.string(), z.record(z.string(), z.string())),
  ai_responder: ZAiResponderSettings,
  business_hours: ZBusinessHours.nullable(),
  away_message: z.string(),
  sla: ZSlaTargets.nullable(),
  csat: z.boolean(),
});
export type TChatGroupSettings = z.infer<typeof ZChatGroupSettings>;

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
      launcher_position: z.enum(LAUNCHER_POSITIONS),
      visitor_form: z.array(ZVisitorFormField),
    })
    .nullable(),
  identity_verification: z.boolean(),
  /** The group's language (English for the business's own chat); the visitor's page and browser come first. */
  locale: ZWidgetLocale,
  /**
   * The group's overrides by locale then key, compiled from ICU MessageFormat for the widget's
   * runtime (@lingui/core): plain text stays a string; placeholders, plurals and dates become arrays.
   */
  strings: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** Whether a staff member who answers this chat is online now; if not, the widget asks for an email. */
  staff_online: z.boolean(),
  /** The group's business hours now: outside them the widget shows the away message and when the team is back. */
  availability: ZGroupAvailability,
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
export type TVisitor = z.infer<typeof ZVisitor>;

/** PUT /api/public/customers/me/: the address a visitor leaves so the conversation goes on by email. */
export const ZUpdateVisitorRequest = z.strictObject({ email: z.email().max(254) });
export type TUpdateVisitorRequest = z.input<typeof ZUpdateVisitorRequest>;
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
