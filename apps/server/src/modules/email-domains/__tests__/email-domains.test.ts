// Sending domains against a real authoritative DNS server (tools/dns-sim) named by DNS_SERVERS:
// every record's states (ok, missing, invalid) with their reasons, a record published after a failed
// check verifying at once, timeouts answered as details, the hourly re-check, the walk to a zone's
// own name servers, the sealed DKIM key, other businesses' domains, and the sending identity.
import { createPublicKey, createSign, createVerify } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TEmailDomain, TEmailDomainRecord } from '@titan/contracts';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { isPrivateAddress } from '../../../platform/network-address';
import { authoritativeLookup } from '../email-domains.dns';
import {
  activateNextDkimKey,
  prepareNextDkimKey,
  recheckVerifiedDomains,
  selectorFor,
  sendingIdentityFor,
  verifyEmailDomain,
  type EmailDomainDeps,
} from '../email-domains.service';

let sim: DnsSim;
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };
let deadDns: Socket;
let deadDnsAddress: string;

const SPF_INCLUDE = '_spf.titan.test';
const RETURN_PATH = 'rp.titan.test';

beforeAll(async () => {
  sim = await startDnsSim();
  // A DNS server that never answers: every question times out.
  deadDns = createSocket('udp4');
  await new Promise<void>((resolve) => deadDns.bind(0, '127.0.0.1', resolve));
  deadDnsAddress = `127.0.0.1:${deadDns.address().port}`;
  rt = await createTestRuntime({
    env: {
      DNS_SERVERS: sim.address,
      DNS_TIMEOUT_MS: '300',
      EMAIL_SPF_INCLUDE: SPF_INCLUDE,
      EMAIL_RETURN_PATH_HOST: RETURN_PATH,
    },
  });
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Domains A');
  const otherOwner = await signUp(rt.app!, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(rt.app!, otherOwner, 'Domains B') };
}, 180_000);

afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
  deadDns?.close();
});

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  who = { owner, business },
) {
  const res = await rt.app!.inject({
    method,
    url,
    headers: as(who.owner, who.business),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as { result: unknown; message: string } };
}

async function addDomain(domain: string, who = { owner, business }): Promise<TEmailDomain> {
  const res = await call('POST', '/api/email/domains/', { domain }, who);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as TEmailDomain;
}

async function verify(id: number, who = { owner, business }): Promise<TEmailDomain> {
  const res = await call('POST', `/api/email/domains/${id}/verify/`, undefined, who);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as TEmailDomain;
}

const recordOf = (d: TEmailDomain, purpose: TEmailDomainRecord['purpose']) =>
  d.records.find((r) => r.purpose === purpose)!;

/** Publishes every record the domain lists, as a person following the screen would. */
function publishAll(d: TEmailDomain) {
  if (!sim.zones().includes(d.domain)) sim.setZone(d.domain);
  for (const r of d.records) sim.setRecord(r.host, r.type === 'CNAME' ? 'CNAME' : 'TXT', r.value);
}

function deps(dns: Partial<EmailDomainDeps['dns']> = {}): EmailDomainDeps {
  const base = rt.services.emailDomains;
  return { ...base, dns: { ...base.dns, ...dns } };
}

describe('email domains', () => {
  it('adds a domain with a sealed 2048-bit DKIM key and lists the records to publish', async () => {
    const d = await addDomain('Shop-One.Test');
    expect(d).toMatchObject({ domain: 'shop-one.test', status: 'pending', last_checked_at: null });
    expect(d.records.map((r) => [r.purpose, r.type, r.host])).toEqual([
      ['ownership', 'TXT', '_titan-verification.shop-one.test'],
      ['spf', 'TXT', 'shop-one.test'],
      ['dkim', 'TXT', `${selectorFor(new Date(), [])}._domainkey.shop-one.test`],
      ['dmarc', 'TXT', '_dmarc.shop-one.test'],
      ['return_path', 'CNAME', 'bounces.shop-one.test'],
    ]);
    expect(recordOf(d, 'spf').value).toBe(`v=spf1 include:${SPF_INCLUDE} ~all`);
    expect(recordOf(d, 'return_path').value).toBe(RETURN_PATH);
    expect(d.records.every((r) => r.status === 'missing' && r.detail)).toBe(true);
    const p = /p=([A-Za-z0-9+/=]+)$/.exec(recordOf(d, 'dkim').value)![1]!;
    const publicKey = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(JSON.stringify(d)).not.toMatch(/PRIVATE KEY/);

    // At rest the private key is sealed: no PEM in the column, and it opens to the pair's half.
    const [row] = await rt.database.query<{ private_key_sealed: string }>(
      `select k.private_key_sealed from email_domain_keys k join email_domains d on d.id = k.domain_id where d.id = $1`,
      [d.id],
    );
    expect(row!.private_key_sealed).not.toMatch(/BEGIN|PRIVATE|MII/);
    const pem = rt.services.secrets.open(row!.private_key_sealed);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const signature = createSign('sha256').update('hello').sign(pem);
    expect(createVerify('sha256').update('hello').verify(publicKey, signature)).toBe(true);

    const listed = await call('GET', '/api/email/domains/');
    expect((listed.body.result as TEmailDomain[]).map((x) => x.id)).toContain(d.id);
    const one = await call('GET', `/api/email/domains/${d.id}/`);
    expect(one.body.result).toEqual(d);
  });

  it('answers 400 with a field message for junk, converts IDN to punycode and refuses duplicates', async () => {
    const cases: [unknown, string][] = [
      ['', 'domain'],
      ['not a domain', 'domain'],
      ['me@example.com', 'domain'],
      ['https://example.com/', 'domain'],
      ['127.0.0.1', 'domain'],
      ['localhost', 'domain'],
      ['example', 'domain'],
      ['a..example.com', 'domain'],
      ['-bad.example.com', 'domain'],
      [`${'a'.repeat(64)}.example.com`, 'domain'],
      ['ex_ample.com', 'domain'],
      [42, 'domain'],
    ];
    for (const [domain, field] of cases) {
      const res = await call('POST', '/api/email/domains/', { domain });
      expect(res.status, String(domain)).toBe(400);
      const errors = res.body.result as Record<string, string[]>;
      expect(errors[field]?.[0], String(domain)).toBeTruthy();
    }
    expect((await call('POST', '/api/email/domains/', {})).status).toBe(400);
    expect((await addDomain('Bücher.Example.')).domain).toBe('xn--bcher-kva.example');
    const again = await call('POST', '/api/email/domains/', { domain: 'xn--bcher-kva.example' });
    expect(again.status).toBe(400);
    expect(again.body.result).toEqual({ domain: ['This domain is already added.'] });
    expect((await call('GET', '/api/email/domains/abc/')).status).toBe(400);
  });

  it('reports each missing record, then verifies at once when the records are published', async () => {
    const d = await addDomain('fresh.test');
    const failed = await verify(d.id);
    expect(failed.status).toBe('failed');
    expect(failed.last_checked_at).not.toBeNull();
    expect(failed.records.every((r) => r.status === 'missing')).toBe(true);
    sim.setZone('fresh.test');
    const again = await verify(d.id);
    expect(recordOf(again, 'dmarc').detail).toBe('No TXT record at _dmarc.fresh.test.');
    expect(recordOf(again, 'spf').detail).toMatch(/No SPF record at fresh\.test/);
    expect(recordOf(again, 'return_path').detail).toMatch(/No CNAME record at bounces\.fresh\.test/);

    publishAll(d);
    const verified = await verify(d.id);
    expect(verified.status).toBe('verified');
    expect(verified.records.map((r) => [r.purpose, r.status])).toEqual(
      d.records.map((r) => [r.purpose, 'ok']),
    );
    // DMARC p=none passes, with advice to tighten it.
    expect(recordOf(verified, 'dmarc').detail).toMatch(/p=none/);
    expect(recordOf(verified, 'spf').detail).toBeNull();
  });

  it('says what is wrong with each invalid record', async () => {
    const d = await addDomain('wrong.test');
    publishAll(d);
    expect((await verify(d.id)).status).toBe('verified');
    const dkim = recordOf(d, 'dkim');
    const broken: [TEmailDomainRecord['purpose'], () => void, RegExp][] = [
      [
        'spf',
        () => sim.setRecord('wrong.test', 'TXT', 'v=spf1 include:_spf.google.com ~all'),
        /SPF record found but it does not include include:_spf\.titan\.test/,
      ],
      [
        'spf',
        () => sim.setRecord('wrong.test', 'TXT', [recordOf(d, 'spf').value, 'v=spf1 mx -all']),
        /Two SPF records at wrong\.test: receivers treat that as an error/,
      ],
      ['spf', () => sim.setRecord('wrong.test', 'TXT', `v=spf1 include:${SPF_INCLUDE} +all`), /\+all/],
      [
        'dkim',
        () => sim.setRecord(dkim.host, 'TXT', dkim.value.slice(0, -20)),
        /DKIM public key mismatch at/,
      ],
      ['dkim', () => sim.setRecord(dkim.host, 'TXT', 'v=DKIM1; k=rsa; p='), /revoked/],
      ['dkim', () => sim.setRecord(dkim.host, 'TXT', 'hello'), /not a DKIM key/],
      [
        'dmarc',
        () => sim.setRecord('_dmarc.wrong.test', 'TXT', 'v=DMARC1; rua=mailto:d@wrong.test'),
        /no valid policy/,
      ],
      [
        'dmarc',
        () => sim.setRecord('_dmarc.wrong.test', 'TXT', ['v=DMARC1; p=none', 'v=DMARC1; p=reject']),
        /Two DMARC records/,
      ],
      [
        'ownership',
        () => sim.setRecord('_titan-verification.wrong.test', 'TXT', 'titan-verification=someoneelse'),
        /different verification code/,
      ],
      [
        'return_path',
        () => sim.setRecord('bounces.wrong.test', 'CNAME', 'bounces.elsewhere.test'),
        /points to bounces\.elsewhere\.test, not rp\.titan\.test/,
      ],
    ];
    for (const [purpose, breakIt, detail] of broken) {
      breakIt();
      const checked = await verify(d.id);
      expect(recordOf(checked, purpose).status, String(detail)).toBe('invalid');
      expect(recordOf(checked, purpose).detail).toMatch(detail);
      expect(checked.status).toBe('failed');
      publishAll(d);
      expect((await verify(d.id)).status).toBe('verified');
    }
  });

  it('reads a DKIM key split into 255-byte strings, and an inherited DMARC policy for a subdomain', async () => {
    const d = await addDomain('mail.parent.test');
    sim.setZone('parent.test');
    for (const r of d.records) {
      if (r.purpose !== 'dmarc') sim.setRecord(r.host, r.type === 'CNAME' ? 'CNAME' : 'TXT', r.value);
    }
    sim.setRecord('_dmarc.parent.test', 'TXT', 'v=DMARC1; p=reject; sp=quarantine');
    const checked = await verify(d.id);
    expect(recordOf(checked, 'dkim').value.length).toBeGreaterThan(255);
    expect(recordOf(checked, 'dkim').status).toBe('ok');
    expect(recordOf(checked, 'dmarc')).toMatchObject({ status: 'ok' });
    expect(recordOf(checked, 'dmarc').detail).toMatch(/_dmarc\.parent\.test/);
    expect(checked.status).toBe('verified');
  });

  it('answers a DNS timeout as a record detail, never a 5xx, and keeps a verified domain verified', async () => {
    const d = await addDomain('slow.test');
    const timedOut = await verifyEmailDomain(deps({ servers: [deadDnsAddress] }), business.id, d.id);
    expect(timedOut.status).toBe('failed');
    for (const r of timedOut.records) {
      expect(r.status).toBe('missing');
      expect(r.detail).toMatch(/did not answer in time/);
    }
    publishAll(d);
    expect((await verify(d.id)).status).toBe('verified');
    const stillVerified = await verifyEmailDomain(deps({ servers: [deadDnsAddress] }), business.id, d.id);
    expect(stillVerified.status).toBe('verified');
    expect(recordOf(stillVerified, 'spf').detail).toMatch(/did not answer in time/);
  });

  it('re-checks verified domains hourly and marks the ones whose records went away', async () => {
    const d = await addDomain('decays.test');
    publishAll(d);
    expect((await verify(d.id)).status).toBe('verified');
    sim.remove('_dmarc.decays.test');
    const warnings: unknown[] = [];
    const logger = { warn: (obj: unknown) => void warnings.push(obj) };
    // Just checked: not asked again within the hour.
    expect((await recheckVerifiedDomains(rt.services.emailDomains, logger)).checked).toBe(0);
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const run = await recheckVerifiedDomains(rt.services.emailDomains, logger, later);
    expect(run.degraded).toBeGreaterThanOrEqual(1);
    const after = (await call('GET', `/api/email/domains/${d.id}/`)).body.result as TEmailDomain;
    expect(after.status).toBe('failed');
    expect(recordOf(after, 'dmarc')).toMatchObject({ status: 'missing' });
    expect(warnings).toContainEqual(expect.objectContaining({ domain: 'decays.test' }));
  });

  it('rotates keys: the next selector is published beside the active one before the switch', async () => {
    const d = await addDomain('rotate.test');
    publishAll(d);
    expect((await verify(d.id)).status).toBe('verified');
    const db = rt.database.db;
    const secrets = rt.services.secrets;
    const before = await sendingIdentityFor(db, secrets, business.id, 'a@rotate.test');

    const prepared = await prepareNextDkimKey(deps(), business.id, d.id);
    const [active, next] = prepared.records.filter((r) => r.purpose === 'dkim');
    expect(active!.host).toBe(recordOf(d, 'dkim').host);
    expect(next!.host).not.toBe(active!.host);
    expect(next!.host).toMatch(/^titan\d{6}[0-9a-z]{0,4}\._domainkey\.rotate\.test$/);
    // Not yet published: the domain still verifies (the next key is not required) but cannot switch.
    const checked = await verify(d.id);
    expect(checked.status).toBe('verified');
    expect(checked.records.filter((r) => r.purpose === 'dkim').map((r) => r.status)).toEqual([
      'ok',
      'missing',
    ]);
    await expect(activateNextDkimKey(deps(), business.id, d.id)).rejects.toMatchObject({ code: 'conflict' });

    sim.setRecord(next!.host, 'TXT', next!.value);
    await verify(d.id);
    const switched = await activateNextDkimKey(deps(), business.id, d.id);
    expect(switched.records.filter((r) => r.purpose === 'dkim').map((r) => r.host)).toEqual([
      next!.host,
      active!.host,
    ]);
    const after = await sendingIdentityFor(db, secrets, business.id, 'a@rotate.test');
    expect(after!.dkim.keySelector).toBe(next!.host.split('.')[0]);
    expect(after!.dkim.privateKey).not.toBe(before!.dkim.privateKey);
    await expect(activateNextDkimKey(deps(), business.id, d.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it("keeps another business's domains out of reach: 404 to get, delete and verify", async () => {
    const d = await addDomain('private.test');
    for (const [method, url] of [
      ['GET', `/api/email/domains/${d.id}/`],
      ['POST', `/api/email/domains/${d.id}/verify/`],
      ['DELETE', `/api/email/domains/${d.id}/`],
    ] as const) {
      expect((await call(method, url, undefined, other)).status, `${method} ${url}`).toBe(404);
    }
    expect(
      ((await call('GET', '/api/email/domains/', undefined, other)).body.result as unknown[]).length,
    ).toBe(0);
    expect((await call('GET', `/api/email/domains/${d.id}/`)).status).toBe(200);
  });

  it('lets another business add the same domain, but it sends as it only after its own verification', async () => {
    const mine = await addDomain('shared.test');
    publishAll(mine);
    expect((await verify(mine.id)).status).toBe('verified');
    const theirs = await addDomain('shared.test', other);
    expect(recordOf(theirs, 'ownership').value).not.toBe(recordOf(mine, 'ownership').value);
    expect(recordOf(theirs, 'dkim').host).not.toBe(recordOf(mine, 'dkim').host);
    const checked = await verify(theirs.id, other);
    expect(checked.status).toBe('failed');
    expect(recordOf(checked, 'ownership').status).toBe('invalid');
    const secrets = rt.services.secrets;
    expect(
      await sendingIdentityFor(rt.database.db, secrets, other.business.id, 'news@shared.test'),
    ).toBeNull();
    expect(await sendingIdentityFor(rt.database.db, secrets, business.id, 'news@shared.test')).not.toBeNull();
  });

  it('gives the sending identity of a verified domain only, to its own business', async () => {
    const d = await addDomain('sender.test');
    const db = rt.database.db;
    const secrets = rt.services.secrets;
    expect(await sendingIdentityFor(db, secrets, business.id, 'hi@sender.test')).toBeNull();
    publishAll(d);
    await verify(d.id);
    const identity = await sendingIdentityFor(db, secrets, business.id, 'Shop <Hi@Sender.Test>');
    const dkim = recordOf(d, 'dkim');
    expect(identity).toMatchObject({
      domainId: d.id,
      domain: 'sender.test',
      dkim: { domainName: 'sender.test', keySelector: dkim.host.split('.')[0] },
      returnPathHost: 'bounces.sender.test',
    });
    expect(identity!.dkim.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await sendingIdentityFor(db, secrets, other.business.id, 'hi@sender.test')).toBeNull();
    expect(await sendingIdentityFor(db, secrets, business.id, 'hi@sub.sender.test')).toBeNull();
    expect(await sendingIdentityFor(db, secrets, business.id, 'not an address')).toBeNull();
    expect((await call('DELETE', `/api/email/domains/${d.id}/`)).status).toBe(200);
    expect(await sendingIdentityFor(db, secrets, business.id, 'hi@sender.test')).toBeNull();
    expect((await call('GET', `/api/email/domains/${d.id}/`)).status).toBe(404);
  });
});

describe('name server addresses', () => {
  it('tells private and loopback addresses from public ones', () => {
    for (const ip of [
      '127.0.0.2',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:1.1.1.1']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });
});

/** Two DNS servers, on 127.0.0.2 and 127.0.0.1, sharing a port (the walk asks name servers on one). */
async function twoServersOnOnePort(): Promise<{ authoritative: DnsSim; bootstrap: DnsSim }> {
  for (let attempt = 0; ; attempt++) {
    const authoritative = await startDnsSim({ host: '127.0.0.2' });
    try {
      return { authoritative, bootstrap: await startDnsSim({ host: '127.0.0.1', port: authoritative.port }) };
    } catch (err) {
      await authoritative.close();
      if (attempt >= 4) throw err; // that port was taken on 127.0.0.1: try another
    }
  }
}

describe('the walk to the authoritative name servers', () => {
  it("finds the zone's NS from a parent and asks only those servers", async () => {
    // The authoritative server of walk.test at 127.0.0.2; the bootstrap server at 127.0.0.1 on the
    // same port knows only the delegation (NS and the name server's address), like a resolver would.
    const { authoritative, bootstrap } = await twoServersOnOnePort();
    try {
      bootstrap.setZone('walk.test', { nameServers: ['ns.walk.test'] });
      bootstrap.setRecord('ns.walk.test', 'A', '127.0.0.2');
      authoritative.setZone('walk.test', { nameServers: ['ns.walk.test'] });
      authoritative.setRecord('_dmarc.mail.walk.test', 'TXT', 'v=DMARC1; p=reject');
      const walk = {
        servers: null,
        timeoutMs: 1000,
        nameServerPort: authoritative.port,
        bootstrapServers: [bootstrap.address],
      };
      // A domain's NS may name any address: by default Titan never sends its questions inward.
      expect(await authoritativeLookup('mail.walk.test', walk)).toEqual({
        error: expect.stringMatching(/only private addresses/),
      });
      const lookup = await authoritativeLookup('mail.walk.test', { ...walk, allowPrivateNameServers: true });
      if ('error' in lookup) throw new Error(lookup.error);
      expect(lookup.servers).toBe('ns.walk.test');
      expect(await lookup.txt('_dmarc.mail.walk.test')).toEqual({
        kind: 'found',
        values: ['v=DMARC1; p=reject'],
      });
      expect(authoritative.queries.map((q) => q.name)).toContain('_dmarc.mail.walk.test');
      expect(bootstrap.queries.map((q) => q.name)).not.toContain('_dmarc.mail.walk.test');

      const nowhere = await authoritativeLookup('nowhere.example', {
        servers: null,
        timeoutMs: 300,
        bootstrapServers: [deadDnsAddress],
      });
      expect(nowhere).toEqual({ error: expect.stringMatching(/did not answer in time/) });
    } finally {
      await bootstrap.close();
      await authoritative.close();
    }
  });
});
