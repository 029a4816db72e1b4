// Verifying Titan's outbound webhooks: they are signed per Standard Webhooks (`webhook-id`,
// `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`, secret `whsec_<base64>`), so
// this is the reference library's check, returning the parsed `{type, timestamp, data}` body.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

export type TitanWebhookEvent<T = Record<string, unknown>> = { type: string; timestamp: string; data: T };

/**
 * The event in `body` (the raw request body, as received) if its signature is valid for `secret`
 * and its timestamp recent (5 minutes either side); throws WebhookVerificationError otherwise.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  secret: string,
  body: string,
  headers: Record<string, string | string[] | undefined> | Headers,
): TitanWebhookEvent<T> {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((v, k) => (flat[k.toLowerCase()] = v));
  else
    for (const [k, v] of Object.entries(headers))
      if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  return new Webhook(secret).verify(body, flat) as TitanWebhookEvent<T>;
}
