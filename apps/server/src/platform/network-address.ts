// Which addresses Titan may send packets to when someone outside it chose the destination (an MCP
// server, a plugin endpoint, a business's AI model, a domain's name servers): only global unicast
// ones. Every spelling of an address is read as the address it is — IPv4 in the decimal, octal and
// hex forms that inet_aton and WHATWG URLs accept (2130706433, 0177.0.0.1, 0x7f.1), IPv6 with IPv4
// inside it (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, SIIT, NAT64, 6to4) — and anything that is
// not understood is refused, never let through.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export type IpAddress = { family: 4 | 6; address: string };

function blockList(entries: [string, number][], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of entries) list.addSubnet(network, prefix, type);
  return list;
}

/** IANA's special-purpose IPv4 ranges that are not globally reachable, plus multicast and class E. */
const NOT_GLOBAL_V4 = blockList(
  [
    ['0.0.0.0', 8], // "this network", 0.0.0.0 included
    ['10.0.0.0', 8],
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8],
    ['169.254.0.0', 16], // link-local, cloud metadata services
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast included
  ],
  'ipv4',
);

/** Global unicast IPv6 is 2000::/3; within it, these are not reachable on the internet. */
const GLOBAL_V6 = blockList([['2000::', 3]], 'ipv6');
const NOT_GLOBAL_V6 = blockList(
  [
    ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID…
    ['2001:db8::', 32], // documentation
    ['3fff::', 20], // documentation
  ],
  'ipv6',
);

/** One IPv4 part as inet_aton reads it: 0x… hex, 0… octal, else decimal. */
function ipv4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return Number(part);
  return null;
}

/** a, a.b, a.b.c or a.b.c.d, each part in any base, the last filling the bytes left: as a.b.c.d. */
function looseIpv4(text: string): string | null {
  const parts = text.replace(/\.$/, '').split('.');
  if (parts.length > 4) return null;
  const values = parts.map(ipv4Part);
  if (values.some((v) => v === null || !Number.isSafeInteger(v))) return null;
  const numbers = values as number[];
  const last = numbers.pop()!;
  if (numbers.some((v) => v > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((v, i) => (value += v * 256 ** (3 - i)));
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** An address in any accepted spelling (brackets and an IPv6 zone allowed), or null when it is not one. */
export function parseIpAddress(text: string): IpAddress | null {
  const bare = text
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (isIPv6(bare)) return { family: 6, address: bare.toLowerCase() };
  if (isIPv4(bare)) return { family: 4, address: bare };
  const loose = bare === '' ? null : looseIpv4(bare);
  return loose ? { family: 4, address: loose } : null;
}

/** The eight 16-bit groups of a valid IPv6 address. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  if (tail === undefined) return groups(head);
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one carries to, when the network translates or tunnels it there:
 * mapped ::ffff:0:0/96, SIIT ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16.
 */
function embeddedIpv4(g: number[]): string | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return null;
}

/** Whether `text` is an address on the internet that anyone may reach; false for anything else. */
export function isPublicAddress(text: string): boolean {
  const ip = parseIpAddress(text);
  if (!ip) return false;
  if (ip.family === 4) return !NOT_GLOBAL_V4.check(ip.address, 'ipv4');
  const inner = embeddedIpv4(ipv6Groups(ip.address));
  if (inner) return !NOT_GLOBAL_V4.check(inner, 'ipv4');
  return GLOBAL_V6.check(ip.address, 'ipv6') && !NOT_GLOBAL_V6.check(ip.address, 'ipv6');
}

/** Loopback, private, shared, link-local, unspecified, multicast, reserved — or not an address at all. */
export const isPrivateAddress = (text: string): boolean => !isPublicAddress(text);
