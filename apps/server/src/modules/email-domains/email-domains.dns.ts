// Asks a domain's own (authoritative) name servers, never a caching resolver, so a record just
// published is seen at once: walk up the labels to the zone's NS set, resolve those hosts, and send
// every question straight to them. With DNS_SERVERS set those servers are asked instead (tests and
// the demo point Titan at tools/dns-sim). Lookups answer an outcome, never throw.
import { Resolver } from 'node:dns/promises';
import { isIPv6 } from 'node:net';
import { isPrivateAddress } from '../../platform/network-address';

export type DnsSettings = {
  /** host:port entries asked directly; null walks to the authoritative servers. */
  servers: string[] | null;
  timeoutMs: number;
  /** The port the authoritative servers found by the walk are asked on (53; tests use another). */
  nameServerPort?: number;
  /** Servers the walk starts from (the system's resolvers when unset). */
  bootstrapServers?: string[];
  /** Tests only: let the walk ask name servers at loopback or private addresses. */
  allowPrivateNameServers?: boolean;
};

export type LookupOutcome =
  | { kind: 'found'; values: string[] }
  | { kind: 'nxdomain' }
  | { kind: 'nodata' }
  | { kind: 'error'; reason: string };

export type DnsLookup = {
  /** Who is asked, for details ("ns1.example.com, ns2.example.com" or the DNS_SERVERS). */
  servers: string;
  /** Each TXT record with its character-strings joined, as RFC 7208 and 6376 read them. */
  txt(name: string): Promise<LookupOutcome>;
  cname(name: string): Promise<LookupOutcome>;
};

/** A DNS failure in words: what c-ares reports, said so a person knows it was not their record. */
function reasonOf(err: unknown): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ETIMEOUT':
      return 'the name servers did not answer in time';
    case 'ECONNREFUSED':
      return 'the name servers refused the connection';
    case 'EREFUSED':
      return 'the name servers refused to answer for this domain';
    case 'ESERVFAIL':
      return 'the name servers answered with a server failure';
    default:
      return `the lookup failed (${code ?? (err instanceof Error ? err.message : String(err))})`;
  }
}

async function outcome(run: () => Promise<string[]>): Promise<LookupOutcome> {
  try {
    const values = await run();
    return values.length > 0 ? { kind: 'found', values } : { kind: 'nodata' };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND') return { kind: 'nxdomain' };
    if (code === 'ENODATA') return { kind: 'nodata' };
    return { kind: 'error', reason: reasonOf(err) };
  }
}

function resolverFor(settings: DnsSettings, servers?: string[]): Resolver {
  const resolver = new Resolver({ timeout: settings.timeoutMs, tries: 2 });
  if (servers) resolver.setServers(servers);
  return resolver;
}

function lookupWith(resolver: Resolver, servers: string): DnsLookup {
  return {
    servers,
    txt: (name) => outcome(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) => outcome(() => resolver.resolveCname(name)),
  };
}

const parentOf = (name: string) => name.slice(name.indexOf('.') + 1);

/** The zone's name server hosts: NS of the domain, else of each parent up to the TLD. */
async function findNameServers(
  bootstrap: Resolver,
  domain: string,
): Promise<{ zone: string; hosts: string[] } | { error: string }> {
  for (let name = domain; name.includes('.'); name = parentOf(name)) {
    const found = await outcome(() => bootstrap.resolveNs(name));
    if (found.kind === 'found') return { zone: name, hosts: found.values };
    if (found.kind === 'error')
      return { error: `Could not find the name servers of ${domain}: ${found.reason}.` };
  }
  return { error: `No name servers found for ${domain}: is the domain registered?` };
}

/** A lookup that asks the domain's authoritative servers (or DNS_SERVERS), or why there is none. */
export async function authoritativeLookup(
  domain: string,
  settings: DnsSettings,
): Promise<DnsLookup | { error: string }> {
  if (settings.servers) {
    return lookupWith(resolverFor(settings, settings.servers), settings.servers.join(', '));
  }
  const bootstrap = resolverFor(settings, settings.bootstrapServers);
  const ns = await findNameServers(bootstrap, domain);
  if ('error' in ns) return ns;
  const addresses: string[] = [];
  for (const host of ns.hosts.slice(0, 4)) {
    const [v4, v6] = await Promise.all([
      outcome(() => bootstrap.resolve4(host)),
      outcome(() => bootstrap.resolve6(host)),
    ]);
    if (v4.kind === 'found') addresses.push(...v4.values);
    if (v6.kind === 'found') addresses.push(...v6.values);
  }
  if (addresses.length === 0) {
    return { error: `The name servers of ${ns.zone} (${ns.hosts.join(', ')}) have no addresses.` };
  }
  // A domain's NS records are written by whoever owns it: without this they could make Titan send
  // packets into its own network.
  const usable = settings.allowPrivateNameServers
    ? addresses
    : addresses.filter((ip) => !isPrivateAddress(ip));
  if (usable.length === 0) {
    return {
      error:
        `The name servers of ${ns.zone} (${ns.hosts.join(', ')}) have only private addresses; ` +
        'Titan asks only name servers on the internet.',
    };
  }
  const port = settings.nameServerPort ?? 53;
  const servers = usable.map((ip) => (isIPv6(ip) ? `[${ip}]:${port}` : `${ip}:${port}`));
  return lookupWith(resolverFor(settings, servers), ns.hosts.join(', '));
}
