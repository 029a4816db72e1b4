// Who marketing sends (agents, broadcasts to a list) may reach. By default only customers who
// subscribed on the channel; a business may choose, per agent or per send, to also write to
// customers whose consent is unknown on the grounds of its legitimate interest (an existing
// customer relationship), taking responsibility for that ground. Unsubscribed, bounced and
// complained customers are never reached, whatever the mode.
import { z } from 'zod';
import type { TConsentStatus } from './directory';

export const MARKETING_CONSENT_MODES = ['subscribed', 'legitimate_interest'] as const;
export const ZMarketingConsent = z.enum(MARKETING_CONSENT_MODES);
export type TMarketingConsent = z.infer<typeof ZMarketingConsent>;

export const MARKETING_CONSENT_ERRORS = {
  listOnly: 'consent applies to a send to a list (list_id) only.',
} as const;

/** Whether a marketing send in `mode` may reach a customer whose consent on the channel is `status`. */
export function marketingConsentAllows(mode: TMarketingConsent, status: TConsentStatus): boolean {
  return status === 'subscribed' || (mode === 'legitimate_interest' && status === 'unknown');
}
