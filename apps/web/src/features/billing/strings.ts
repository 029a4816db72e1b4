// User-visible strings of the payment return page.
export const BILLING_STRINGS = {
  successTitle: 'Payment reported as successful',
  cancelledTitle: 'Payment cancelled',
  failedTitle: 'Payment failed',
  unknownTitle: (status: string) => `Payment status: ${status}`,
  notConnected:
    'Billing is not connected to Titan yet, so this page cannot confirm the payment with a payment provider and your plan has not changed.',
  currentStatus: (business: string, status: string) => `${business}'s subscription status is ${status}.`,
  goToDashboard: 'Go to dashboard',
} as const;
