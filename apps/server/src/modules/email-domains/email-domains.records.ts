// The records a sending domain publishes, and how each one is judged from what its name servers
// answer: a status and a reason a person can act on. Pure functions over DnsLookup.
import type { TDnsRecordPurpose, TDnsRecordStatus, TDnsRecordType } from '@titan/contracts';
import type { DnsLookup, LookupOutcome } from './email-domains.dns';

export const OWNERSHIP_PREFIX = 'titan-verification=';
/** Where the ownership TXT lives: its own name, so the apex TXT set stays as the business keeps it. */
export const ownershipHost = (domain: string) => `_titan-verification.${domain}`;
/** The VERP host in the business's domain: `bounce+<send id>.<signature>@bounces.<domain>` is the Return-Path. */
export const returnPathHostOf = (domain: string) => `bounces.${domain}`;
export const dkimHost = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;
export const dmarcHost = (domain: string) => `_dmarc.${domain}`;

/** RFC 7208 4.6.4: more DNS-querying terms than this and receivers answer permerror. */
const SPF_LOOKUP_LIMIT = 10;

export type PublishSettings = {
  /** Titan's SPF record, included by the domain's: `include:<spfInclude>`. */
  spfInclude: string;
  /** Titan's bounce host: `bounces.<domain>` is a CNAME to it (it holds the MX and SPF). */
  returnPathTarget: string;
};

export type DkimKey = { selector: string; publicKey: string; status: 'next' | 'active' | 'retired' };

export type ExpectedRecord = {
  purpose: TDnsRecordPurpose;
  type: TDnsRecordType;
  host: string;
  value: string;
  /** Must be ok for the domain to be verified. */
  required: boolean;
  check: (lookup: DnsLookup) => Promise<RecordCheck>;
};

export type RecordCheck = { status: TDnsRecordStatus; detail: string | null; lookupFailed?: boolean };

const ok = (detail: string | null = null): RecordCheck => ({ status: 'ok', detail });
const missing = (detail: string): RecordCheck => ({ status: 'missing', detail });
const invalid = (detail: string): RecordCheck => ({ status: 'invalid', detail });

/** Not an answer about the record: the name servers could not be asked. Never a 5xx. */
function unanswered(host: string, lookup: DnsLookup, reason: string): RecordCheck {
  return {
    status: 'missing',
    detail: `Could not check ${host}: ${reason} (asked ${lookup.servers}). Try again in a minute.`,
    lookupFailed: true,
  };
}

/** What to say when a name holds no record of the type asked. */
function absent(result: LookupOutcome, type: string, host: string): string {
  return result.kind === 'nxdomain'
    ? `No ${type} record at ${host}: the name does not exist yet.`
    : `No ${type} record at ${host}.`;
}

/** `k=v; k=v` tags (DKIM, DMARC), keys lower-cased, values trimmed. */
export function parseTags(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return tags;
}

const isSpf = (value: string) => /^v=spf1(\s|$)/i.test(value.trim());
const isDmarc = (value: string) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(value.trim());

export function checkOwnership(host: string, expected: string) {
  return async (lookup: DnsLookup): Promise<RecordCheck> => {
    const result = await lookup.txt(host);
    if (result.kind === 'error') return unanswered(host, lookup, result.reason);
    if (result.kind !== 'found') return missing(absent(result, 'TXT', host));
    if (result.values.some((v) => v.trim() === expected)) return ok();
    if (result.values.some((v) => v.trim().startsWith(OWNERSHIP_PREFIX))) {
      return invalid(
        `The TXT record at ${host} holds a different verification code; this business's is ${expected}.`,
      );
    }
    return invalid(`TXT record found at ${host}, but none holds ${expected}.`);
  };
}

export function checkSpf(domain: string, spfInclude: string) {
  const include = `include:${spfInclude}`;
  return async (lookup: DnsLookup): Promise<RecordCheck> => {
    const result = await lookup.txt(domain);
    if (result.kind === 'error') return unanswered(domain, lookup, result.reason);
    const spf = result.kind === 'found' ? result.values.filter(isSpf) : [];
    if (spf.length === 0) {
      return missing(`No SPF record at ${domain} (a TXT record starting with v=spf1).`);
    }
    if (spf.length > 1) {
      return invalid(
        `Two SPF records at ${domain}: receivers treat that as an error (RFC 7208 permerror). ` +
          `Merge them into one record that has ${include}.`,
      );
    }
    const record = spf[0]!.trim();
    const terms = record.split(/\s+/).slice(1);
    const includesTitan = terms.some((t) => {
      const term = t.toLowerCase();
      return (
        term === include.toLowerCase() ||
        term === `+${include.toLowerCase()}` ||
        term === `redirect=${spfInclude.toLowerCase()}`
      );
    });
    if (!includesTitan) {
      return invalid(
        `SPF record found but it does not include ${include}: add ${include} before its "all" ` +
          `(found "${record}").`,
      );
    }
    if (terms.some((t) => /^\+?all$/i.test(t))) {
      return invalid(
        `The SPF record at ${domain} ends in +all, which lets any server send as ${domain}: use ~all or -all.`,
      );
    }
    const lookups = terms.filter((t) =>
      /^[+\-~?]?(include:|a$|a[:/]|mx$|mx[:/]|ptr|exists:)|^redirect=/i.test(t),
    );
    if (lookups.length > SPF_LOOKUP_LIMIT) {
      return invalid(
        `The SPF record at ${domain} needs at least ${lookups.length} DNS lookups; receivers stop at ` +
          `${SPF_LOOKUP_LIMIT} and fail it (RFC 7208 4.6.4). Remove includes you no longer use.`,
      );
    }
    return ok();
  };
}

export function checkDkim(host: string, publicKey: string) {
  return async (lookup: DnsLookup): Promise<RecordCheck> => {
    const result = await lookup.txt(host);
    if (result.kind === 'error') return unanswered(host, lookup, result.reason);
    if (result.kind !== 'found') return missing(absent(result, 'TXT', host));
    if (result.values.length > 1) {
      return invalid(`${result.values.length} TXT records at ${host}: keep only the DKIM key.`);
    }
    const tags = parseTags(result.values[0]!);
    const version = tags.get('v');
    if (!tags.has('p') || (version !== undefined && version.toUpperCase() !== 'DKIM1')) {
      return invalid(`The TXT record at ${host} is not a DKIM key: it should start with v=DKIM1; k=rsa; p=.`);
    }
    const kind = tags.get('k');
    if (kind !== undefined && kind.toLowerCase() !== 'rsa') {
      return invalid(`The DKIM record at ${host} says k=${kind}; this key is k=rsa.`);
    }
    const published = tags.get('p')!.replace(/\s+/g, '');
    if (published === '') return invalid(`The DKIM key at ${host} is revoked (empty p=).`);
    if (published !== publicKey) {
      return invalid(
        `DKIM public key mismatch at ${host}: the published p= is not this domain's key. Paste the ` +
          'value again, whole (some DNS hosts cut long values).',
      );
    }
    return ok();
  };
}

function dmarcVerdict(record: string, host: string, inheritedFrom: string | null): RecordCheck {
  const tags = parseTags(record);
  // A subdomain that inherits its organisational domain's record is governed by sp=, else p=.
  const policy = ((inheritedFrom ? (tags.get('sp') ?? tags.get('p')) : tags.get('p')) ?? '').toLowerCase();
  if (!['none', 'quarantine', 'reject'].includes(policy)) {
    return invalid(
      `The DMARC record at ${host} has no valid policy: it needs p=none, p=quarantine or p=reject.`,
    );
  }
  const where = inheritedFrom ? `Found at ${inheritedFrom} (the parent domain's policy applies). ` : '';
  if (policy === 'none') {
    return ok(
      `${where}Policy p=none: receivers only report. Move to p=quarantine or p=reject once reports ` +
        'show all your mail passes.',
    );
  }
  return ok(where ? where.trim() : null);
}

export function checkDmarc(domain: string) {
  const host = dmarcHost(domain);
  return async (lookup: DnsLookup): Promise<RecordCheck> => {
    const result = await lookup.txt(host);
    if (result.kind === 'error') return unanswered(host, lookup, result.reason);
    const records = result.kind === 'found' ? result.values.filter(isDmarc) : [];
    if (records.length > 1) {
      return invalid(`Two DMARC records at ${host}: receivers ignore both (RFC 7489 6.6.3). Keep one.`);
    }
    if (records.length === 1) return dmarcVerdict(records[0]!, host, null);
    // A subdomain without its own record is governed by its parent's (the organisational domain).
    const labels = domain.split('.');
    for (let i = 1; i < labels.length - 1; i++) {
      const parentHost = dmarcHost(labels.slice(i).join('.'));
      const parent = await lookup.txt(parentHost);
      const found = parent.kind === 'found' ? parent.values.filter(isDmarc) : [];
      if (found.length === 1) return dmarcVerdict(found[0]!, parentHost, parentHost);
    }
    return missing(`No TXT record at ${host}.`);
  };
}

export function checkReturnPath(host: string, target: string) {
  return async (lookup: DnsLookup): Promise<RecordCheck> => {
    const result = await lookup.cname(host);
    if (result.kind === 'error') return unanswered(host, lookup, result.reason);
    if (result.kind === 'nxdomain') return missing(absent(result, 'CNAME', host));
    if (result.kind === 'nodata') {
      return missing(`No CNAME record at ${host}: if it holds other records, replace them with the CNAME.`);
    }
    const points = result.values[0]!.replace(/\.$/, '').toLowerCase();
    if (points !== target) return invalid(`${host} points to ${points}, not ${target}.`);
    return ok();
  };
}

/** Every record the domain should publish, in the order the screen lists them. */
export function expectedRecords(
  domain: string,
  ownershipToken: string,
  keys: DkimKey[],
  settings: PublishSettings,
): ExpectedRecord[] {
  const ownershipValue = `${OWNERSHIP_PREFIX}${ownershipToken}`;
  const order = { active: 0, next: 1, retired: 2 } as const;
  const dkim = [...keys]
    .sort((a, b) => order[a.status] - order[b.status])
    .map((key): ExpectedRecord => {
      const host = dkimHost(key.selector, domain);
      return {
        purpose: 'dkim',
        type: 'TXT',
        host,
        value: `v=DKIM1; k=rsa; p=${key.publicKey}`,
        // The next key must be published before the switch, but the domain sends meanwhile.
        required: key.status === 'active',
        check: checkDkim(host, key.publicKey),
      };
    });
  const returnPath = returnPathHostOf(domain);
  return [
    {
      purpose: 'ownership',
      type: 'TXT',
      host: ownershipHost(domain),
      value: ownershipValue,
      required: true,
      check: checkOwnership(ownershipHost(domain), ownershipValue),
    },
    {
      purpose: 'spf',
      type: 'TXT',
      host: domain,
      value: `v=spf1 include:${settings.spfInclude} ~all`,
      required: true,
      check: checkSpf(domain, settings.spfInclude),
    },
    ...dkim,
    {
      purpose: 'dmarc',
      type: 'TXT',
      host: dmarcHost(domain),
      value: 'v=DMARC1; p=none; adkim=r; aspf=r',
      required: true,
      check: checkDmarc(domain),
    },
    {
      purpose: 'return_path',
      type: 'CNAME',
      host: returnPath,
      value: settings.returnPathTarget,
      required: true,
      check: checkReturnPath(returnPath, settings.returnPathTarget),
    },
  ];
}
