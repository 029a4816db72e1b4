// User-visible strings of the public rating page (the link in a resolved conversation's survey).
export const CSAT_STRINGS = {
  title: 'How would you rate this conversation?',
  description: (business: string) => `Your answer goes to ${business}.`,
  ratingLegend: 'Your rating',
  rating: (n: number) => `${n} ${n === 1 ? 'star' : 'stars'} out of 5`,
  comment: 'Anything you want to add? (optional)',
  send: 'Send rating',
  sending: 'Sending…',
  thanksTitle: 'Thank you!',
  thanks: (business: string, rating: number) => `${business} received your rating of ${rating} out of 5.`,
  change: 'Change my rating',
  invalidTitle: 'This link does not work',
  invalid: 'The survey was not found. It may have been removed.',
  failed: 'Your rating could not be sent. Please try again.',
} as const;
