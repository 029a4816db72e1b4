// Calls to URLs a business chose (MCP servers, their authorization servers, plugin endpoints): the
// SSRF rules of engage.md §6. https only in production — http:// only for localhost outside it —
// never Titan itself, and in production never a private, loopback or link-local address: checked on
// the URL before each request, and again on the addresses the connection actually resolves to (a
// name may resolve elsewhere a second later). Redirects are not followed.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { MCP_MESSAGES } from '@titan/contracts';
import { isLoopbackHost } from '../config';
import { isPrivateAddress } from '../modules/email-domains/email-domains.dns';

export type OutboundDeps = {
  /** In production: https only, never private addresses. */
  production: boolean;
  /** Titan's own address, never called. */
  publicUrl: string;
  /** Resolves a host name to its addresses (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
};

/** A call refused before it left: the reason is for people. */
export class OutboundRefused extends Error {}

const isLoopbackName = (host: string) => isLoopbackHost(host) || host.endsWith('.localhost');
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

function isTitan(url: URL, publicUrl: string): boolean {
  const titan = new URL(publicUrl);
  if (portOf(url) !== portOf(titan)) return false;
  const a = hostOf(url);
  const b = hostOf(titan);
  return a === b || (isLoopbackName(a) && isLoopbackName(b));
}

/** Why Titan will not call `raw`, or null when it may. */
export async function outboundUrlProblem(deps: OutboundDeps, raw: string): Promise<string | null> {
  if (!URL.canParse(raw)) return MCP_MESSAGES.urlInvalid;
  const url = new URL(raw);
  if (url.username || url.password) return MCP_MESSAGES.urlInvalid;
  const host = hostOf(url);
  const httpAllowed = !deps.production && isLoopbackName(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed))
    return MCP_MESSAGES.httpsRequired;
  if (isTitan(url, deps.publicUrl)) return MCP_MESSAGES.titanItself;
  if (!deps.production) return null;
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = deps.resolveHost
        ? await deps.resolveHost(host)
        : (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return MCP_MESSAGES.hostNotFound;
    }
  }
  return addresses.length === 0 || addresses.some(isPrivateAddress) ? MCP_MESSAGES.privateAddress : null;
}

/** Resolution at connect time: a name that now resolves to a private address is refused there too. */
const guardedLookup = (
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => {
  dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(Object.assign(new Error(MCP_MESSAGES.privateAddress), { code: 'EPRIVATE' }), []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

let guardedAgent: Agent | null = null;

/** `fetch` for URLs a business chose, refusing what the SSRF rules refuse (`OutboundRefused`). */
export function safeFetch(deps: OutboundDeps): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const problem = await outboundUrlProblem(deps, url);
    if (problem) throw new OutboundRefused(problem);
    if (deps.production) guardedAgent ??= new Agent({ connect: { lookup: guardedLookup as never } });
    const res = await undiciFetch(url, {
      ...(init as object),
      redirect: 'manual',
      ...(deps.production ? { dispatcher: guardedAgent! } : {}),
    } as Parameters<typeof undiciFetch>[1]);
    // Callers (the MCP SDK among them) check `instanceof Response`: answer the global class.
    const empty = res.status === 204 || res.status === 205 || res.status === 304 || init?.method === 'HEAD';
    return new Response(empty ? null : (res.body as ReadableStream<Uint8Array> | null), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers as unknown as Headers,
    });
  }) as typeof fetch;
}

/** A failed outside call in words, for `last_error` and tool results. */
export function outboundErrorWords(err: unknown, timeoutSeconds = 30): string {
  if (err instanceof OutboundRefused) return err.message;
  const e = err as {
    name?: string;
    message?: string;
    code?: unknown;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `The server did not answer within ${timeoutSeconds} seconds.`;
  const nested = e.cause as
    { code?: string; errors?: { code?: string }[]; cause?: { code?: string } } | undefined;
  const cause =
    nested?.code ??
    nested?.errors?.[0]?.code ??
    nested?.cause?.code ??
    (typeof e.code === 'string' ? e.code : undefined);
  if (cause === 'EPRIVATE') return MCP_MESSAGES.privateAddress;
  if (cause === 'ECONNREFUSED') return 'The server could not be reached (connection refused).';
  if (cause === 'ENOTFOUND' || cause === 'EAI_AGAIN') return MCP_MESSAGES.hostNotFound;
  if (cause === 'ECONNRESET') return 'The server closed the connection.';
  if (cause && /^(CERT_|UNABLE_TO_VERIFY|DEPTH_ZERO|SELF_SIGNED|ERR_TLS)/.test(cause))
    return `The server's TLS certificate was refused (${cause}).`;
  const message = (e.message ?? String(err)).replace(/\s+/g, ' ').trim();
  return message.length > 300 ? `${message.slice(0, 297)}…` : message || 'The call failed.';
}
