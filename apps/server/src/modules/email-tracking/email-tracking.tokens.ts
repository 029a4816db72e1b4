// Signed tracking tokens (Keila's design): the token itself carries the send id and, for a click,
// the destination, with an HMAC over both, so a redirect cannot be forged or retargeted and is safe
// without any database lookup. Compact: binary fields, a 128-bit tag, base64url.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { deriveKey } from '../../platform/crypto';

/** The key is used for nothing else (HKDF purpose string). */
export const TRACKING_KEY_PURPOSE = 'email-tracking-v1';

const VERSION = 1;
const KIND = { open: 0x6f /* o */, click: 0x63 /* c */ } as const;
const TAG_BYTES = 16;
const HEADER_BYTES = 2 + 16; // version, kind, send id (uuid bytes)

export type TrackingToken = { kind: 'open'; sendId: string } | { kind: 'click'; sendId: string; url: string };

/** A KeyObject: HMACs keyed with it skip importing the raw key each time. */
export type TrackingKey = KeyObject;

export function trackingKey(appSecret: string): TrackingKey {
  return createSecretKey(deriveKey(appSecret, TRACKING_KEY_PURPOSE));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new Error(`not a send id: ${id}`);
  return Buffer.from(id.replaceAll('-', ''), 'hex');
}

function uuidText(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function tag(key: TrackingKey, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);
}

export function signToken(key: TrackingKey, token: TrackingToken): string {
  const header = Buffer.alloc(2);
  header[0] = VERSION;
  header[1] = KIND[token.kind];
  const body = Buffer.concat([
    header,
    uuidBytes(token.sendId),
    token.kind === 'click' ? Buffer.from(token.url, 'utf8') : Buffer.alloc(0),
  ]);
  return Buffer.concat([body, tag(key, body)]).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The token's contents when its tag is ours and nothing was changed; null otherwise. */
export function verifyToken(key: TrackingKey, text: string): TrackingToken | null {
  if (text.length > 8192 || !BASE64URL.test(text)) return null;
  const raw = Buffer.from(text, 'base64url');
  if (raw.length < HEADER_BYTES + TAG_BYTES) return null;
  const body = raw.subarray(0, raw.length - TAG_BYTES);
  const given = raw.subarray(raw.length - TAG_BYTES);
  if (!timingSafeEqual(given, tag(key, body))) return null;
  if (body[0] !== VERSION) return null;
  const sendId = uuidText(body.subarray(2, HEADER_BYTES));
  if (body[1] === KIND.open) return body.length === HEADER_BYTES ? { kind: 'open', sendId } : null;
  if (body[1] === KIND.click) {
    const url = body.subarray(HEADER_BYTES).toString('utf8');
    return isTrackableUrl(url) ? { kind: 'click', sendId, url } : null;
  }
  return null;
}

/** Only http(s) destinations are ever signed or followed. */
export function isTrackableUrl(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url);
}
