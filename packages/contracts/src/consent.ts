// Consent done right (next-api.md "Campaigns and consent"): topics per business, the preference
// centre behind every mail's unsubscribe link, double opt-in confirmations, and a customer's
// export and erase (GDPR articles 15 and 17).
import { z } from 'zod';

export const CONSENT_ERRORS = {
  topicNotFound: 'No such topic.',
  topicNameTaken: 'A topic with this name already exists.',
  preferencesInvalid: 'This link is not valid. Use the link from the latest mail you received.',
  confirmInvalid: 'This confirmation link is not valid or has expired.',
  unknownTopics: 'These topics are not this business’s.',
  colorInvalid: 'Use a colour like #1d4ed8.',
  logoInvalid: 'Use an https:// address of an image.',
} as const;

export const ZConsentTopic = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TConsentTopic = z.infer<typeof ZConsentTopic>;

const ZTopicName = z.string().trim().min(1, 'This field may not be blank.').max(100);
const ZTopicDescription = z.string().trim().max(500);

export const ZCreateConsentTopicRequest = z.object({
  name: ZTopicName,
  description: ZTopicDescription.default(''),
});
export type TCreateConsentTopicRequest = z.infer<typeof ZCreateConsentTopicRequest>;

export const ZUpdateConsentTopicRequest = z
  .object({ name: ZTopicName.optional(), description: ZTopicDescription.optional() })
  .refine((v) => v.name !== undefined || v.description !== undefined, {
    message: 'Send name or description.',
    path: ['non_field_errors'],
  });
export type TUpdateConsentTopicRequest = z.infer<typeof ZUpdateConsentTopicRequest>;

/** The look of the business's preference centre and confirmation pages. */
export const ZConsentPage = z.object({
  logo_url: z.string().nullable(),
  accent_color: z.string().nullable(),
});
export type TConsentPage = z.infer<typeof ZConsentPage>;

export const ZUpdateConsentPageRequest = z.object({
  logo_url: z
    .string()
    .trim()
    .max(2000)
    .regex(/^https:\/\/\S+$/, CONSENT_ERRORS.logoInvalid)
    .nullable()
    .optional(),
  accent_color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, CONSENT_ERRORS.colorInvalid)
    .nullable()
    .optional(),
});
export type TUpdateConsentPageRequest = z.infer<typeof ZUpdateConsentPageRequest>;

/** The languages the public consent pages speak; the customer's own when it is one of them. */
export const CONSENT_PAGE_LOCALES = ['en', 'fr', 'de', 'es'] as const;
export const ZConsentPageLocale = z.enum(CONSENT_PAGE_LOCALES);
export type TConsentPageLocale = z.infer<typeof ZConsentPageLocale>;

export const ZPublicTokenParams = z.object({ token: z.string().trim().min(1).max(2000) });

/** GET /api/public/preferences/{token}/: what the preference centre shows. */
export const ZPreferences = z.object({
  business: z.object({
    name: z.string(),
    logo_url: z.string().nullable(),
    accent_color: z.string().nullable(),
  }),
  email: z.string(),
  locale: ZConsentPageLocale,
  /** Every topic of the business, and whether this person still gets it. */
  topics: z.array(
    z.object({ id: z.number().int(), name: z.string(), description: z.string(), subscribed: z.boolean() }),
  ),
  /** They left all of the business's mail (suppressed). */
  unsubscribe_all: z.boolean(),
});
export type TPreferences = z.infer<typeof ZPreferences>;

/** PUT /api/public/preferences/{token}/: the topics they keep, or leave all. */
export const ZUpdatePreferencesRequest = z.object({
  topics: z.array(z.number().int().positive()).max(200),
  unsubscribe_all: z.boolean(),
});
export type TUpdatePreferencesRequest = z.infer<typeof ZUpdatePreferencesRequest>;

/** GET/POST /api/public/confirm/{token}/: a double opt-in confirmation. */
export const ZConsentConfirmation = z.object({
  business: z.object({
    name: z.string(),
    logo_url: z.string().nullable(),
    accent_color: z.string().nullable(),
  }),
  channel: z.enum(['email', 'sms']),
  address: z.string(),
  list_name: z.string().nullable(),
  /** Whether it is confirmed (GET says so without confirming; POST confirms). */
  confirmed: z.boolean(),
});
export type TConsentConfirmation = z.infer<typeof ZConsentConfirmation>;
