// User-visible strings of the composer's canned-response picker (issue 29).
export const CANNED_PICKER_STRINGS = {
  list: 'Canned responses',
  hint: 'Type / for canned responses',
  empty: 'No canned response matches.',
  none: 'No canned responses yet. Add them in Settings → Canned responses.',
  loading: 'Loading canned responses…',
  attachment: (name: string) => `Attachment: ${name}`,
  failed: 'The canned response could not be inserted.',
  willSend: (name: string) => `${name} is sent with this reply.`,
  removeAttachment: (name: string) => `Remove ${name}`,
} as const;
