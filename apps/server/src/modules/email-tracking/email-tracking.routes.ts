// The public tracking endpoints in mail: GET /t/o/{token}.gif (open pixel) and GET /t/c/{token}
// (click redirect). Hot and unauthenticated: the token is verified in-process, the hit is buffered
// for a batched insert, and the answer never waits for the database.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  PIXEL_GIF,
  trackClick,
  trackOpen,
  type EmailTracking,
  type TrackingHit,
} from './email-tracking.service';

export const TRACKING_MESSAGES = {
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

export const emailTrackingRoutes: FastifyPluginAsync<{ tracking: EmailTracking }> = async (
  app,
  { tracking },
) => {
  // Hits still buffered are written before the process ends.
  app.addHook('onClose', async () => tracking.recorder.flush());
  const schema = { tags: ['email'], hide: true };

  app.get<Params>(
    '/t/o/*',
    { config, schema: { ...schema, summary: 'Open pixel (1×1 GIF)' } },
    (request: FastifyRequest<Params>, reply: FastifyReply) => {
      // A token that is not ours still gets the GIF (nothing to learn from the answer), unrecorded.
      trackOpen(tracking, hitOf(request, request.params['*']));
      return reply
        .header('content-type', 'image/gif')
        .header('cache-control', NO_STORE)
        .header('pragma', 'no-cache')
        .header('expires', '0')
        .send(PIXEL_GIF);
    },
  );

  app.get<Params>(
    '/t/c/*',
    { config, schema: { ...schema, summary: 'Click redirect' } },
    (request: FastifyRequest<Params>, reply: FastifyReply) => {
      const url = trackClick(tracking, hitOf(request, request.params['*']));
      reply.header('cache-control', NO_STORE);
      // Only a destination Titan signed is ever redirected to.
      if (url === null)
        return reply
          .code(404)
          .header('content-type', 'text/plain; charset=utf-8')
          .send(TRACKING_MESSAGES.badLink);
      return reply.redirect(url, 302);
    },
  );
};
