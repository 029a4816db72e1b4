// Sending domains (engage.md §2): add a domain (a 2048-bit DKIM key is made for it and sealed),
// list the records to publish, verify them against the domain's authoritative name servers, re-check
// verified domains hourly, and tell the sending path which identity a From address may use.
import { generateKeyPair } from 'node:crypto';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import {
  EMAIL_DOMAIN_DEFAULT_FROM_ERRORS,
  type TCreateEmailDomainRequest,
  type TEmailDomain,
  type TEmailDomainRecord,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { randomCode, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { authoritativeLookup, type DnsSettings } from './email-domains.dns';
import {
  dkimHost,
  expectedRecords,
  returnPathHostOf,
  type DkimKey,
  type PublishSettings,
  type RecordCheck,
} from './email-domains.records';
import * as repo from './email-domains.repository';

export type EmailDomainDeps = {
  db: Db;
  secrets: SecretBox;
  dns: DnsSettings;
  publish: PublishSettings;
};

export type SendingIdentity = {
  domainId: number;
  domain: string;
  dkim: { domainName: string; keySelector: string; privateKey: string /* PEM */ };
  returnPathHost: string;
};

export const EMAIL_DOMAIN_ERRORS = {
  invalid: 'Enter a domain name such as example.com.',
  notAnAddress: 'Enter the domain only, such as example.com, not an email address.',
  noScheme: 'Enter the domain only, such as example.com, without http:// or a path.',
  ipAddress: 'Enter a domain name, not an IP address.',
  tooLong: 'A domain name has at most 253 characters.',
  labelTooLong: 'Each part of a domain name has at most 63 characters.',
  duplicate: 'This domain is already added.',
  notFound: 'Email domain not found.',
  notChecked: 'Not checked yet: publish this record, then verify.',
  noNextKey: 'This domain has no new DKIM key to switch to.',
  nextKeyNotPublished: (host: string) =>
    `Publish the new DKIM record at ${host} and verify the domain before switching to it.`,
} as const;

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const RESERVED = new Set(['localhost', 'localdomain', 'invalid', 'local']);

/** The name as DNS carries it (IDN → punycode, lower case), or a 400 on `domain` saying why not. */
export function normalizeDomainName(input: string): string {
  const fail = (message: string) => AppError.fields({ domain: [message] });
  const raw = input.trim().replace(/\.$/, '');
  if (raw.includes('@')) throw fail(EMAIL_DOMAIN_ERRORS.notAnAddress);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || /[/?#\s]/.test(raw)) throw fail(EMAIL_DOMAIN_ERRORS.noScheme);
  if (isIP(raw.replace(/^\[|\]$/g, ''))) throw fail(EMAIL_DOMAIN_ERRORS.ipAddress);
  const ascii = domainToASCII(raw.toLowerCase());
  if (!ascii) throw fail(EMAIL_DOMAIN_ERRORS.invalid);
  if (ascii.length > 253) throw fail(EMAIL_DOMAIN_ERRORS.tooLong);
  const labels = ascii.split('.');
  if (labels.length < 2) throw fail(EMAIL_DOMAIN_ERRORS.invalid);
  if (labels.some((l) => l.length > 63)) throw fail(EMAIL_DOMAIN_ERRORS.labelTooLong);
  if (!labels.every((l) => LABEL.test(l))) throw fail(EMAIL_DOMAIN_ERRORS.invalid);
  const tld = labels.at(-1)!;
  if (/^\d+$/.test(tld) || RESERVED.has(tld)) throw fail(EMAIL_DOMAIN_ERRORS.invalid);
  return ascii;
}

const generateRsa = promisify(generateKeyPair);

/** A 2048-bit RSA pair: the public half as DKIM's p= (base64 DER SPKI), the private half as PEM. */
async function makeDkimKey(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKey };
}

/**
 * `titan<yyyymm>`: the date says which key a selector is, so the next one (next month or later)
 * gets a new name and both can be published at once. Unique at the DNS name across businesses.
 */
export function selectorFor(now: Date, taken: string[]): string {
  const base = `titan${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  if (!taken.includes(base)) return base;
  for (;;) {
    const candidate = `${base}${randomCode(4)}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

function dkimKeysOf(row: repo.DomainWithKeys): DkimKey[] {
  return row.keys.map((k) => ({ selector: k.selector, publicKey: k.publicKey, status: k.status }));
}

function toEmailDomain(deps: EmailDomainDeps, row: repo.DomainWithKeys): TEmailDomain {
  const checks = new Map(row.checks.map((c) => [`${c.purpose} ${c.host}`, c]));
  const records: TEmailDomainRecord[] = expectedRecords(
    row.domain,
    row.ownershipToken,
    dkimKeysOf(row),
    deps.publish,
  ).map((r) => {
    const check = checks.get(`${r.purpose} ${r.host}`);
    return {
      purpose: r.purpose,
      type: r.type,
      host: r.host,
      value: r.value,
      status: check?.status ?? 'missing',
      detail: check ? check.detail : EMAIL_DOMAIN_ERRORS.notChecked,
    };
  });
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    records,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    default_from: row.defaultFrom ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export async function createEmailDomain(
  deps: EmailDomainDeps,
  businessId: number,
  userId: number | null,
  input: TCreateEmailDomainRequest,
): Promise<TEmailDomain> {
  const domain = normalizeDomainName(input.domain);
  if (await repo.findDomainByName(deps.db, businessId, domain)) {
    throw AppError.fields({ domain: [EMAIL_DOMAIN_ERRORS.duplicate] });
  }
  const key = await makeDkimKey();
  const now = new Date();
  const row = await repo.insertDomain(
    deps.db,
    { businessId, domain, ownershipToken: randomCode(24), createdBy: userId },
    {
      selector: selectorFor(now, await repo.selectorsAt(deps.db, domain)),
      status: 'active',
      publicKey: key.publicKey,
      privateKeySealed: deps.secrets.seal(key.privateKey),
      activatedAt: now,
    },
  );
  // Two adds of the same name at once: the unique index keeps one.
  if (!row) throw AppError.fields({ domain: [EMAIL_DOMAIN_ERRORS.duplicate] });
  return toEmailDomain(deps, row);
}

export async function findEmailDomains(deps: EmailDomainDeps, businessId: number): Promise<TEmailDomain[]> {
  return (await repo.listDomains(deps.db, businessId)).map((row) => toEmailDomain(deps, row));
}

export async function findEmailDomain(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
): Promise<TEmailDomain> {
  const row = await repo.findDomain(deps.db, businessId, id);
  if (!row) throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
  return toEmailDomain(deps, row);
}

/**
 * Sets a domain's default sender (`Name <local@domain>` on that domain; null clears it): campaigns
 * and send-mail without a From use it. 400 on `default_from` otherwise.
 */
export async function updateEmailDomain(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
  input: { default_from: string | null },
): Promise<TEmailDomain> {
  const row = await repo.findDomain(deps.db, businessId, id);
  if (!row) throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
  let value: string | null = null;
  if (input.default_from) {
    const m = /^(?:(.*?)\s*<([^<>\s]+@[^<>\s]+)>|([^<>\s]+@[^<>\s]+))$/.exec(input.default_from);
    const address = (m?.[2] ?? m?.[3] ?? '').toLowerCase();
    if (!m || /[\r\n"]/.test(input.default_from))
      throw AppError.fields({ default_from: [EMAIL_DOMAIN_DEFAULT_FROM_ERRORS.format] });
    if (address.slice(address.lastIndexOf('@') + 1) !== row.domain)
      throw AppError.fields({ default_from: [EMAIL_DOMAIN_DEFAULT_FROM_ERRORS.otherDomain(row.domain)] });
    const name = m[1]?.trim();
    value = name ? `${name} <${address}>` : address;
  }
  await repo.setDefaultFrom(deps.db, businessId, id, value);
  return findEmailDomain(deps, businessId, id);
}

/** The business's default sender (of its first verified domain that has one), or null. */
export async function defaultSenderOf(db: Db, businessId: number): Promise<string | null> {
  return repo.findDefaultFrom(db, businessId);
}

export async function deleteEmailDomain(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
): Promise<void> {
  if (!(await repo.deleteDomain(deps.db, businessId, id)))
    throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
}

/** Asks the name servers about every record and stores what they said. Never throws for DNS trouble. */
async function checkDomain(deps: EmailDomainDeps, row: repo.DomainWithKeys): Promise<repo.DomainWithKeys> {
  const expected = expectedRecords(row.domain, row.ownershipToken, dkimKeysOf(row), deps.publish);
  const lookup = await authoritativeLookup(row.domain, deps.dns);
  const results: RecordCheck[] =
    'error' in lookup
      ? expected.map(() => ({
          status: 'missing',
          detail: `${lookup.error} Try again in a minute.`,
          lookupFailed: true,
        }))
      : await Promise.all(expected.map((r) => r.check(lookup)));
  const checks: repo.StoredRecordCheck[] = expected.map((r, i) => ({
    purpose: r.purpose,
    host: r.host,
    status: results[i]!.status,
    detail: results[i]!.detail,
    ...(results[i]!.lookupFailed ? { lookupFailed: true } : {}),
  }));
  const required = expected.map((r, i) => ({ r, check: results[i]! })).filter(({ r }) => r.required);
  const allOk = required.every(({ check }) => check.status === 'ok');
  const unanswered = required.some(({ check }) => check.lookupFailed);
  // A verified domain stays verified while its name servers cannot be asked: only an answer that a
  // record is gone or wrong marks it failed (no sending stops for a DNS timeout).
  const status = allOk ? 'verified' : row.status === 'verified' && unanswered ? 'verified' : 'failed';
  const now = new Date();
  const saved = await repo.saveCheck(deps.db, row.id, {
    status,
    checks,
    lastCheckedAt: now,
    verifiedAt: status === 'verified' ? (row.status === 'verified' ? row.verifiedAt : now) : null,
  });
  return { ...(saved ?? row), keys: row.keys };
}

export async function verifyEmailDomain(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
): Promise<TEmailDomain> {
  const row = await repo.findDomain(deps.db, businessId, id);
  if (!row) throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
  return toEmailDomain(deps, await checkDomain(deps, row));
}

/**
 * Key rotation, step 1: makes the domain's next DKIM key under a new selector. The domain then
 * lists its record beside the active one (not required for verification), to be published before
 * the switch.
 */
export async function prepareNextDkimKey(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
): Promise<TEmailDomain> {
  const row = await repo.findDomain(deps.db, businessId, id);
  if (!row) throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
  if (row.keys.some((k) => k.status === 'next')) return toEmailDomain(deps, row);
  const key = await makeDkimKey();
  await repo.insertNextKey(deps.db, {
    domainId: row.id,
    selector: selectorFor(new Date(), await repo.selectorsAt(deps.db, row.domain)),
    publicKey: key.publicKey,
    privateKeySealed: deps.secrets.seal(key.privateKey),
  });
  return findEmailDomain(deps, businessId, id);
}

/**
 * Key rotation, step 2: once the last check found the next key published, it becomes the signing
 * key and the old one retires (still listed, so mail in flight keeps verifying). Otherwise 409.
 */
export async function activateNextDkimKey(
  deps: EmailDomainDeps,
  businessId: number,
  id: number,
): Promise<TEmailDomain> {
  const row = await repo.findDomain(deps.db, businessId, id);
  if (!row) throw AppError.notFound(EMAIL_DOMAIN_ERRORS.notFound);
  const next = row.keys.find((k) => k.status === 'next');
  if (!next) throw new AppError('conflict', EMAIL_DOMAIN_ERRORS.noNextKey);
  const host = dkimHost(next.selector, row.domain);
  const published = row.checks.some((c) => c.purpose === 'dkim' && c.host === host && c.status === 'ok');
  if (!published) throw new AppError('conflict', EMAIL_DOMAIN_ERRORS.nextKeyNotPublished(host));
  await repo.activateNextKey(deps.db, row.id, new Date());
  return findEmailDomain(deps, businessId, id);
}

export const EMAIL_DOMAINS_RECHECK_QUEUE = 'email-domains.recheck';
export const EMAIL_DOMAINS_RECHECK_CRON = '41 * * * *';
/** A domain checked within this long (by a person or the last run) is not asked again. */
const RECHECK_AFTER_MS = 50 * 60 * 1000;
const RECHECK_BATCH = 500;
const RECHECK_CONCURRENCY = 8;

/** The hourly pass: re-checks verified domains; a record gone or changed marks the domain failed. */
export async function recheckVerifiedDomains(
  deps: EmailDomainDeps,
  logger: Pick<Logger, 'warn'>,
  now = new Date(),
): Promise<{ checked: number; degraded: number }> {
  const rows = await repo.domainsToRecheck(
    deps.db,
    new Date(now.getTime() - RECHECK_AFTER_MS),
    RECHECK_BATCH,
  );
  let degraded = 0;
  // A few domains at a time: each may wait on slow name servers, and the pass must end well
  // within the job's expiry.
  for (let i = 0; i < rows.length; i += RECHECK_CONCURRENCY) {
    const batch = rows.slice(i, i + RECHECK_CONCURRENCY);
    const checked = await Promise.all(batch.map((row) => checkDomain(deps, row)));
    for (const [j, domain] of checked.entries()) {
      if (domain.status === 'verified') continue;
      degraded += 1;
      const row = batch[j]!;
      const failing = domain.checks.filter((c) => c.status !== 'ok').map((c) => `${c.purpose} ${c.host}`);
      logger.warn(
        { businessId: row.businessId, domainId: row.id, domain: row.domain, failing },
        'sending domain no longer verified',
      );
    }
  }
  return { checked: rows.length, degraded };
}

/** The domain of a From address: `a@b.example`, or `Name <a@b.example>`. */
function domainOfAddress(fromAddress: string): string | null {
  const address = (/<([^<>]+)>\s*$/.exec(fromAddress)?.[1] ?? fromAddress).trim();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  try {
    return normalizeDomainName(address.slice(at + 1));
  } catch {
    return null;
  }
}

/**
 * What the sending path signs and bounces with for a From address: null unless the address's
 * domain is a verified domain of this business (another business's verification never counts).
 */
export async function sendingIdentityFor(
  db: Db,
  secrets: SecretBox,
  businessId: number,
  fromAddress: string,
): Promise<SendingIdentity | null> {
  const domain = domainOfAddress(fromAddress);
  if (!domain) return null;
  const row = await repo.findDomainByName(db, businessId, domain);
  if (!row || row.status !== 'verified') return null;
  const key = row.keys.find((k) => k.status === 'active');
  if (!key) return null;
  return {
    domainId: row.id,
    domain: row.domain,
    dkim: {
      domainName: row.domain,
      keySelector: key.selector,
      privateKey: secrets.open(key.privateKeySealed),
    },
    returnPathHost: returnPathHostOf(row.domain),
  };
}

/** A domain of the business by id, as other modules need it (inbox addresses): name and status. */
export async function findDomainOf(
  deps: Pick<EmailDomainDeps, 'db'>,
  businessId: number,
  id: number,
): Promise<{ id: number; domain: string; status: string } | null> {
  const row = await repo.findDomain(deps.db, businessId, id);
  return row ? { id: row.id, domain: row.domain, status: row.status } : null;
}
