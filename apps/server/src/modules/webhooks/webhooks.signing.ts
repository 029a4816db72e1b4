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

/** The three headers of one attempt. */
export function signedHeaders(
  key: Buffer,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

/** The `webhook-id` of an event: stable across attempts, replays and endpoints. */
export const webhookIdOf = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`;
