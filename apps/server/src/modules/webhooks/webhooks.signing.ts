// Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
// random bytes; the signature is `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with
// the decoded secret as the key. Receivers verify with any Standard Webhooks library.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key a `whsec_` secret stands for. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
}

/**
 * The three headers of one attempt, written into `into` (the request's other headers; a new object
 * when not given). The HMAC reads the id, timestamp and body in turn: the body is not copied into
 * one signed string.
 */
export function signedHeaders(
  key: Buffer,
  id: string,
  timestampSeconds: number,
  body: string,
  into: Record<string, string> = {},
): Record<string, string> {
  const timestamp = String(timestampSeconds);
  const signature = createHmac('sha256', key)
    .update(id)
    .update('.')
    .update(timestamp)
    .update('.')
    .update(body)
    .digest('base64');
  into['webhook-id'] = id;
  into['webhook-timestamp'] = timestamp;
  into['webhook-signature'] = `v1,${signature}`;
  return into;
}

/** The `webhook-id` of an event: stable across attempts, replays and endpoints. */
export const webhookIdOf = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`;
