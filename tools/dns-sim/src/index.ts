// A real authoritative DNS server (UDP and TCP, wire format by dns-packet) for the zones it is
// given, so Titan's domain verification asks a name server exactly as it would on the internet:
// answers carry the AA flag, unknown names are NXDOMAIN and known names without the asked type are
// NODATA (both with the zone's SOA), long TXT values go out as 255-byte strings, and an answer too
// large for UDP is truncated (TC) so the client asks again over TCP. Zones are edited in-process or
// over a small HTTP control endpoint (`startDnsControl`).
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import {
  createServer as createTcpServer,
  type Server as TcpServer,
  type Socket as TcpSocket,
} from 'node:net';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

export const RECORD_TYPES = ['A', 'AAAA', 'NS', 'CNAME', 'MX', 'TXT'] as const;
export type DnsRecordType = (typeof RECORD_TYPES)[number];

/** MX values are `{ preference, exchange }` or the zone-file form "10 mx.example.com". */
export type MxValue = { preference: number; exchange: string };
export type DnsValue = string | MxValue;

export type DnsRecord = { name: string; type: DnsRecordType; ttl: number; value: DnsValue };

export type ZoneOptions = {
  /** The zone's name servers (NS at the apex); default `ns1.<zone>`. */
  nameServers?: string[];
  /** The SOA's responsible mailbox, in DNS form; default `hostmaster.<zone>`. */
  hostmaster?: string;
  ttl?: number;
};

export type DnsSimOptions = { port?: number; host?: string };

export type DnsSim = {
  host: string;
  port: number;
  /** `host:port`, as DNS_SERVERS takes it (IPv6 hosts in brackets). */
  address: string;
  /** Creates (or resets) a zone this server is authoritative for, with its SOA and NS records. */
  setZone(zone: string, options?: ZoneOptions): void;
  removeZone(zone: string): void;
  /** Replaces every record of `type` at `name` with `values` (a name inside a zone held here). */
  setRecord(name: string, type: DnsRecordType, values: DnsValue | DnsValue[], ttl?: number): void;
  /** Adds one record of `type` at `name`, keeping the others. */
  addRecord(name: string, type: DnsRecordType, value: DnsValue, ttl?: number): void;
  /** Removes the records of `type` at `name`, or every record at `name` without a type. */
  remove(name: string, type?: DnsRecordType): void;
  /** Every record held, zone by zone (SOA left out). */
  records(): DnsRecord[];
  zones(): string[];
  /** Questions answered so far (name, type), for tests that check who was asked. */
  queries: { name: string; type: string; transport: 'udp' | 'tcp' }[];
  close(): Promise<void>;
};

type Zone = { name: string; serial: number; soa: packet.SoaData; ttl: number; records: DnsRecord[] };

/** Lower case, no trailing dot: names compare as DNS does (ASCII case-insensitively). */
export function normalizeName(name: string): string {
  return name.trim().replace(/\.+$/, '').toLowerCase();
}

function isWithin(name: string, zone: string): boolean {
  return name === zone || name.endsWith(`.${zone}`);
}

function parseMx(value: DnsValue): MxValue {
  if (typeof value !== 'string')
    return { preference: value.preference, exchange: normalizeName(value.exchange) };
  const match = /^\s*(\d+)\s+(\S+)\s*$/.exec(value);
  if (!match) throw new Error(`MX value must look like "10 mx.example.com" (got ${JSON.stringify(value)})`);
  return { preference: Number(match[1]), exchange: normalizeName(match[2]!) };
}

function checkValue(type: DnsRecordType, value: DnsValue): DnsValue {
  switch (type) {
    case 'A':
      if (typeof value !== 'string' || !/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) {
        throw new Error(`A value must be an IPv4 address (got ${JSON.stringify(value)})`);
      }
      return value;
    case 'AAAA':
      if (typeof value !== 'string' || !value.includes(':')) {
        throw new Error(`AAAA value must be an IPv6 address (got ${JSON.stringify(value)})`);
      }
      return value;
    case 'NS':
    case 'CNAME':
      if (typeof value !== 'string' || !value.trim()) throw new Error(`${type} value must be a host name`);
      return normalizeName(value);
    case 'MX':
      return parseMx(value);
    case 'TXT':
      if (typeof value !== 'string') throw new Error('TXT value must be a string');
      return value;
    default: {
      const unreachable: never = type;
      throw new Error(`unsupported type ${String(unreachable)}`);
    }
  }
}

/** A TXT value as the character-strings of one record: at most 255 bytes each (RFC 1035 3.3.14). */
export function splitTxt(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 0) return [Buffer.alloc(0)];
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255));
  return parts;
}

function toAnswer(record: DnsRecord): packet.Answer {
  const base = { name: record.name, ttl: record.ttl, class: 'IN' as const };
  switch (record.type) {
    case 'A':
    case 'AAAA':
    case 'NS':
    case 'CNAME':
      return { ...base, type: record.type, data: record.value as string };
    case 'MX':
      return { ...base, type: 'MX', data: record.value as MxValue };
    case 'TXT':
      return { ...base, type: 'TXT', data: splitTxt(record.value as string) };
    default: {
      const unreachable: never = record.type;
      throw new Error(`unsupported type ${String(unreachable)}`);
    }
  }
}

/** Response codes live in the header's low four bits (RFC 1035 4.1.1); dns-packet encodes flags only. */
const RCODES = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

function withRcode(reply: packet.Packet, rcode: keyof typeof RCODES, authoritative: boolean): packet.Packet {
  const flags =
    ((reply.flags ?? 0) & ~0xf) | RCODES[rcode] | (authoritative ? packet.AUTHORITATIVE_ANSWER : 0);
  return { ...reply, flags };
}

/** The largest UDP answer a query allows: 512 bytes, or its EDNS payload size (RFC 6891). */
function udpLimit(query: packet.Packet): number {
  const opt = (query.additionals ?? []).find((a) => a.type === 'OPT') as
    { udpPayloadSize?: number } | undefined;
  return opt?.udpPayloadSize ? Math.max(512, Math.min(opt.udpPayloadSize, 4096)) : 512;
}

export async function startDnsSim(options: DnsSimOptions = {}): Promise<DnsSim> {
  const host = options.host ?? '127.0.0.1';
  const zones = new Map<string, Zone>();
  const queries: DnsSim['queries'] = [];

  const zoneOf = (name: string): Zone | undefined => {
    let best: Zone | undefined;
    for (const zone of zones.values()) {
      if (isWithin(name, zone.name) && (!best || zone.name.length > best.name.length)) best = zone;
    }
    return best;
  };
  const zoneFor = (name: string): Zone => {
    const zone = zoneOf(name);
    if (!zone) throw new Error(`no zone held here contains ${name}: call setZone first`);
    return zone;
  };
  const bump = (zone: Zone) => {
    zone.serial += 1;
    zone.soa.serial = zone.serial;
  };

  function answer(query: packet.Packet): packet.Packet {
    const question = query.questions?.[0];
    const reply: packet.Packet = {
      id: query.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED & (query.flags ?? 0),
      questions: query.questions ?? [],
      answers: [],
      authorities: [],
    };
    if (!question || (query.questions?.length ?? 0) !== 1 || question.class !== 'IN') {
      return withRcode(reply, 'FORMERR', false);
    }
    const qname = normalizeName(question.name);
    const zone = zoneOf(qname);
    // Not ours: a real authoritative server refuses rather than recursing.
    if (!zone) return withRcode(reply, 'REFUSED', false);

    const soaAnswer: packet.Answer = {
      name: zone.name,
      type: 'SOA',
      ttl: zone.ttl,
      class: 'IN',
      data: zone.soa,
    };
    const answers: packet.Answer[] = [];
    let name = qname;
    let current: Zone | undefined = zone;
    // Follow CNAMEs within the zones held here (at most 8 links, as resolvers do).
    for (let hops = 0; hops < 8 && current; hops++) {
      const here = current.records.filter((r) => r.name === name);
      if (question.type === 'SOA' && name === current.name) {
        answers.push({ ...soaAnswer, name: current.name, data: current.soa });
        break;
      }
      const cname = here.find((r) => r.type === 'CNAME');
      if (cname && question.type !== 'CNAME') {
        answers.push(toAnswer(cname));
        name = cname.value as string;
        current = zoneOf(name);
        continue;
      }
      const wanted =
        (question.type as string) === 'ANY'
          ? here
          : here.filter((r) => r.type === (question.type as DnsRecordType));
      answers.push(...wanted.map(toAnswer));
      if (answers.length === 0) {
        // The name exists when it holds records or names below it do (an empty non-terminal).
        const exists =
          name === current.name ||
          current.records.some((r) => r.name === name || r.name.endsWith(`.${name}`));
        return withRcode(
          { ...reply, answers, authorities: [{ ...soaAnswer, name: current.name, data: current.soa }] },
          exists ? 'NOERROR' : 'NXDOMAIN',
          true,
        );
      }
      break;
    }
    return withRcode({ ...reply, answers }, 'NOERROR', true);
  }

  function respond(message: Buffer, transport: 'udp' | 'tcp'): Buffer | null {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return null; // not DNS: a real server drops it
    }
    if (query.type !== 'query') return null;
    for (const q of query.questions ?? [])
      queries.push({ name: normalizeName(q.name), type: q.type, transport });
    const reply = answer(query);
    const edns = (query.additionals ?? []).find((a) => a.type === 'OPT');
    if (edns) reply.additionals = [{ type: 'OPT', name: '.', udpPayloadSize: 4096 } as packet.Answer];
    let encoded = packet.encode(reply);
    if (transport === 'udp' && encoded.length > udpLimit(query)) {
      // Too big for this datagram: say so, the client asks again over TCP (RFC 7766).
      encoded = packet.encode({
        ...reply,
        flags: (reply.flags ?? 0) | packet.TRUNCATED_RESPONSE,
        answers: [],
        authorities: [],
      });
    }
    return encoded;
  }

  const udp: Socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  udp.on('message', (message: Buffer, remote: RemoteInfo) => {
    const reply = respond(message, 'udp');
    if (reply) udp.send(reply, remote.port, remote.address);
  });
  udp.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(options.port ?? 0, host, () => {
      udp.off('error', reject);
      resolve();
    });
  });
  const port = udp.address().port;

  const sockets = new Set<TcpSocket>();
  const tcp: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Each message is preceded by its length in two bytes (RFC 1035 4.2.2).
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        const reply = respond(message, 'tcp');
        if (!reply) {
          socket.destroy();
          return;
        }
        const framed = Buffer.alloc(2 + reply.length);
        framed.writeUInt16BE(reply.length, 0);
        reply.copy(framed, 2);
        socket.write(framed);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', (err) => {
      // The port is taken for TCP: give the UDP one back, so the caller can try another.
      udp.close();
      reject(err);
    });
    tcp.listen(port, host, () => {
      tcp.removeAllListeners('error');
      tcp.on('error', () => {});
      resolve();
    });
  });

  const sim: DnsSim = {
    host,
    port,
    address: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    queries,
    setZone(zoneName, zoneOptions = {}) {
      const name = normalizeName(zoneName);
      if (!name) throw new Error('a zone needs a name');
      const ttl = zoneOptions.ttl ?? 300;
      const nameServers = (zoneOptions.nameServers ?? [`ns1.${name}`]).map(normalizeName);
      const zone: Zone = {
        name,
        serial: 1,
        ttl,
        soa: {
          mname: nameServers[0]!,
          rname: normalizeName(zoneOptions.hostmaster ?? `hostmaster.${name}`),
          serial: 1,
          refresh: 3600,
          retry: 600,
          expire: 86400,
          minimum: 60,
        },
        records: nameServers.map((ns) => ({ name, type: 'NS', ttl, value: ns })),
      };
      zones.set(name, zone);
    },
    removeZone(zoneName) {
      zones.delete(normalizeName(zoneName));
    },
    setRecord(recordName, type, values, ttl) {
      const name = normalizeName(recordName);
      const zone = zoneFor(name);
      const list = (Array.isArray(values) ? values : [values]).map((v) => checkValue(type, v));
      if (type === 'CNAME' && list.length > 1) throw new Error('a name holds at most one CNAME');
      zone.records = zone.records.filter((r) => !(r.name === name && r.type === type));
      zone.records.push(...list.map((value) => ({ name, type, ttl: ttl ?? zone.ttl, value })));
      bump(zone);
    },
    addRecord(recordName, type, value, ttl) {
      const name = normalizeName(recordName);
      const zone = zoneFor(name);
      zone.records.push({ name, type, ttl: ttl ?? zone.ttl, value: checkValue(type, value) });
      bump(zone);
    },
    remove(recordName, type) {
      const name = normalizeName(recordName);
      const zone = zoneOf(name);
      if (!zone) return;
      zone.records = zone.records.filter((r) => !(r.name === name && (!type || r.type === type)));
      bump(zone);
    },
    records() {
      return [...zones.values()].flatMap((z) => z.records.map((r) => ({ ...r })));
    },
    zones() {
      return [...zones.keys()];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
  return sim;
}

export type DnsControl = { port: number; url: string; close(): Promise<void> };

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const parsed: unknown = text ? JSON.parse(text) : {};
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('expected a JSON object');
  return parsed as Record<string, unknown>;
}

function isRecordType(value: unknown): value is DnsRecordType {
  return typeof value === 'string' && (RECORD_TYPES as readonly string[]).includes(value);
}

/**
 * The HTTP control endpoint (JSON), for the demo and for scripts:
 * `GET /zones` → `{zones, records}`; `POST /zones` `{zone, name_servers?}`; `DELETE /zones/{zone}`;
 * `PUT /records` `{name, type, values, ttl?}` replaces a record set; `POST /records`
 * `{name, type, value, ttl?}` adds one; `DELETE /records?name=&type=` removes.
 */
export async function startDnsControl(
  sim: DnsSim,
  options: { port?: number; host?: string } = {},
): Promise<DnsControl> {
  const host = options.host ?? '127.0.0.1';
  const server: HttpServer = createHttpServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', `http://${host}`);
    const handle = async () => {
      if (url.pathname === '/zones' && req.method === 'GET') {
        return send(200, { zones: sim.zones(), records: sim.records() });
      }
      if (url.pathname === '/zones' && req.method === 'POST') {
        const body = await readJson(req);
        if (typeof body.zone !== 'string') return send(400, { error: 'zone is required' });
        const nameServers = Array.isArray(body.name_servers) ? body.name_servers.map(String) : undefined;
        sim.setZone(body.zone, { nameServers });
        return send(201, { zone: normalizeName(body.zone) });
      }
      if (url.pathname.startsWith('/zones/') && req.method === 'DELETE') {
        sim.removeZone(decodeURIComponent(url.pathname.slice('/zones/'.length)));
        return send(200, { ok: true });
      }
      if (url.pathname === '/records' && (req.method === 'PUT' || req.method === 'POST')) {
        const body = await readJson(req);
        if (typeof body.name !== 'string' || !isRecordType(body.type)) {
          return send(400, { error: `name and type (${RECORD_TYPES.join(', ')}) are required` });
        }
        const ttl = typeof body.ttl === 'number' ? body.ttl : undefined;
        if (req.method === 'PUT') {
          const values = (
            Array.isArray(body.values) ? body.values : [body.values ?? body.value]
          ) as DnsValue[];
          sim.setRecord(body.name, body.type, values, ttl);
        } else {
          sim.addRecord(body.name, body.type, body.value as DnsValue, ttl);
        }
        return send(200, { ok: true });
      }
      if (url.pathname === '/records' && req.method === 'DELETE') {
        const name = url.searchParams.get('name');
        const type = url.searchParams.get('type');
        if (!name) return send(400, { error: 'name is required' });
        if (type && !isRecordType(type))
          return send(400, { error: `type must be one of ${RECORD_TYPES.join(', ')}` });
        sim.remove(name, isRecordType(type) ? type : undefined);
        return send(200, { ok: true });
      }
      return send(404, { error: 'not found' });
    };
    handle().catch((err: unknown) => send(400, { error: err instanceof Error ? err.message : String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
