// What Twilio itself computes: request signatures (X-Twilio-Signature), segments and prices of a
// body, message SIDs and its dates, and its error bodies.
import { createHmac, randomBytes } from 'node:crypto';

/** base64(HMAC-SHA1(auth token, url + each POST parameter's name and value, sorted by name)). */
export function signatureFor(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export const newSid = (prefix: 'SM' | 'MM' | 'AC' | 'SK' | 'MG') => prefix + randomBytes(16).toString('hex');

/** Twilio's dates: RFC 2822 in GMT, e.g. "Mon, 24 Nov 2026 05:20:00 +0000". */
export const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');

const GSM =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_ESCAPED = '\f^{}\\[~]|€';

/** How many SMS parts a body takes (GSM-7: 160 alone, 153 concatenated; UCS-2: 70 / 67). */
export function segmentsOf(body: string): { segments: number; encoding: 'GSM' | 'UCS2' } {
  const chars = Array.from(body);
  const isGsm = chars.every((c) => GSM.includes(c) || GSM_ESCAPED.includes(c));
  const weights = chars.map((c) => (isGsm ? (GSM_ESCAPED.includes(c) ? 2 : 1) : c.length));
  const total = weights.reduce((a, w) => a + w, 0);
  if (total <= (isGsm ? 160 : 70)) return { segments: 1, encoding: isGsm ? 'GSM' : 'UCS2' };
  const room = isGsm ? 153 : 67;
  let parts = 1;
  let fill = 0;
  for (const w of weights) {
    if (fill + w > room) {
      parts += 1;
      fill = 0;
    }
    fill += w;
  }
  return { segments: parts, encoding: isGsm ? 'GSM' : 'UCS2' };
}

export type TwilioErrorBody = { code: number; message: string; more_info: string; status: number };

export function errorBody(status: number, code: number, message: string): TwilioErrorBody {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

/** Twilio's default opt-out and opt-in words (Advanced Opt-Out off): one word, any case. */
export const OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'];
export const OPT_IN_WORDS = ['START', 'YES', 'UNSTOP'];
export const HELP_WORDS = ['HELP', 'INFO'];

export function optOutTypeOf(body: string): 'STOP' | 'START' | 'HELP' | null {
  const word = body.trim().toUpperCase();
  if (OPT_OUT_WORDS.includes(word)) return 'STOP';
  if (OPT_IN_WORDS.includes(word)) return 'START';
  if (HELP_WORDS.includes(word)) return 'HELP';
  return null;
}

/**
 * Twilio's magic test numbers (as with test credentials): sending to them fails at the API with
 * their documented code.
 */
export const MAGIC_TO: Record<string, { code: number; message: string }> = {
  '+15005550001': { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." },
  '+15005550002': { code: 21612, message: "The 'To' phone number is not currently reachable via SMS." },
  '+15005550003': {
    code: 21408,
    message: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number.",
  },
  '+15005550004': { code: 21610, message: 'Attempt to send to unsubscribed recipient' },
  '+15005550009': { code: 21614, message: "'To' number is not a valid mobile number" },
};

/** Delivery errors Twilio reports in status callbacks, and the status each ends in. */
export const DELIVERY_ERRORS: Record<number, 'failed' | 'undelivered'> = {
  30001: 'failed',
  30002: 'failed',
  30003: 'undelivered',
  30004: 'undelivered',
  30005: 'undelivered',
  30006: 'undelivered',
  30007: 'undelivered',
  30008: 'undelivered',
};
