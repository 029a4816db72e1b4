// The business's marketing frequency cap (issue 32): no customer gets more than `max_messages`
// marketing messages in `period_days` days, whatever sends them — campaigns (and list broadcasts),
// journeys and AI agents, on email, SMS and WhatsApp. Replies in the inbox, one-off staff sends,
// tests and system mail are never counted nor stopped. Off until the business turns it on.
import { z } from 'zod';

/** The ranges a business may choose: [min, max]. */
export const FREQUENCY_CAP_RANGES = {
  max_messages: [1, 100],
  period_days: [1, 90],
} as const;

export const ZFrequencyCap = z.object({
  enabled: z.boolean(),
  max_messages: z
    .number()
    .int()
    .min(FREQUENCY_CAP_RANGES.max_messages[0])
    .max(FREQUENCY_CAP_RANGES.max_messages[1]),
  period_days: z
    .number()
    .int()
    .min(FREQUENCY_CAP_RANGES.period_days[0])
    .max(FREQUENCY_CAP_RANGES.period_days[1]),
});
export type TFrequencyCap = z.infer<typeof ZFrequencyCap>;

/** PUT /api/business/frequency-cap/: the whole setting. */
export const ZFrequencyCapRequest = ZFrequencyCap;
export type TFrequencyCapRequest = z.infer<typeof ZFrequencyCapRequest>;

/** A business that never chose: off, with 3 every 7 days ready for when it is turned on. */
export const FREQUENCY_CAP_DEFAULT: TFrequencyCap = { enabled: false, max_messages: 3, period_days: 7 };

const messages = (n: number) => (n === 1 ? '1 marketing message' : `${n} marketing messages`);
const days = (n: number) => (n === 1 ? 'day' : `${n} days`);

/** The words people read, on the settings screen and wherever a capped send is reported. */
export const FREQUENCY_CAP_WORDS = {
  /** The rule as the settings screen states it. */
  rule: (cap: Pick<TFrequencyCap, 'max_messages' | 'period_days'>) =>
    `At most ${messages(cap.max_messages)} per customer every ${days(cap.period_days)}, across campaigns, journeys and agents. Replies and one-off messages are not counted.`,
  /** Why one customer's send was stopped (campaign recipients, agent deliveries, journey paths). */
  reason: (sent: number, cap: Pick<TFrequencyCap, 'max_messages' | 'period_days'>) =>
    `Frequency cap: the customer already got ${messages(sent)} in the last ${days(cap.period_days)} (the business’s limit is ${cap.max_messages} every ${days(cap.period_days)}, across campaigns, journeys and agents).`,
  /** The key capped customers are counted under in a campaign's or broadcast's skipped reasons. */
  skipped: 'frequency cap reached',
} as const;
