// The token in a mail's unsubscribe links: the send id and an HMAC of it, with a key derived from
// APP_SECRET for this purpose only. Nothing is looked up to check it; an altered id or MAC fails.
import { createHmac } from 'node:crypto';
import { deriveKey, safeEqual } from '../../platform/crypto';

const UUID = /^[0-9a-f]{32}$/;

export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'email-unsubscribe-token');
  }

  private mac(hex: string): string {
    return createHmac('sha256', this.key).update(`unsubscribe:${hex}`).digest('base64url').slice(0, 27);
  }

  sign(sendId: string): string {
    const hex = sendId.replace(/-/g, '').toLowerCase();
    return `${hex}.${this.mac(hex)}`;
  }

  /** The send id a token carries, or null when it is not one Titan signed. */
  verify(token: string | null | undefined): string | null {
    if (!token || token.length > 200) return null;
    const [hex, mac, extra] = token.split('.');
    if (extra !== undefined || !hex || !mac || !UUID.test(hex)) return null;
    if (!safeEqual(mac, this.mac(hex))) return null;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
