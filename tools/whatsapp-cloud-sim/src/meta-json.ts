// Meta's wire format: compact JSON with every non-ASCII UTF-16 unit escaped as lowercase \uXXXX
// and "/" written "\/". Webhook signatures cover these exact bytes, so Titan must verify the raw
// body and never a re-serialisation of the parsed one.
import { createHmac } from 'node:crypto';

export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function signatureFor(appSecret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** The legacy SHA-1 header Meta still sends beside X-Hub-Signature-256. */
export function sha1SignatureFor(appSecret: string, body: string | Buffer): string {
  return `sha1=${createHmac('sha1', appSecret).update(body).digest('hex')}`;
}
