// Calls to URLs a business chose (MCP servers, their authorization servers, plugin endpoints, a
// business's own AI model): the SSRF rules of engage.md §6, in one place. Guarded — in production,
// and wherever Titan listens beyond loopback (HOST) — only https, and only public addresses: checked
// on the URL when it is saved and before each request, and again at connect time on the address the
// socket actually goes to (a name may resolve elsewhere a second later: DNS rebinding). Unguarded (a
// developer's machine) http:// is allowed for localhost, where the simulators run. Never Titan
// itself. Redirects are not followed.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import {
  Agent,
  buildConnector,
  fetch as undiciFetch,
  getGlobalDispatcher,
  request as undiciRequest,
} from 'undici';
import { MCP_ERRORS } from '@titan/contracts';
import { isLoopbackHost, type Config } from '../config';
import { isPublicAddress, parseIpAddress } from './network-address';

export type OutboundDeps = {
  /** The SSRF rules in full: https only, public addresses only (see `outboundGuarded`). */
  guarded: boolean;
  /** Titan's own address, never called. */
  publicUrl: string;
  /** Resolves a host name to its addresses, at check and at connect time (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
};

/**
 * Whether outside calls are guarded: in production, and outside it whenever other machines can
 * reach Titan (HOST not loopback) — then whoever sets a URL is not necessarily the machine's owner.
 */
export function outboundGuarded(config: Pick<Config, 'NODE_ENV' | 'HOST'>): boolean {
  return config.NODE_ENV === 'production' || !isLoopbackHost(config.HOST);
}

/** A call refused before it left: the reason is for people. */
export class OutboundRefused extends Error {}

/** The connect-time refusal (an error code, so the words survive the layers of fetch). */
const privateAddressError = () => Object.assign(new Error(MCP_ERRORS.privateAddress), { code: 'EPRIVATE' });

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

async function addressesOf(deps: Pick<OutboundDeps, 'resolveHost'>, host: string): Promise<string[]> {
  if (deps.resolveHost) return deps.resolveHost(host);
  return (await dnsLookup(host, { all: true })).map((a) => a.address);
}

/**
 * Whether a host (a name or an address literal) leads only to public addresses: null when it does,
 * else which refusal applies. An empty answer counts as private: nothing public was found.
 */
export async function hostAddressProblem(
  deps: Pick<OutboundDeps, 'resolveHost'>,
  host: string,
): Promise<'privateAddress' | 'hostNotFound' | null> {
  const literal = parseIpAddress(host);
  if (literal) return isPublicAddress(literal.address) ? null : 'privateAddress';
  let addresses: string[];
  try {
    addresses = await addressesOf(deps, host);
  } catch {
    return 'hostNotFound';
  }
  return addresses.length > 0 && addresses.every(isPublicAddress) ? null : 'privateAddress';
}

/** Why Titan will not call `raw`, or null when it may. */
export async function outboundUrlProblem(deps: OutboundDeps, raw: string): Promise<string | null> {
  if (!URL.canParse(raw)) return MCP_ERRORS.urlInvalid;
  const url = new URL(raw);
  if (url.username || url.password) return MCP_ERRORS.urlInvalid;
  const host = hostOf(url);
  const httpAllowed = !deps.guarded && isLoopbackName(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed))
    return MCP_ERRORS.httpsRequired;
  if (isTitan(url, deps.publicUrl)) return MCP_ERRORS.titanItself;
  if (!deps.guarded) return null;
  const problem = await hostAddressProblem(deps, host);
  return problem ? MCP_ERRORS[problem] : null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Resolution at connect time: a name that now resolves to any private address is refused. */
function guardedLookup(resolveHost: OutboundDeps['resolveHost']) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    const found: Promise<LookupAddress[]> = resolveHost
      ? resolveHost(hostname).then((list) =>
          list.map((a) => {
            const ip = parseIpAddress(a);
            return { address: ip?.address ?? a, family: ip?.family ?? 0 };
          }),
        )
      : dnsLookup(hostname, { all: true, family: options.family ?? 0 });
    found.then(
      (addresses) => {
        if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address)))
          return callback(privateAddressError(), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

/**
 * The dispatcher of guarded calls. Its connector sees the host the socket is opened to: an address
 * literal is checked there (sockets skip the lookup for those), and a name through the lookup.
 */
function guardedAgent(resolveHost: OutboundDeps['resolveHost']): Agent {
  const connect = buildConnector({ lookup: guardedLookup(resolveHost) as never });
  return new Agent({
    connect: (options, callback) => {
      const literal = parseIpAddress(options.hostname);
      if (literal && !isPublicAddress(literal.address)) return callback(privateAddressError(), null);
      connect(options, callback);
    },
  });
}

/** One dispatcher per resolver (so keep-alive connections are shared), and one for the system's. */
const agents = new WeakMap<object, Agent>();
let systemAgent: Agent | null = null;

function agentFor(resolveHost: OutboundDeps['resolveHost']): Agent {
  if (!resolveHost) return (systemAgent ??= guardedAgent(undefined));
  let agent = agents.get(resolveHost);
  if (!agent) agents.set(resolveHost, (agent = guardedAgent(resolveHost)));
  return agent;
}

/**
 * `fetch` whose connections, when guarded, go only to public addresses: what the LLM client uses
 * for a business's model (its base URL is checked by its own rules). Refusals fail the request
 * with the `EPRIVATE` cause (`outboundErrorWords`, `isAddressRefusal`). Redirects are not followed.
 */
export function guardedFetch(deps: Pick<OutboundDeps, 'guarded' | 'resolveHost'>): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const res = await undiciFetch(url, {
      ...(init as object),
      redirect: 'manual',
      ...(deps.guarded ? { dispatcher: agentFor(deps.resolveHost) } : {}),
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

/** `fetch` for URLs a business chose, refusing what the SSRF rules refuse (`OutboundRefused`). */
export function safeFetch(deps: OutboundDeps): typeof fetch {
  const send = guardedFetch(deps);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const problem = await outboundUrlProblem(deps, url);
    if (problem) throw new OutboundRefused(problem);
    return send(url, init);
  }) as typeof fetch;
}

/** What a `safePost` got back: the status and the body as text (at most `maxBodyBytes`). */
export type SafePostAnswer = { status: number; text: string };

/**
 * The answer's body as text, at most `max` bytes: the rest is read and dropped. Events rather than
 * an async iterator, and no copy for the usual one-chunk answer (a bulk poster reads many).
 */
function readCapped(body: NodeJS.ReadableStream, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let first: Buffer | null = null;
    let more: Buffer[] | null = null;
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (size < max) {
        if (!first) first = chunk;
        else (more ??= [first]).push(chunk);
      }
      size += chunk.length;
    });
    body.once('error', reject);
    body.once('end', () => {
      if (!first) return resolve('');
      const all: Buffer = more ? Buffer.concat(more) : first;
      resolve(all.toString('utf8', 0, Math.min(all.length, max)));
    });
  });
}

/** Unguarded (a developer's machine), a URL's verdict depends on it alone: kept for the bulk posters. */
const UNGUARDED_VERDICTS_MAX = 1_000;

/**
 * A POST to a URL a business chose, under the same rules as `safeFetch` (the URL checked before,
 * the address at connect time), through undici's `request` rather than `fetch`: no WHATWG streams
 * or Request/Response objects, a fraction of the garbage per call — for bulk posters such as the
 * webhook deliveries. The answer's body is read up to `maxBodyBytes` and the rest dropped.
 */
export function safePost(
  deps: OutboundDeps,
): (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number; maxBodyBytes: number },
) => Promise<SafePostAnswer> {
  // Guarded, every request checks the URL's addresses afresh (DNS answers change).
  const verdicts = deps.guarded ? null : new Map<string, string | null>();
  const problemOf = async (url: string) => {
    if (!verdicts) return outboundUrlProblem(deps, url);
    let problem = verdicts.get(url);
    if (problem === undefined) {
      problem = await outboundUrlProblem(deps, url);
      if (verdicts.size >= UNGUARDED_VERDICTS_MAX) verdicts.clear();
      verdicts.set(url, problem);
    }
    return problem;
  };
  return async (url, init) => {
    const problem = await problemOf(url);
    if (problem) throw new OutboundRefused(problem);
    const res = await undiciRequest(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
      dispatcher: deps.guarded ? agentFor(deps.resolveHost) : getGlobalDispatcher(),
    });
    return { status: res.statusCode, text: await readCapped(res.body, init.maxBodyBytes) };
  };
}

/** The code of what failed underneath a fetch error (undici nests it). */
function causeCodeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown };
  const nested = e.cause as
    { code?: string; errors?: { code?: string }[]; cause?: { code?: string } } | undefined;
  return (
    nested?.code ??
    nested?.errors?.[0]?.code ??
    nested?.cause?.code ??
    (typeof e.code === 'string' ? e.code : undefined)
  );
}

/** Whether a call failed because the address it would connect to is not public. */
export const isAddressRefusal = (err: unknown): boolean =>
  err instanceof OutboundRefused || causeCodeOf(err) === 'EPRIVATE';

/** A failed outside call in words, for `last_error` and tool results. */
export function outboundErrorWords(err: unknown, timeoutSeconds = 30): string {
  if (err instanceof OutboundRefused) return err.message;
  const e = err as { name?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `The server did not answer within ${timeoutSeconds} seconds.`;
  const cause = causeCodeOf(err);
  if (cause === 'EPRIVATE') return MCP_ERRORS.privateAddress;
  if (cause === 'ECONNREFUSED') return 'The server could not be reached (connection refused).';
  if (cause === 'ENOTFOUND' || cause === 'EAI_AGAIN') return MCP_ERRORS.hostNotFound;
  if (cause === 'ECONNRESET') return 'The server closed the connection.';
  if (cause && /^(CERT_|UNABLE_TO_VERIFY|DEPTH_ZERO|SELF_SIGNED|ERR_TLS)/.test(cause))
    return `The server's TLS certificate was refused (${cause}).`;
  const message = (e.message ?? String(err)).replace(/\s+/g, ' ').trim();
  return message.length > 300 ? `${message.slice(0, 297)}…` : message || 'The call failed.';
}
