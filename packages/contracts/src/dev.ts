// The development outbox (api.md): mail kept instead of sent when no SMTP server is configured.
import { z } from 'zod';

export const ZOutboxQuery = z.object({ to: z.email().optional() });
export const ZOutboxMail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  sent_at: z.string(),
});
export type TOutboxMail = z.infer<typeof ZOutboxMail>;
