// Twilio's request signature (X-Twilio-Signature): base64 of HMAC-SHA1 over the full URL Twilio
// called followed by every POST parameter's name and value, sorted by name, keyed with the
// account's Auth Token. https://www.twilio.com/docs/usage/security#validating-requests
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../platform/crypto';

export type FormParams = Record<string, string | string[]>;

/** The signature Twilio sends for a form POST of `params` to `url`. */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    for (const v of Array.isArray(value) ? [...value].sort() : [value]) data += name + v;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * The same URL with and without its scheme's default port: Twilio's own validators accept either,
 * since a proxy in front of the server may add or drop it.
 */
function urlVariants(url: string): string[] {
  const parsed = new URL(url);
  // URL drops a scheme's default port; any other port is the only form.
  if (parsed.port !== '') return [url];
  const port = parsed.protocol === 'https:' ? '443' : '80';
  const rest = `${parsed.pathname}${parsed.search}`;
  const auth = parsed.username ? `${parsed.username}${parsed.password ? `:${parsed.password}` : ''}@` : '';
  return [
    ...new Set([
      url,
      `${parsed.protocol}//${auth}${parsed.host}${rest}`,
      `${parsed.protocol}//${auth}${parsed.host}:${port}${rest}`,
    ]),
  ];
}

/** Whether `signature` is Twilio's for this request (compared in constant time). */
export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: FormParams,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  return urlVariants(url).some((u) => safeEqual(twilioSignature(authToken, u, params), signature));
}
