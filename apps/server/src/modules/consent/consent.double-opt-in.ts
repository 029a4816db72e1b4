// Double opt-in per list (next-api.md "Campaigns and consent"): joining a list that asks for it —
// through the API, an import, a QR form — sends the person a confirmation (a signed link by email,
// or "reply YES" by SMS) and leaves them `pending` on that channel until they confirm. Every
// message asked is kept as proof (time, address, the words shown); the confirmation too. Nothing
// sends to a pending customer: only `subscribed` passes the sends' and agents' consent checks.
import { createHmac } from 'node:crypto';
import { CONSENT_ERRORS, type TConsentConfirmation } from '@titan/contracts';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import { deriveKey, safeEqual } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { escapeHtml } from '../../platform/html';
import type { Mail, Mailer } from '../../platform/mailer';
import type { RateLimiter } from '../../platform/rate-limiter';
import { findBusinessById } from '../business';
import {
  type ConsentChannel,
  type CustomerRow,
  customerIdsAtAddress,
  findCustomerById,
  findCustomersByIds,
  setConsentWhereUnknown,
} from '../directory';
import { normalizeAddress } from '../suppressions';
import { confirmOptIn } from './consent.service';
import * as repo from './consent.repository';
import { getConsentPage } from './consent.topics';

/** A confirmation link works for a week. */
export const JOIN_CONFIRM_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Confirmations to one address of one business a day: a list cannot be used to mail-bomb. */
const CONFIRMATIONS_PER_ADDRESS_DAY = 3;

export type DoubleOptInDeps = {
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  config: Pick<Config, 'PUBLIC_URL' | 'APP_SECRET'>;
  /** Texts the customer (the sms module's send, given by the composition); none: no SMS asks. */
  sendText?: (input: { businessId: number; customerId: number; body: string }) => Promise<void>;
};

type JoinClaims = {
  businessId: number;
  customerId: number;
  listId: number | null;
  address: string;
  reference: string;
};

/**
 * The link's token: `<business>.<customer>.<list or 0>.<issued, unix seconds>.<MAC>` — short
 * enough for a path segment. The MAC (HMAC-SHA256 with a key derived for this purpose) also covers
 * the address asked, so a customer re-addressed since cannot be confirmed by the old mail.
 */
const TOKEN = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{27})$/;
const keys = new Map<string, Buffer>();
function keyOf(appSecret: string): Buffer {
  let k = keys.get(appSecret);
  if (!k) keys.set(appSecret, (k = deriveKey(appSecret, 'list-join-confirm-token')));
  return k;
}
const macOf = (appSecret: string, body: string, address: string) =>
  createHmac('sha256', keyOf(appSecret)).update(`${body}|${address}`).digest('base64url').slice(0, 27);
const referenceOf = (listId: number | null, customerId: number, issued: number) =>
  `list_join:${listId ?? 0}:${customerId}:${issued}`;

function sign(appSecret: string, claims: Omit<JoinClaims, 'reference'> & { issued: number }): string {
  const body = `${claims.businessId}.${claims.customerId}.${claims.listId ?? 0}.${claims.issued}`;
  return `${body}.${macOf(appSecret, body, claims.address)}`;
}

/** The claims of a token Titan signed for this address, not expired; else null. */
function verify(appSecret: string, token: string, address: (c: JoinClaims) => Promise<string | null>) {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const [businessId, customerId, list, issued] = [m[1], m[2], m[3], m[4]].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  if (issued + JOIN_CONFIRM_TTL_SECONDS < Date.now() / 1000) return null;
  const listId = list === 0 ? null : list;
  const claims = { businessId, customerId, listId, reference: referenceOf(listId, customerId, issued) };
  return {
    claims,
    check: async (): Promise<JoinClaims | null> => {
      const current = await address({ ...claims, address: '' });
      if (!current) return null;
      const body = `${businessId}.${customerId}.${list}.${issued}`;
      return safeEqual(m[5]!, macOf(appSecret, body, current)) ? { ...claims, address: current } : null;
    },
  };
}

/** The confirmation mail: the words it shows are kept as the proof of what was asked. */
export function joinConfirmationMail(to: string, businessName: string, listName: string, url: string): Mail {
  const lines = [
    `You (or someone using this address) asked to join “${listName}” from ${businessName}.`,
    `Confirm to start getting ${businessName}’s emails at ${to}. Nothing is sent to you until you do.`,
    'The link is valid for 7 days. If it was not you, ignore this mail.',
  ];
  const label = 'Confirm my subscription';
  const text = [...lines, '', `${label}: ${url}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>
<p style="color:#666;font-size:13px">If the button does not work, open this link: ${escapeHtml(url)}</p>
</body></html>`;
  return { to, subject: `Confirm your subscription to ${businessName}`, text, html };
}

/** The text asking to confirm by SMS; the reply YES goes through the inbound SMS webhook. */
export const joinConfirmationText = (businessName: string, listName: string) =>
  `${businessName}: reply YES to confirm you want texts about “${listName}”. Reply STOP to opt out. No texts are sent until you confirm.`;

/** Where a customer is asked: email when they have one, else SMS by their phone. */
function channelOf(c: CustomerRow): { channel: ConsentChannel; address: string } | null {
  if (c.email) return { channel: 'email', address: normalizeAddress(c.email) };
  if (c.phone) return { channel: 'sms', address: normalizeAddress(c.phone) };
  return null;
}

const ALREADY_DECIDED = new Set(['subscribed', 'bounced', 'complained']);

async function allowed(deps: DoubleOptInDeps, businessId: number, address: string): Promise<boolean> {
  try {
    await deps.limiter.hit({
      key: `consent:confirm:${businessId}:${address}`,
      max: CONFIRMATIONS_PER_ADDRESS_DAY,
      windowSeconds: 24 * 60 * 60,
    });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited') return false;
    throw err;
  }
}

/**
 * These customers joined a double opt-in list (after the join committed): each one whose consent
 * on their channel is not decided yet becomes `pending` and is asked to confirm — by a signed
 * link mailed to them, or a text asking to reply YES. Someone subscribed already, or bounced or
 * complained, is not asked. Answers how many were asked.
 */
export async function askToConfirmJoin(
  deps: DoubleOptInDeps,
  input: {
    businessId: number;
    customerIds: number[];
    listId: number | null;
    listName: string;
    source: string;
    ip?: string | null;
  },
): Promise<number> {
  if (input.customerIds.length === 0) return 0;
  const business = await findBusinessById(deps.db, input.businessId);
  if (!business) return 0;
  let asked = 0;
  const customers = await findCustomersByIds(deps.db, input.businessId, [...new Set(input.customerIds)]);
  for (const customer of customers) {
    const where = channelOf(customer);
    if (!where) continue;
    if (where.channel === 'sms' && !deps.sendText) continue;
    const status = where.channel === 'email' ? customer.emailStatus : customer.smsStatus;
    if (ALREADY_DECIDED.has(status)) continue;
    const issued = Math.floor(Date.now() / 1000);
    const reference = referenceOf(input.listId, customer.id, issued);
    let words: string;
    let deliver: () => Promise<void>;
    if (where.channel === 'email') {
      const token = sign(deps.config.APP_SECRET, {
        businessId: input.businessId,
        customerId: customer.id,
        listId: input.listId,
        address: where.address,
        issued,
      });
      const mail = joinConfirmationMail(
        where.address,
        business.name,
        input.listName,
        `${deps.config.PUBLIC_URL}/confirm/${encodeURIComponent(token)}`,
      );
      words = `${mail.subject}\n\n${mail.text.replace(/https?:\/\/\S+/g, '<confirmation link>')}`;
      deliver = () => deps.mailer.send(mail);
    } else {
      const body = joinConfirmationText(business.name, input.listName);
      words = body;
      const sendText = deps.sendText!;
      deliver = () => sendText({ businessId: input.businessId, customerId: customer.id, body });
    }
    await deps.db.transaction(async (tx) => {
      await setConsentWhereUnknown(tx, input.businessId, [customer.id], where.channel, 'pending');
      await repo.insertConsentEvent(tx, {
        businessId: input.businessId,
        customerId: customer.id,
        channel: where.channel,
        address: where.address,
        status: status === 'unknown' ? 'pending' : status,
        source: input.source,
        method: 'confirmation_sent',
        reference,
        ip: input.ip ?? null,
        proof: words,
      });
    });
    asked += 1;
    if (await allowed(deps, input.businessId, where.address)) await deliver();
  }
  return asked;
}

const invalid = () =>
  AppError.fields({ token: [CONSENT_ERRORS.confirmInvalid] }, CONSENT_ERRORS.confirmInvalid);

/**
 * A confirmation link, read (`confirm: false`: what it is about, without confirming — a mail
 * scanner's GET changes nothing) or followed (POST): a forged, altered or expired token, or one
 * whose customer no longer has the address, is refused (400). Confirming again changes nothing.
 */
export async function confirmJoin(
  deps: Pick<DoubleOptInDeps, 'db' | 'config'>,
  token: string,
  options: {
    confirm: boolean;
    ip: string | null;
    listName: (businessId: number, listId: number) => Promise<string | null>;
  },
): Promise<TConsentConfirmation> {
  const verified = verify(deps.config.APP_SECRET, token, async (c) => {
    const customer = await findCustomerById(deps.db, c.businessId, c.customerId);
    return customer?.email ? normalizeAddress(customer.email) : null;
  });
  const claims = verified ? await verified.check() : null;
  if (!claims) throw invalid();
  const business = await findBusinessById(deps.db, claims.businessId);
  if (!business) throw invalid();
  let confirmed =
    (await repo.findConfirmation(deps.db, claims.businessId, claims.reference, 'email')) !== null;
  if (options.confirm && !confirmed) {
    await deps.db.transaction((tx) =>
      confirmOptIn(tx, {
        businessId: claims.businessId,
        customerId: claims.customerId,
        channel: 'email',
        address: claims.address,
        source: 'list_join',
        reference: claims.reference,
        ip: options.ip,
      }),
    );
    confirmed = true;
  }
  const page = await getConsentPage(deps.db, claims.businessId);
  return {
    business: { name: business.name, ...page },
    channel: 'email',
    address: claims.address,
    list_name: claims.listId ? await options.listName(claims.businessId, claims.listId) : null,
    confirmed,
  };
}

/**
 * An inbound YES from a number asked to confirm by SMS (inside the webhook's transaction): its
 * pending customers become subscribed, the reply kept as the confirmation. False when the number
 * was never asked, or already confirmed that ask (then it is an ordinary START).
 */
export async function confirmSmsReply(
  db: Queryable,
  input: { businessId: number; number: string; words: string },
): Promise<boolean> {
  const address = normalizeAddress(input.number);
  const ask = await repo.findPendingRequest(db, input.businessId, 'sms', address);
  if (!ask?.reference) return false;
  if (await repo.findConfirmation(db, input.businessId, ask.reference, 'sms')) return false;
  const customerId = ask.customerId ?? (await customerIdsAtAddress(db, input.businessId, 'sms', address))[0];
  if (customerId === undefined) return false;
  await confirmOptIn(db, {
    businessId: input.businessId,
    customerId,
    channel: 'sms',
    address,
    source: 'sms_reply',
    reference: ask.reference,
    ip: null,
  });
  return true;
}
