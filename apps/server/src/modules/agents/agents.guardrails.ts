// The guardrails every agent send passes (engage.md §5) before a delivery is written: consent,
// the suppression list, the per-recipient cap across agents, the business's frequency cap across
// campaigns, journeys and agents (issue 32), quiet hours in the recipient's time
// zone (else the business's), the WhatsApp 24-hour window (only templates outside it) and the
// run's max sends. Pure functions over facts gathered once per page of the audience.
import {
  isTimeZone,
  marketingConsentAllows,
  type TAgentChannel,
  type TAgentConfigValues,
  type TAgentGuardrail,
} from '@titan/contracts';
import type { CustomerRow } from '../directory';

/** What a guardrail needs to know of one recipient, gathered for a page at a time. */
export type RecipientFacts = {
  customer: CustomerRow;
  /** Where the channel reaches them: the email address or the E.164 number; null when none. */
  address: string | null;
  suppressed: boolean;
  /** Deliveries of any agent of the business to them in the last 7 days (planned to sent). */
  recentDeliveries: number;
  /**
   * The business's marketing frequency cap (sends of campaigns, journeys and agents in its window)
   * when it stops this customer: the sends counted and the sentence; null when it lets them through.
   */
  frequencyCap: { sent: number; reason: string } | null;
  /** The recipient's time zone, else the business's. */
  timezone: string;
  /** WhatsApp: the conversation whose customer wrote last, and whether its 24-hour window is open. */
  whatsapp: { conversationId: number; windowOpen: boolean } | null;
};

export type GuardrailStop = {
  status: 'suppressed' | 'skipped';
  guardrail: TAgentGuardrail | null;
  reason: string;
};

export const GUARDRAIL_ERRORS = {
  noEmail: 'The customer has no email address.',
  noPhone: 'The customer has no phone number in international format.',
  optedOut: (channel: TAgentChannel, status: string) =>
    `The customer’s ${CHANNEL_WORD[channel]} consent is “${status}”: agents never write to them there.`,
  noOptIn: (channel: TAgentChannel) =>
    `The customer has not agreed to receive ${CHANNEL_WORD[channel]} messages (consent unknown); this agent writes only to customers who subscribed on ${CHANNEL_WORD[channel]}.`,
  suppressed: (address: string) => `${address} is on the suppression list.`,
  cap: (n: number, limit: number) =>
    `Agents already wrote to this customer ${n} time${n === 1 ? '' : 's'} in the last 7 days (the limit is ${limit} a week).`,
  quietHours: (start: string, end: string, local: string, tz: string) =>
    `Quiet hours (${start}–${end}): it is ${local} in ${tz} for this customer.`,
  whatsappWindow:
    'More than 24 hours have passed since the customer last wrote on WhatsApp: only an approved template may be sent.',
  maxSends: (limit: number) => `The run reached its limit of ${limit} sends.`,
} as const;

const CHANNEL_WORD: Record<TAgentChannel, string> = { email: 'email', sms: 'SMS', whatsapp: 'WhatsApp' };

const CONSENT_OF: Record<TAgentChannel, (c: CustomerRow) => CustomerRow['emailStatus']> = {
  email: (c) => c.emailStatus,
  sms: (c) => c.smsStatus,
  whatsapp: (c) => c.whatsappStatus,
};

const OPTED_OUT = new Set(['unsubscribed', 'bounced', 'complained']);

/** The customer's own time zone (a `timezone`, `time_zone` or `tz` field), when it is a valid one. */
const zoneCache = new Map<string, boolean>();
export function customerTimezone(customer: CustomerRow): string | null {
  const fields = customer.fields ?? {};
  for (const key of ['timezone', 'time_zone', 'tz']) {
    const v = fields[key];
    if (typeof v !== 'string' || !v) continue;
    let ok = zoneCache.get(v);
    if (ok === undefined) {
      ok = isTimeZone(v);
      if (zoneCache.size < 1000) zoneCache.set(v, ok);
    }
    if (ok) return v;
  }
  return null;
}

const clocks = new Map<string, Intl.DateTimeFormat>();
/** HH:MM at `now` in `tz` (formatters kept per zone: making one costs more than using it). */
export function localTime(now: Date, tz: string): string {
  let f = clocks.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(tz, f);
  }
  return f.format(now);
}

/** The wall clock of `at` in `tz` as UTC fields (year … minute). */
function wallClock(at: Date, tz: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return parts;
}

/** The instant whose wall clock in `tz` reads y-m-d hh:mm (the later one across a DST gap). */
function instantAt(tz: string, y: number, m: number, d: number, hh: number, mm: number): Date {
  const wanted = Date.UTC(y, m - 1, d, hh, mm);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const w = wallClock(new Date(guess), tz);
    const seen = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
    if (seen === wanted) break;
    guess += wanted - seen;
  }
  return new Date(guess);
}

/**
 * When quiet hours that hold at `now` end: the next time the wall clock in `tz` reads `end` (HH:MM)
 * — today when it is still before `end` there, else tomorrow.
 */
export function quietHoursEnd(now: Date, tz: string, end: string): Date {
  const w = wallClock(now, tz);
  const [hh, mm] = end.split(':').map(Number) as [number, number];
  const today = instantAt(tz, w.year, w.month, w.day, hh, mm);
  if (today.getTime() > now.getTime()) return today;
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return instantAt(tz, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), hh, mm);
}

/** A time as the run log words it: "08:00 on 29 Nov 2026 (Europe/Berlin)". */
export function wallClockWords(at: Date, tz: string): string {
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return `${localTime(at, tz)} on ${day.format(at)} (${tz})`;
}

/** Whether HH:MM falls in [start, end), the span crossing midnight when end < start. */
export function inQuietHours(time: string, start: string, end: string): boolean {
  return start < end ? time >= start && time < end : time >= start || time < end;
}

/**
 * The guardrails known before the model is asked (so no tokens are spent on a customer no send
 * may reach): an address, consent, suppression, the agents' weekly cap, the business's frequency
 * cap and quiet hours. Null: go on.
 * Every channel needs an opt-in (`subscribed`), unless the agent's consent mode is legitimate
 * interest, which also lets it reach customers whose consent is unknown — never the opted out.
 */
export function recipientStop(
  channel: TAgentChannel,
  config: TAgentConfigValues,
  facts: RecipientFacts,
  now: Date,
): GuardrailStop | null {
  if (!facts.address)
    return {
      status: 'skipped',
      guardrail: null,
      reason: channel === 'email' ? GUARDRAIL_ERRORS.noEmail : GUARDRAIL_ERRORS.noPhone,
    };
  const consent = CONSENT_OF[channel](facts.customer);
  if (OPTED_OUT.has(consent))
    return {
      status: 'suppressed',
      guardrail: 'consent',
      reason: GUARDRAIL_ERRORS.optedOut(channel, consent),
    };
  // Configs saved before the mode existed lack it: they get the default.
  if (!marketingConsentAllows(config.consent_mode ?? 'subscribed', consent))
    return { status: 'suppressed', guardrail: 'consent', reason: GUARDRAIL_ERRORS.noOptIn(channel) };
  if (facts.suppressed)
    return {
      status: 'suppressed',
      guardrail: 'suppression',
      reason: GUARDRAIL_ERRORS.suppressed(facts.address),
    };
  const limit = config.limits.per_recipient_per_week;
  if (facts.recentDeliveries >= limit)
    return {
      status: 'suppressed',
      guardrail: 'per_recipient_cap',
      reason: GUARDRAIL_ERRORS.cap(facts.recentDeliveries, limit),
    };
  if (facts.frequencyCap)
    return { status: 'suppressed', guardrail: 'frequency_cap', reason: facts.frequencyCap.reason };
  if (config.quiet_hours) {
    const local = localTime(now, facts.timezone);
    if (inQuietHours(local, config.quiet_hours.start, config.quiet_hours.end))
      return {
        status: 'suppressed',
        guardrail: 'quiet_hours',
        reason: GUARDRAIL_ERRORS.quietHours(
          config.quiet_hours.start,
          config.quiet_hours.end,
          local,
          facts.timezone,
        ),
      };
  }
  return null;
}

/**
 * The guardrails of one send the model asked for: the WhatsApp window (free-form text only while
 * it is open; templates always) and the run's max sends (`planned`: sends the run already let
 * through).
 */
export function sendStop(
  channel: TAgentChannel,
  config: TAgentConfigValues,
  facts: RecipientFacts,
  send: { templateId: number | null },
  planned: number,
): GuardrailStop | null {
  if (channel === 'whatsapp' && send.templateId === null && !facts.whatsapp?.windowOpen)
    return { status: 'suppressed', guardrail: 'whatsapp_window', reason: GUARDRAIL_ERRORS.whatsappWindow };
  if (planned >= config.limits.max_sends_per_run)
    return {
      status: 'suppressed',
      guardrail: 'max_sends_per_run',
      reason: GUARDRAIL_ERRORS.maxSends(config.limits.max_sends_per_run),
    };
  return null;
}
