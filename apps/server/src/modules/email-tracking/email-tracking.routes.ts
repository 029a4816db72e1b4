// The public tracking endpoints in mail: GET /t/o/{token}.gif (open pixel) and GET /t/c/{token}
// (click redirect). Hot and unauthenticated: the token is verified in-process, the hit is buffered
// for a batched insert, and the answer never waits for the database. Served twice over, alike: as
// Fastify routes (OpenAPI, app.inject), and by `trackingFastPath` on the HTTP server itself, which
// answers them before Fastify sees the request (no request object, hooks, logging or request id:
// about a third of the cost of a hit) with the same status, headers and body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { securityHeaders } from '../../platform/security';
import type { HelmetOptions } from 'helmet';
import {
  clickOf,
  PIXEL_GIF,
  trackClick,
  trackOpen,
  type EmailTracking,
  type TrackingHit,
} from './email-tracking.service';

export const TRACKING_ERRORS = {
  badLink: 'This link is not valid. It may have been copied incompletely from the email.',
} as const;

const NO_STORE = 'no-store, no-cache, must-revalidate, max-age=0';

function hitOf(request: FastifyRequest, token: string): TrackingHit {
  const agent = request.headers['user-agent'];
  return { token, method: request.method, userAgent: agent, ip: request.ip };
}

// Wildcards, not `:token`: a click token carries its URL and outgrows the router's parameter limit.
type Params = { Params: { '*': string } };

/**
 * A pixel is an image other sites (webmail) embed: its resource policy must allow cross-origin use,
 * or browsers refuse to show it. Neither answer is a page, so the rest stays minimal and strict.
 */
const HELMET = {
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  referrerPolicy: { policy: 'no-referrer' },
} as const;
const config = { public: true, helmet: HELMET } as const;

/** What a hit is answered (the same for both ways in). */
type Answer = { status: number; headers: Record<string, string>; body: Buffer | string };

const OPEN_ANSWER: Answer = {
  status: 200,
  headers: { 'content-type': 'image/gif', 'cache-control': NO_STORE, pragma: 'no-cache', expires: '0' },
  body: PIXEL_GIF,
};
const BAD_LINK_ANSWER: Answer = {
  status: 404,
  headers: { 'cache-control': NO_STORE, 'content-type': 'text/plain; charset=utf-8' },
  body: TRACKING_ERRORS.badLink,
};

function answerOpen(tracking: EmailTracking, hit: TrackingHit): Answer {
  // A token that is not ours still gets the GIF (nothing to learn from the answer), unrecorded.
  trackOpen(tracking, hit);
  return OPEN_ANSWER;
}

function answerClick(
  tracking: EmailTracking,
  hit: TrackingHit,
  click = clickOf(tracking, hit.token),
): Answer {
  const url = trackClick(tracking, hit, click);
  // Only a destination Titan signed is ever redirected to.
  if (url === null) return BAD_LINK_ANSWER;
  return redirectTo(url);
}

const redirectTo = (url: string): Answer => ({
  status: 302,
  headers: { 'cache-control': NO_STORE, 'content-type': 'text/plain; charset=utf-8', location: url },
  body: '',
});

export const emailTrackingRoutes: FastifyPluginAsync<{ tracking: EmailTracking }> = async (
  app,
  { tracking },
) => {
  // Hits still buffered are written before the process ends.
  app.addHook('onClose', async () => tracking.recorder.flush());
  const schema = { tags: ['email'], hide: true };
  const send = (reply: FastifyReply, answer: Answer) =>
    reply.code(answer.status).headers(answer.headers).send(answer.body);

  app.get<Params>(
    '/t/o/*',
    { config, schema: { ...schema, summary: 'Open pixel (1×1 GIF)' } },
    (request: FastifyRequest<Params>, reply: FastifyReply) =>
      send(reply, answerOpen(tracking, hitOf(request, request.params['*']))),
  );

  app.get<Params>(
    '/t/c/*',
    { config, schema: { ...schema, summary: 'Click redirect' } },
    (request: FastifyRequest<Params>, reply: FastifyReply) =>
      send(reply, answerClick(tracking, hitOf(request, request.params['*']))),
  );
};

/**
 * The tracking endpoints on the HTTP server, before Fastify: answers GET and HEAD of `/t/o/…` and
 * `/t/c/…` and says true, or false for anything else — and for what it leaves to the routes: a
 * path with %-escapes, a request with an Origin (CORS), a redirect to a URL that is not plain
 * ASCII. `appHelmet` is the app's helmet options (security.ts); the routes' own are laid over them,
 * as for every route.
 */
export function trackingFastPath(
  tracking: EmailTracking,
  options: { appHelmet: HelmetOptions; trustProxy: boolean },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const security = Object.entries(securityHeaders({ ...options.appHelmet, ...HELMET } as HelmetOptions));
  // Each answer's header lines worked out once (a redirect adds its location): writeHead takes them
  // as a flat list without copying an object per request.
  const flat = (answer: Answer) => {
    const length = Buffer.byteLength(answer.body);
    return [...security, ...Object.entries(answer.headers), ['content-length', String(length)]].flat();
  };
  const open = { head: flat(OPEN_ANSWER), body: OPEN_ANSWER.body };
  const badLink = { head: flat(BAD_LINK_ANSWER), body: Buffer.from(BAD_LINK_ANSWER.body) };
  const { location: _, ...redirectHeaders } = redirectTo('').headers;
  const redirect = [...security, ...Object.entries(redirectHeaders)].flat();
  const write = (
    res: ServerResponse,
    head: boolean,
    status: number,
    lines: string[],
    body: Buffer | string,
  ) => {
    res.writeHead(status, lines);
    res.end(head ? undefined : body);
  };
  return (req, res) => {
    const url = req.url ?? '';
    if (!(url.startsWith('/t/o/') || url.startsWith('/t/c/'))) return false;
    const head = req.method === 'HEAD';
    if (!(head || req.method === 'GET') || req.headers.origin !== undefined) return false;
    const q = url.indexOf('?');
    let token = q === -1 ? url.slice(5) : url.slice(5, q);
    if (token.includes('%')) return false;
    // ignoreTrailingSlash, as the router.
    if (token.endsWith('/')) token = token.slice(0, -1);
    const hit: TrackingHit = {
      token,
      method: req.method!,
      userAgent: req.headers['user-agent'],
      ip: clientIp(req, options.trustProxy),
    };
    if (url[3] === 'o') {
      trackOpen(tracking, hit);
      write(res, head, 200, open.head, open.body);
      return true;
    }
    const click = clickOf(tracking, token);
    if (click === null) {
      write(res, head, 404, badLink.head, badLink.body);
      return true;
    }
    if (!/^[\x21-\x7e]*$/.test(click.url)) return false;
    trackClick(tracking, hit, click);
    write(res, head, 302, [...redirect, 'location', click.url, 'content-length', '0'], '');
    return true;
  };
}

/** The client's address as Fastify's `request.ip` gives it (TRUST_PROXY: the first X-Forwarded-For). */
function clientIp(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress;
}
