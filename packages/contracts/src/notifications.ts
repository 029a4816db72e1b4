// Alerts for staff (next-api.md "Team inbox", issue 29): a member's notifications, read state,
// per-type preferences (in-app, push, email) and Web Push subscriptions.
import { z } from 'zod';
import { ZPageQuery } from './conversations';
import { ZPage } from './envelope';

/**
 * `assigned`: a conversation was assigned to you; `mentioned`: a note names you;
 * `new_message`: a customer wrote in a conversation assigned to you; `sla_breach`: a conversation
 * you own passed its SLA target (reserved: raised once SLAs exist).
 */
export const NOTIFICATION_TYPES = ['assigned', 'mentioned', 'new_message', 'sla_breach'] as const;
export const ZNotificationType = z.enum(NOTIFICATION_TYPES);
export type TNotificationType = z.infer<typeof ZNotificationType>;

export const ZNotification = z.object({
  id: z.number().int(),
  type: ZNotificationType,
  /** One line for people: "Ann assigned you “Order 1234”". */
  title: z.string(),
  /** A short excerpt: the note, the customer's message (may be empty). */
  body: z.string(),
  conversation_id: z.number().int().nullable(),
  /** The member who caused it, when one did. */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type TNotification = z.infer<typeof ZNotification>;

const boolQuery = z
  .enum(['true', 'false'], { message: 'Must be true or false.' })
  .transform((v) => v === 'true');

export const ZNotificationListQuery = ZPageQuery.extend({ unread: boolQuery.optional() }).strict();
export type TNotificationListQuery = z.infer<typeof ZNotificationListQuery>;

/** A page of notifications, with the member's unread count (the bell's number). */
export const ZNotificationPage = ZPage(ZNotification).extend({ unread_count: z.number().int() });
export type TNotificationPage = z.infer<typeof ZNotificationPage>;

export const NOTIFICATION_ERRORS = {
  readWhich: 'Send either ids or all: true.',
  unknownIds: 'One or more of these notifications were not found.',
  subscriptionEndpoint: 'Enter the https address of the push service.',
  subscriptionKeys: 'The subscription keys are not valid (p256dh: 65 bytes, auth: 16 bytes, base64url).',
  noSubscription: 'No push subscription with this endpoint.',
} as const;

/** POST /api/notifications/read/: `{ids}` or `{all: true}`. */
export const ZNotificationReadRequest = z
  .strictObject({
    ids: z.array(z.number().int().positive()).min(1).max(500).optional(),
    all: z.literal(true, { message: 'Must be true.' }).optional(),
  })
  .refine((v) => (v.ids === undefined) !== (v.all === undefined), {
    message: NOTIFICATION_ERRORS.readWhich,
    path: ['ids'],
  });
export type TNotificationReadRequest = z.infer<typeof ZNotificationReadRequest>;
export const ZNotificationReadResult = z.object({
  updated: z.number().int(),
  unread_count: z.number().int(),
});

export const ZNotificationChannels = z.strictObject({
  in_app: z.boolean(),
  push: z.boolean(),
  email: z.boolean(),
});
export type TNotificationChannels = z.infer<typeof ZNotificationChannels>;

/** Per type, where a member is told. Every type is always present in answers. */
export const ZNotificationPreferences = z.strictObject({
  assigned: ZNotificationChannels,
  mentioned: ZNotificationChannels,
  new_message: ZNotificationChannels,
  sla_breach: ZNotificationChannels,
});
export type TNotificationPreferences = z.infer<typeof ZNotificationPreferences>;
/** PUT takes any subset of types, each complete. */
export const ZNotificationPreferencesUpdate = ZNotificationPreferences.partial();
export type TNotificationPreferencesUpdate = z.infer<typeof ZNotificationPreferencesUpdate>;

/** Where each type goes until a member chooses: everything in-app and by push; email for you-only events. */
export const DEFAULT_NOTIFICATION_PREFERENCES: TNotificationPreferences = {
  assigned: { in_app: true, push: true, email: true },
  mentioned: { in_app: true, push: true, email: true },
  new_message: { in_app: true, push: true, email: false },
  sla_breach: { in_app: true, push: true, email: true },
};

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, NOTIFICATION_ERRORS.subscriptionKeys)
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === bytes, {
      message: NOTIFICATION_ERRORS.subscriptionKeys,
    });

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const ZPushSubscriptionRequest = z.object({
  endpoint: z
    .string()
    .max(2000)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
      message: NOTIFICATION_ERRORS.subscriptionEndpoint,
    }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
});
export type TPushSubscriptionRequest = z.infer<typeof ZPushSubscriptionRequest>;
export const ZPushSubscriptionDelete = z.strictObject({ endpoint: z.string().min(1).max(2000) });

export const ZPushSubscription = z.object({
  id: z.number().int(),
  endpoint: z.string(),
  created_at: z.string(),
});
/** GET …/push-subscriptions/: the VAPID public key the browser subscribes with, and this member's. */
export const ZPushSetup = z.object({
  vapid_public_key: z.string(),
  subscriptions: z.array(ZPushSubscription),
});
export type TPushSetup = z.infer<typeof ZPushSetup>;

/** What a push carries to the service worker (encrypted end to end, RFC 8291). */
export type TPushPayload = {
  id: number;
  type: TNotificationType;
  title: string;
  body: string;
  conversation_id: number | null;
  business_code: string;
  unread_count: number;
};
