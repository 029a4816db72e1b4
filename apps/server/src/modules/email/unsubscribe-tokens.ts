// The token in a mail's unsubscribe links: the send id and an HMAC of it, with a key derived from
// APP_SECRET for this purpose only. Nothing is looked up to check it; an altered id or MAC fails.
// The mail's return addresses (VERP) are signed the same way: `bounce+<id>.<mac>@…` (the
// Return-Path) and `unsubscribe+<id>.<mac>@…` (List-Unsubscribe's mailto:), so knowing a send id —
// it is in every Message-ID and tracking link — is not enough to report on its send.
import { createHmac } from 'node:crypto';
import { deriveKey, safeEqual } from '../../platform/crypto';

const UUID = /^[0-9a-f]{32}$/;

/**
 * `reply`: the Reply-To of mail Titan sends (issue 30): the customer's answer is routed to their
 * email conversation in the send's business.
 */
export type VerpKind = 'bounce' | 'unsubscribe' | 'reply';

/**
 * `<kind>+<send id, 32 hex>.<MAC, 16 base32>` (at most 61 characters: a local part may hold 64).
 * Lower case only, compared case-insensitively: some mail systems change the case of what they
 * return to. 80 bits of MAC: each guess costs an SMTP transaction refused at RCPT.
 */
const VERP_LOCAL = /^(bounce|unsubscribe|reply)\+([0-9a-f]{32})\.([0-9a-z]{16})$/;
const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export class UnsubscribeTokens {
  private readonly key: Buffer;
  private readonly verpKey: Buffer;

  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'email-unsubscribe-token');
    this.verpKey = deriveKey(appSecret, 'email-verp-address');
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
    return uuidOf(hex);
  }

  /** The kind is signed too: a bounce address does not make an unsubscribe address. */
  private verpMac(kind: VerpKind, hex: string): string {
    const mac = createHmac('sha256', this.verpKey).update(`${kind}:${hex}`).digest();
    let out = '';
    // 16 characters of 5 bits from the first 10 bytes.
    for (let bit = 0; bit < 80; bit += 5) {
      const i = bit >> 3;
      const pair = (mac[i]! << 8) | mac[i + 1]!;
      out += BASE32[(pair >> (11 - (bit & 7))) & 31];
    }
    return out;
  }

  /** The signed VERP address of a send at `host`. */
  verpAddress(kind: VerpKind, sendId: string, host: string): string {
    const hex = sendId.replace(/-/g, '').toLowerCase();
    return `${kind}+${hex}.${this.verpMac(kind, hex)}@${host}`;
  }

  /**
   * The kind and send id of an address Titan signed; null for anything else, the unsigned
   * `bounce+<send id>@…` of mail sent before addresses were signed included.
   */
  verifyVerp(address: string): { kind: VerpKind; sendId: string } | null {
    const at = address.lastIndexOf('@');
    if (at <= 0 || address.length > 320) return null;
    const m = VERP_LOCAL.exec(address.slice(0, at).trim().toLowerCase());
    if (!m) return null;
    const kind = m[1] as VerpKind;
    if (!safeEqual(m[3]!, this.verpMac(kind, m[2]!))) return null;
    return { kind, sendId: uuidOf(m[2]!) };
  }
}
