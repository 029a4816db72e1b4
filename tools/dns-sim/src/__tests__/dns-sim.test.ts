// The simulator answers as an authoritative server does, asked by node:dns (c-ares) over the wire.
import { Resolver } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import * as packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitTxt, startDnsControl, startDnsSim, type DnsSim } from '../index';

let sim: DnsSim;
let resolver: Resolver;

/** A decoded answer: dns-packet reads the rcode, its types leave it out. */
type Reply = packet.DecodedPacket & { rcode: string };

/** One raw UDP question, to read the flags and rcode that node:dns does not show. */
async function ask(name: string, type: packet.RecordType, edns = false): Promise<Reply> {
  const socket = createSocket('udp4');
  const query = packet.encode({
    type: 'query',
    id: 4242,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
    ...(edns ? { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096 } as packet.Answer] } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once('message', (msg) => {
      socket.close();
      resolve(packet.decode(msg) as Reply);
    });
    socket.once('error', reject);
    socket.send(query, sim.port, sim.host);
  });
}

beforeAll(async () => {
  sim = await startDnsSim();
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([sim.address]);
  sim.setZone('example.test');
});
afterAll(() => sim.close());

describe('dns-sim', () => {
  it('answers A, AAAA, MX, TXT, CNAME, NS and SOA with the AA flag', async () => {
    sim.setRecord('www.example.test', 'A', ['192.0.2.1', '192.0.2.2']);
    sim.setRecord('www.example.test', 'AAAA', '2001:db8::1');
    sim.setRecord('example.test', 'MX', [
      '10 mx1.example.test',
      { preference: 20, exchange: 'mx2.example.test' },
    ]);
    sim.setRecord('example.test', 'TXT', 'v=spf1 -all');
    sim.setRecord('mail.example.test', 'CNAME', 'www.example.test');
    expect((await resolver.resolve4('www.example.test')).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await resolver.resolve6('WWW.Example.Test')).toEqual(['2001:db8::1']);
    expect((await resolver.resolveMx('example.test')).sort((a, b) => a.priority - b.priority)).toEqual([
      { exchange: 'mx1.example.test', priority: 10 },
      { exchange: 'mx2.example.test', priority: 20 },
    ]);
    expect(await resolver.resolveTxt('example.test')).toEqual([['v=spf1 -all']]);
    expect(await resolver.resolveCname('mail.example.test')).toEqual(['www.example.test']);
    // A CNAME is followed within the zone for other types.
    expect((await resolver.resolve4('mail.example.test')).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await resolver.resolveNs('example.test')).toEqual(['ns1.example.test']);
    expect((await resolver.resolveSoa('example.test')).nsname).toBe('ns1.example.test');
    const raw = await ask('www.example.test', 'A');
    expect(raw.flags! & packet.AUTHORITATIVE_ANSWER).toBeTruthy();
    expect(raw.rcode).toBe('NOERROR');
  });

  it('answers NXDOMAIN for unknown names and NODATA for known names without the type, each with the SOA', async () => {
    await expect(resolver.resolveTxt('nothing.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveTxt('www.example.test')).rejects.toMatchObject({ code: 'ENODATA' });
    const nx = await ask('nothing.example.test', 'TXT');
    expect(nx.rcode).toBe('NXDOMAIN');
    expect(nx.flags! & packet.AUTHORITATIVE_ANSWER).toBeTruthy();
    expect(nx.authorities?.[0]?.type).toBe('SOA');
    const nodata = await ask('www.example.test', 'TXT');
    expect(nodata.rcode).toBe('NOERROR');
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities?.[0]?.type).toBe('SOA');
    // An empty non-terminal exists: names below it hold records.
    sim.setRecord('sel._domainkey.example.test', 'TXT', 'v=DKIM1; p=');
    expect((await ask('_domainkey.example.test', 'TXT')).rcode).toBe('NOERROR');
  });

  it('refuses names outside its zones', async () => {
    const refused = await ask('example.org', 'A');
    expect(refused.rcode).toBe('REFUSED');
    expect(refused.flags! & packet.AUTHORITATIVE_ANSWER).toBeFalsy();
    await expect(resolver.resolve4('example.org')).rejects.toMatchObject({ code: 'EREFUSED' });
  });

  it('splits long TXT values into 255-byte strings and falls back to TCP for large answers', async () => {
    const key = 'v=DKIM1; k=rsa; p=' + 'A'.repeat(392);
    expect(splitTxt(key).map((b) => b.length)).toEqual([255, 155]);
    sim.setRecord('titan202611._domainkey.example.test', 'TXT', key);
    expect(await resolver.resolveTxt('titan202611._domainkey.example.test')).toEqual([
      [key.slice(0, 255), key.slice(255)],
    ]);
    // Four such records do not fit 512 bytes: truncated over UDP, answered whole over TCP.
    sim.setRecord(
      'big.example.test',
      'TXT',
      [1, 2, 3, 4].map((n) => `${n}${key}`),
    );
    const truncated = await ask('big.example.test', 'TXT');
    expect(truncated.flags! & packet.TRUNCATED_RESPONSE).toBeTruthy();
    expect(truncated.answers).toEqual([]);
    expect((await ask('big.example.test', 'TXT', true)).answers).toHaveLength(4);
    const before = sim.queries.filter((q) => q.transport === 'tcp').length;
    expect(await resolver.resolveTxt('big.example.test')).toHaveLength(4);
    expect(sim.queries.filter((q) => q.transport === 'tcp').length).toBeGreaterThan(before);
  });

  it('removes records, and the control endpoint edits zones over HTTP', async () => {
    sim.remove('www.example.test', 'A');
    await expect(resolver.resolve4('www.example.test')).rejects.toMatchObject({ code: 'ENODATA' });
    const control = await startDnsControl(sim);
    try {
      const created = await fetch(`${control.url}/zones`, {
        method: 'POST',
        body: JSON.stringify({ zone: 'shop.test' }),
      });
      expect(created.status).toBe(201);
      const put = await fetch(`${control.url}/records`, {
        method: 'PUT',
        body: JSON.stringify({ name: '_dmarc.shop.test', type: 'TXT', values: ['v=DMARC1; p=none'] }),
      });
      expect(put.status).toBe(200);
      expect(await resolver.resolveTxt('_dmarc.shop.test')).toEqual([['v=DMARC1; p=none']]);
      const bad = await fetch(`${control.url}/records`, {
        method: 'PUT',
        body: JSON.stringify({ name: 'x.nowhere.test', type: 'TXT', values: ['x'] }),
      });
      expect(bad.status).toBe(400);
      const listed = (await (await fetch(`${control.url}/zones`)).json()) as { zones: string[] };
      expect(listed.zones).toContain('shop.test');
      const removed = await fetch(`${control.url}/records?name=_dmarc.shop.test&type=TXT`, {
        method: 'DELETE',
      });
      expect(removed.status).toBe(200);
      // Its only record gone, the name no longer exists.
      await expect(resolver.resolveTxt('_dmarc.shop.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    } finally {
      await control.close();
    }
  });
});
