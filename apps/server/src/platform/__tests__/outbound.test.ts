// The SSRF gate of every call to a URL a business chose: which addresses are private in every
// spelling, refused on the URL and again at connect time on the address the socket would go to
// (DNS rebinding), and when the gate is on (production, or HOST beyond loopback).
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MCP_ERRORS } from '@titan/contracts';
import { isPrivateAddress, isPublicAddress, parseIpAddress } from '../network-address';
import {
  guardedFetch,
  outboundErrorWords,
  outboundGuarded,
  outboundUrlProblem,
  safeFetch,
  safePost,
} from '../safe-fetch';
import { createServer as createHttpServer } from 'node:http';

const PRIVATE = [
  // IPv4-mapped and IPv4-compatible IPv6, in both notations
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '::7f00:1',
  '::ffff:0:7f00:1',
  // unspecified and loopback
  '::',
  '::1',
  '0.0.0.0',
  '0.1.2.3',
  '127.0.0.1',
  '127.255.255.254',
  // decimal, octal, hex and short IPv4
  '2130706433',
  '0177.0.0.1',
  '0x7f.1',
  '0x7f000001',
  '017700000001',
  '127.1',
  '0',
  // private, link-local, CGNAT, unique-local, multicast, reserved
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '100.127.255.255',
  '192.0.2.1',
  '198.18.0.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'ff02::1',
  '2001:db8::1',
  '2001::1',
  // IPv4 carried in NAT64 and 6to4
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '2002:a9fe:a9fe::1',
  // not an address: refused, never guessed
  'localhost',
  '08.1.1.1',
  '1.2.3.4.5',
  '',
];

const PUBLIC = [
  '8.8.8.8',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '100.63.255.255',
  '134744072',
  '2001:4860:4860::8888',
  '[2606:4700::1111]',
  '::ffff:1.1.1.1',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('address classification', () => {
  it.each(PRIVATE)('refuses %j', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(PUBLIC)('allows %j', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('reads every IPv4 spelling as the address it is', () => {
    for (const form of ['2130706433', '0177.0.0.1', '0x7f.1', '0x7f.0.0.1', '127.1', '017700000001'])
      expect(parseIpAddress(form), form).toEqual({ family: 4, address: '127.0.0.1' });
    expect(parseIpAddress('[::FFFF:127.0.0.1]')).toEqual({ family: 6, address: '::ffff:127.0.0.1' });
    expect(parseIpAddress('example.com')).toBeNull();
    expect(parseIpAddress('4294967296')).toBeNull();
  });
});

describe('when outside calls are guarded', () => {
  it('in production, and outside it whenever HOST is not a loopback address', () => {
    expect(outboundGuarded({ NODE_ENV: 'production', HOST: '127.0.0.1' })).toBe(true);
    expect(outboundGuarded({ NODE_ENV: 'production', HOST: '0.0.0.0' })).toBe(true);
    expect(outboundGuarded({ NODE_ENV: 'development', HOST: '0.0.0.0' })).toBe(true);
    expect(outboundGuarded({ NODE_ENV: 'development', HOST: '192.168.1.20' })).toBe(true);
    expect(outboundGuarded({ NODE_ENV: 'test', HOST: '::' })).toBe(true);
    expect(outboundGuarded({ NODE_ENV: 'development', HOST: '127.0.0.1' })).toBe(false);
    expect(outboundGuarded({ NODE_ENV: 'development', HOST: 'localhost' })).toBe(false);
    expect(outboundGuarded({ NODE_ENV: 'test', HOST: '::1' })).toBe(false);
  });
});

/** A TCP server on loopback that counts who reached it: a refused call never does. */
let target: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  target = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => target.close(r)));
beforeEach(() => {
  connections = 0;
});

const guarded = { guarded: true, publicUrl: 'https://titan.example.com' };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: unknown) => outboundErrorWords(err),
  );

describe('the URL check', () => {
  it.each([
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[0:0:0:0:0:ffff:7f00:1]/',
    'https://[::127.0.0.1]/',
    'https://[::]/',
    'https://[::1]/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f.1/',
    'https://127.1/',
    'https://0.0.0.0/',
    'https://0/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::ffff:169.254.169.254]/',
    'https://100.64.0.1/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
  ])('refuses %s when guarded', async (url) => {
    expect(await outboundUrlProblem(guarded, url)).toBe(MCP_ERRORS.privateAddress);
  });

  it('refuses a name that resolves to any private address in any spelling', async () => {
    for (const answer of [['::ffff:127.0.0.1'], ['2130706433'], ['93.184.216.34', '::ffff:a00:1'], []]) {
      const deps = { ...guarded, resolveHost: async () => answer };
      expect(await outboundUrlProblem(deps, 'https://api.example.com/'), answer.join()).toBe(
        MCP_ERRORS.privateAddress,
      );
    }
    const ok = { ...guarded, resolveHost: async () => ['93.184.216.34', '2606:4700::1111'] };
    expect(await outboundUrlProblem(ok, 'https://api.example.com/')).toBeNull();
  });
});

describe('the connect-time check', () => {
  it('refuses an address literal the socket would open, without connecting', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '127.0.0.1', '2130706433', '0x7f.1']) {
      const url = `https://${host}:${port}/v1/chat/completions`;
      // guardedFetch has no URL check of its own: only the dispatcher stands between it and loopback.
      expect(await failure(guardedFetch(guarded)(url, { method: 'POST' })), host).toBe(
        MCP_ERRORS.privateAddress,
      );
    }
    expect(connections).toBe(0);
  });

  it.each([
    ['127.0.0.1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['2130706433'],
    ['0177.0.0.1'],
    ['0x7f.1'],
    ['0.0.0.0'],
    ['::'],
    ['169.254.169.254'],
    ['93.184.216.34', '127.0.0.1'],
  ])(
    'refuses a name that resolves to %s once the URL check has passed (DNS rebinding)',
    async (...answer) => {
      let lookups = 0;
      const deps = {
        ...guarded,
        resolveHost: async () => (++lookups === 1 ? ['93.184.216.34'] : answer),
      };
      const url = `https://rebind.example.com:${port}/mcp`;
      expect(await failure(safeFetch(deps)(url))).toBe(MCP_ERRORS.privateAddress);
      // The first lookup was the URL check's (public); the second, refused, the socket's.
      expect(lookups).toBe(2);
      expect(connections).toBe(0);
    },
  );

  it('unguarded (a developer machine): http to localhost goes through, elsewhere https is still required', async () => {
    const open = { guarded: false, publicUrl: 'http://localhost:3000' };
    expect(await outboundUrlProblem(open, `http://127.0.0.1:${port}/`)).toBeNull();
    expect(await outboundUrlProblem(open, 'http://10.0.0.5/')).toBe(MCP_ERRORS.httpsRequired);
    expect(await failure(safeFetch(open)(`http://127.0.0.1:${port}/`))).not.toBe(MCP_ERRORS.privateAddress);
    expect(connections).toBe(1);
  });
});

describe('safePost (the bulk posters: webhook deliveries)', () => {
  const postInit = { headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 5_000 };

  it('keeps the rules of safeFetch: the URL before, the address at connect time', async () => {
    await expect(
      safePost(guarded)(`http://example.com:${port}/`, { ...postInit, maxBodyBytes: 10 }),
    ).rejects.toThrow(MCP_ERRORS.httpsRequired);
    let lookups = 0;
    const rebinding = {
      ...guarded,
      resolveHost: async () => (++lookups === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
    };
    expect(
      await failure(
        safePost(rebinding)(`https://rebind.example.com:${port}/hook`, { ...postInit, maxBodyBytes: 10 }),
      ),
    ).toBe(MCP_ERRORS.privateAddress);
    expect(connections).toBe(0);
  });

  it('posts the body and answers the status and the first bytes of the answer', async () => {
    let got = '';
    const http = createHttpServer((req, res) => {
      req.on('data', (c) => (got += c));
      req.on('end', () => res.writeHead(202).end('x'.repeat(10_000)));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const open = { guarded: false, publicUrl: 'http://localhost:3000' };
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`;
      const answer = await safePost(open)(url, { ...postInit, maxBodyBytes: 100 });
      expect(answer).toEqual({ status: 202, text: 'x'.repeat(100) });
      expect(got).toBe('{"a":1}');
    } finally {
      await new Promise((r) => http.close(r));
    }
  });
});
