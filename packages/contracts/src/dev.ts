// The development outbox (api.md): mail kept instead of sent when no SMTP server is configured.
import { z } from 'zod';

export const OUTBOX_ERRORS = {
  toRequired: 'Name the address whose mail to show: ?to=<email>.',
  notLocal: 'The development outbox answers only requests made on the machine running Titan.',
} as const;

/** `to` is required: the outbox shows one address's mail, never everybody's. */
export const ZOutboxQuery = z.strictObject({
  to: z.email({
    error: (issue) => (issue.input === undefined ? OUTBOX_ERRORS.toRequired : undefined),
  }),
});
export type TOutboxQuery = z.infer<typeof ZOutboxQuery>;
export const ZOutboxMail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  sent_at: z.string(),
});
export type TOutboxMail = z.infer<typeof ZOutboxMail>;
