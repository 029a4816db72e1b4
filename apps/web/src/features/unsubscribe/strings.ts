// User-visible strings of the public unsubscribe page (/engage/unsubscribe?token=…), reached from
// the link in every email a business sends through Titan.
export const UNSUBSCRIBE_STRINGS = {
  loading: 'Loading…',
  title: (business: string) => `Unsubscribe from ${business}`,
  explain: (business: string, email: string) =>
    `If you unsubscribe, ${email} will stop receiving emails from ${business}. ` +
    'Emails from other businesses are not affected.',
  undoLater: 'You can subscribe again from this page at any time.',
  button: 'Unsubscribe',
  working: 'Unsubscribing…',
  doneTitle: 'You are unsubscribed',
  done: (business: string, email: string) => `${email} will no longer receive emails from ${business}.`,
  undoHint: 'Unsubscribed by mistake?',
  undo: 'Subscribe again',
  undoing: 'Subscribing…',
  resubscribedTitle: 'You are subscribed again',
  resubscribed: (business: string, email: string) => `${email} will receive emails from ${business} again.`,
  unsubscribeAgain: 'Unsubscribe',
  invalidTitle: 'This link is not valid',
  invalid:
    'The unsubscribe link may be incomplete or no longer valid. Open it again from the email, or use the ' +
    'unsubscribe link in a newer email.',
  failed: 'Something went wrong. Please try again.',
  retry: 'Try again',
} as const;
