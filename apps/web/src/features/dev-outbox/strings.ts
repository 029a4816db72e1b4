// User-visible strings of the development outbox page (a development aid; not in the spec).
export const DEV_OUTBOX_STRINGS = {
  title: 'Development outbox',
  description:
    'This Titan has no mail server (SMTP_URL), so mail is kept here instead of sent. Only this machine can read it.',
  off: 'This Titan sends its mail through a mail server: there is no development outbox to read.',
  email: 'Email address',
  show: 'Show mail',
  loadFailed: 'The outbox could not be read.',
  emptyTitle: 'No mail',
  emptyText: (email: string) => `Nothing was sent to ${email} yet.`,
  links: 'Links',
  sentAt: (when: string) => `Sent ${when}`,
} as const;
