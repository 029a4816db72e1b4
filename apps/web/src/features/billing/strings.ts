// User-visible strings of billing: Settings → Billing and the payment return page.
import type { TBilledChannel, TSubscriptionStatus } from '@titan/contracts';

export const BILLING_STRINGS = {
  successTitle: 'Payment received',
  successText: 'Thank you — your plan is being updated. It can take a few seconds to show here.',
  cancelledTitle: 'Payment cancelled',
  cancelledText: 'Nothing was charged and your plan has not changed.',
  failedTitle: 'Payment failed',
  failedText: 'The payment did not go through and your plan has not changed. Try again with another card.',
  unknownTitle: (status: string) => `Payment status: ${status}`,
  notConnected:
    'Billing is not connected to this Titan server, so this page cannot confirm the payment with a payment provider and your plan has not changed.',
  currentStatus: (business: string, status: string) => `${business}'s subscription status is ${status}.`,
  goToBilling: 'Back to billing',
  goToDashboard: 'Go to dashboard',

  title: 'Billing',
  description: 'Your plan, what it allows each billing period, and what you have used.',
  off: 'Billing is not set up on this Titan server, so nothing is limited: every channel sends as much as its provider allows.',
  loadFailed: 'Billing could not be loaded.',
  plan: 'Plan',
  noPlan: 'No plan yet',
  status: 'Status',
  period: (start: string, end: string) => `Billing period ${start} – ${end}`,
  statuses: {
    inactive: 'No subscription',
    in_trial: 'Trial',
    active: 'Active',
    non_renewing: 'Ends at the end of this period',
    paused: 'Paused',
    cancelled: 'Cancelled',
  } satisfies Record<TSubscriptionStatus, string>,
  cannotSend:
    'Sending is stopped until the subscription is active. Choose a plan or resume it in Manage billing.',
  usageTitle: 'Usage this period',
  channels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp' } satisfies Record<TBilledChannel, string>,
  usage: (reserved: number, allowance: number) =>
    `${reserved.toLocaleString('en-US')} of ${allowance.toLocaleString('en-US')}`,
  unlimited: (reserved: number) => `${reserved.toLocaleString('en-US')} sent · not limited`,
  includesTopUp: (extra: number) => `includes ${extra.toLocaleString('en-US')} from top-ups`,
  choosePlan: 'Choose a plan',
  changePlan: 'Change plan',
  manage: 'Manage billing',
  opening: 'Opening…',
  ownersOnly: 'Only the business owner can change the plan or buy top-ups.',
  topUpsTitle: 'Top-ups',
  topUpsText: 'Extra messages for this billing period, charged once to the card on file.',
  noTopUps: 'No top-ups are offered.',
  buy: (price: string) => `Buy for ${price}`,
  buying: 'Buying…',
  buyTitle: (name: string) => `Buy ${name}?`,
  buyText: (units: number, channel: string, price: string) =>
    `${units.toLocaleString('en-US')} ${channel} messages are added to this billing period and ${price} is charged once to the card on file. This cannot be undone.`,
  buyConfirm: (price: string) => `Pay ${price}`,
  bought: (units: number, channel: string) =>
    `${units.toLocaleString('en-US')} ${channel} added to this period.`,
  pending: 'The invoice is waiting for payment; the messages are added once it is paid.',
} as const;
