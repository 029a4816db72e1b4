// Billing with Chargebee (engage.md §8): the business's subscription, its quotas and usage per
// channel and billing period, hosted pages, top-ups, and the 402 dialogs a refused send answers.
import { z } from 'zod';
import { SUBSCRIPTION_STATUSES } from './business';

export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The statuses a business may send in. */
export const SENDING_STATUSES: readonly TSubscriptionStatus[] = ['in_trial', 'active', 'non_renewing'];

export const BILLED_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type TBilledChannel = (typeof BILLED_CHANNELS)[number];

export const ZBillingUsage = z.object({
  channel: z.enum(BILLED_CHANNELS),
  /** Sends the provider accepted this period (the business's `<channel>_count`). */
  used: z.number().int(),
  /** Sends counted against the quota: queued, being sent and accepted. */
  reserved: z.number().int(),
  /** The plan's allowance per period; null: not limited. */
  quota: z.number().int().nullable(),
  /** Top-up credit bought for this period. */
  extra: z.number().int(),
  /** What may still be sent this period; null: not limited. */
  remaining: z.number().int().nullable(),
});
export type TBillingUsage = z.infer<typeof ZBillingUsage>;

export const ZTopUp = z.object({
  id: z.string(),
  name: z.string(),
  channel: z.enum(BILLED_CHANNELS),
  units: z.number().int(),
  /** In the currency's smallest unit (cents), as Chargebee answers prices. */
  price: z.number().int(),
  currency_code: z.string(),
});
export type TTopUp = z.infer<typeof ZTopUp>;

export const ZBillingState = z.object({
  /** False without CHARGEBEE_SITE: nothing is blocked (self-hosting). */
  enabled: z.boolean(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  can_send: z.boolean(),
  plan: z.object({ id: z.string(), name: z.string() }).nullable(),
  period_start: z.string(),
  period_end: z.string(),
  usage: z.array(ZBillingUsage),
  top_ups: z.array(ZTopUp),
  /** Why top-ups could not be listed (Chargebee unreachable), else null. */
  top_ups_error: z.string().nullable(),
});
export type TBillingState = z.infer<typeof ZBillingState>;

export const ZPortalSession = z.object({ access_url: z.string() });
export type TPortalSession = z.infer<typeof ZPortalSession>;
export const ZPricingPageSession = z.object({ url: z.string() });
export type TPricingPageSession = z.infer<typeof ZPricingPageSession>;

export const ZChargeRequest = z.object({
  /** A top-up's id as GET /api/chargebee/subscription/ lists it (a Chargebee charge item price). */
  top_up: z.string().trim().min(1).max(100),
});
export type TChargeRequest = z.infer<typeof ZChargeRequest>;

export const ZChargeResult = z.object({
  invoice_id: z.string(),
  /** Chargebee's invoice status: `paid` credits at once; otherwise when payment succeeds. */
  invoice_status: z.string(),
  channel: z.enum(BILLED_CHANNELS),
  units: z.number().int(),
  credited: z.boolean(),
});
export type TChargeResult = z.infer<typeof ZChargeResult>;

const CHANNEL_WORDS: Record<TBilledChannel, { plural: string; short: string }> = {
  email: { plural: 'emails', short: 'email' },
  sms: { plural: 'text messages', short: 'SMS' },
  whatsapp: { plural: 'WhatsApp messages', short: 'WhatsApp' },
};

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });

/** What a refused send answers (402, `result.dialog`): what happened, what to do. */
export const BILLING_DIALOGS = {
  inactive: {
    title: 'Choose a plan to start sending',
    description:
      'Your business has no active subscription, so Titan cannot send messages yet. Open Settings → Billing, pick a plan, and send again.',
  },
  paused: {
    title: 'Your subscription is paused',
    description:
      'Sending stops while your subscription is paused. Resume it from Manage billing in Settings → Billing, then send again.',
  },
  cancelled: {
    title: 'Your subscription has ended',
    description:
      'Your subscription was cancelled, so Titan cannot send messages. Open Settings → Billing and choose a plan to start sending again.',
  },
  quota: (channel: TBilledChannel, quota: number, renewsAt: string) => ({
    title: `You have used all your ${CHANNEL_WORDS[channel].plural} for this period`,
    description: `Your plan includes ${quota.toLocaleString('en-US')} ${CHANNEL_WORDS[channel].plural} per billing period and they are all used. Upgrade your plan or buy a ${CHANNEL_WORDS[channel].short} top-up in Settings → Billing; your allowance renews on ${day(renewsAt)}.`,
  }),
  listTooLarge: (channel: TBilledChannel, needed: number, remaining: number) => ({
    title: 'This list is larger than what your plan has left',
    description: `Sending to this list takes up to ${needed.toLocaleString('en-US')} ${CHANNEL_WORDS[channel].plural}, and your plan has ${remaining.toLocaleString('en-US')} left this billing period. Upgrade your plan or buy a ${CHANNEL_WORDS[channel].short} top-up in Settings → Billing, or send to a smaller list.`,
  }),
} as const;

export const BILLING_ERRORS = {
  off: 'Billing is not configured on this Titan server (CHARGEBEE_SITE is not set): nothing is limited.',
  unreachable: 'Chargebee could not be reached; try again in a minute.',
  noPaymentMethod: 'Add a card in Manage billing first: Chargebee has no way to charge this business yet.',
  unknownTopUp: 'No such top-up.',
  webhookCredentials: 'Wrong webhook credentials.',
} as const;
