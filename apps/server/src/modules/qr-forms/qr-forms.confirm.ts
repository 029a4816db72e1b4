// The double opt-in of a QR form (engage.md §3): a visitor's tick may not re-subscribe an address
// that opted out or that staff blocked — a stranger could type anyone's address. Titan mails that
// address a confirmation instead, with a signed link that expires; the person who follows it is
// subscribed, and the confirmation is kept as the proof (source qr_form, double_opt_in, time, IP).
import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { QR_FORM_ERRORS, type TQrConfirmResult } from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { deriveKey } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mail, Mailer } from '../../platform/mailer';
import type { RateLimiter } from '../../platform/rate-limiter';
import { findBusiness } from '../business';
import { confirmOptIn, recordConsentEvent } from '../consent';
import { findCustomerById } from '../directory';
import { normalizeAddress } from '../suppressions';
import { escapeHtml } from '../../platform/html';

/** A confirmation link works for a week, long enough for a mailbox read on holiday. */
export const CONFIRM_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Confirmation mails to one address of one business a day: a form cannot be used to mail-bomb. */
const CONFIRMATIONS_PER_ADDRESS_DAY = 3;
const AUDIENCE = 'qr-form-confirm';
export const CONSENT_SOURCE = 'qr_form';

export type ConfirmClaims = { businessId: number; customerId: number; submissionId: number; address: string };

export class ConfirmTokens {
  private readonly key: KeyObject;

  constructor(appSecret: string) {
    this.key = createSecretKey(deriveKey(appSecret, 'qr-form-confirm-jwt'));
  }

  async sign(claims: ConfirmClaims, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ bid: claims.businessId, cid: claims.customerId, adr: claims.address })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(AUDIENCE)
      .setSubject(String(claims.submissionId))
      .setIssuedAt(iat)
      .setExpirationTime(iat + CONFIRM_TTL_SECONDS)
      .sign(this.key);
  }

  /** The claims of a token Titan signed for this purpose and that has not expired; else null. */
  async verify(token: string): Promise<ConfirmClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { audience: AUDIENCE, algorithms: ['HS256'] });
      const businessId = Number(payload.bid);
      const customerId = Number(payload.cid);
      const submissionId = Number(payload.sub);
      const address = payload.adr;
      if (![businessId, customerId, submissionId].every(Number.isSafeInteger) || typeof address !== 'string')
        return null;
      return { businessId, customerId, submissionId, address };
    } catch {
      return null;
    }
  }
}

export type ConfirmDeps = {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  config: Pick<Config, 'PUBLIC_URL' | 'APP_SECRET'>;
};

const tokensFor = new Map<string, ConfirmTokens>();
function tokens(appSecret: string): ConfirmTokens {
  let t = tokensFor.get(appSecret);
  if (!t) tokensFor.set(appSecret, (t = new ConfirmTokens(appSecret)));
  return t;
}

/** The confirmation mail, in the words of the account mails (text and HTML). */
export function confirmationMail(to: string, businessName: string, url: string): Mail {
  const lines = [
    `Someone, hopefully you, asked ${businessName} on its sign-up form to send email to ${to}.`,
    `This address had asked not to get ${businessName}’s emails, so nothing changes unless you confirm.`,
    'The link is valid for 7 days. If it was not you, ignore this mail.',
  ];
  const label = 'Confirm my subscription';
  const text = [...lines, '', `${label}: ${url}`, '', '— Titan'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>
<p style="color:#666;font-size:13px">If the button does not work, open this link: ${escapeHtml(url)}</p>
<p>— Titan</p></body></html>`;
  return { to, subject: `Confirm your subscription to ${businessName}`, text, html };
}

/**
 * Asks the person at `address` to confirm (after the submission's transaction committed): the
 * request is kept as a consent event, and the mail goes out unless the address already had its
 * allowance of confirmations today — silently, so the visitor learns nothing of the address.
 */
export async function askToConfirm(
  deps: ConfirmDeps,
  input: {
    businessId: number;
    businessName: string;
    customerId: number;
    submissionId: number;
    address: string;
    status: 'subscribed' | 'unsubscribed' | 'bounced' | 'complained' | 'unknown';
    ip: string;
  },
): Promise<void> {
  const address = normalizeAddress(input.address);
  await recordConsentEvent(deps.db, {
    businessId: input.businessId,
    customerId: input.customerId,
    channel: 'email',
    address,
    status: input.status,
    source: CONSENT_SOURCE,
    method: 'confirmation_sent',
    reference: submissionReference(input.submissionId),
    ip: input.ip,
  });
  try {
    await deps.limiter.hit({
      key: `qr-form:confirm:${input.businessId}:${address}`,
      max: CONFIRMATIONS_PER_ADDRESS_DAY,
      windowSeconds: 24 * 60 * 60,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited') return;
    throw err;
  }
  const token = await tokens(deps.config.APP_SECRET).sign({
    businessId: input.businessId,
    customerId: input.customerId,
    submissionId: input.submissionId,
    address,
  });
  const url = `${deps.config.PUBLIC_URL}/engage/confirm?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(confirmationMail(address, input.businessName, url));
}

export const submissionReference = (submissionId: number) => `qr_form_submission:${submissionId}`;

const invalid = () =>
  AppError.fields({ token: [QR_FORM_ERRORS.confirmInvalid] }, QR_FORM_ERRORS.confirmInvalid);

/**
 * Following the link: a forged, altered or expired token is refused (400), as is one whose
 * customer is gone or no longer has the address it was mailed to. Following it again answers the
 * same and changes nothing.
 */
export async function confirmSubscription(
  deps: ConfirmDeps,
  token: string,
  caller: { ip: string },
): Promise<TQrConfirmResult> {
  const claims = await tokens(deps.config.APP_SECRET).verify(token);
  if (!claims) throw invalid();
  const { businessId, customerId, address } = claims;
  const business = await findBusiness(deps.db, businessId).catch((err: unknown) => {
    throw err instanceof AppError && err.code === 'not_found' ? invalid() : err;
  });
  return deps.db.transaction(async (tx) => {
    const customer = await findCustomerById(tx, businessId, customerId);
    if (!customer?.email || normalizeAddress(customer.email) !== address) throw invalid();
    await confirmOptIn(tx, {
      businessId,
      customerId,
      channel: 'email',
      address,
      source: CONSENT_SOURCE,
      reference: submissionReference(claims.submissionId),
      ip: caller.ip,
    });
    return { business_name: business.name, email: address, subscribed: true as const };
  });
}
