// The embeddable chat widget: the loader script any site may load (/widget.js), the chat frame
// that only the business's allowed origins may embed, its hashed assets, and the hosted group
// chat page. Registered before the web app, so these routes win over its history fallback.
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import { markRoutesPublic } from '../../platform/public-scope';
import { etagMatches, readWidgetBuild } from './widget.assets';
import { widgetDistDir } from './widget.paths';
import { findEmbedOrigins, frameAncestors, framePagePolicy } from './widget.service';

/** The loader's URL never changes, so caches keep it briefly and revalidate with its ETag. */
const LOADER_CACHE = 'public, max-age=300';
const ASSET_CACHE = 'public, max-age=31536000, immutable';

export const WIDGET_PAGES = {
  notFound: 'This chat is not available.',
  notBuilt: 'The chat is not built on this server yet.',
} as const;

const schema = { hide: true } as const;
// Any site embeds the loader, so it must load cross-origin.
const loaderConfig = {
  public: true,
  helmet: { crossOriginResourcePolicy: { policy: 'cross-origin' } },
} as const;
// Chat pages set their own CSP per chat; X-Frame-Options would contradict its frame-ancestors.
const pageConfig = { public: true, helmet: { contentSecurityPolicy: false, frameguard: false } } as const;

function smallPage(reply: FastifyReply, status: number, text: string, ancestors: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', framePagePolicy(ancestors))
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chat</title>' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
        `<body style="font:14px system-ui,sans-serif;padding:24px;color:#374151"><p>${text}</p></body></html>`,
    );
}

export const widgetRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  const build = readWidgetBuild(widgetDistDir);
  if (!build.loader || !build.frameHtml) {
    app.log.warn({ distDir: widgetDistDir }, 'widget is not built; run `npm run build` to serve it');
  }

  app.get('/widget.js', { config: loaderConfig, schema }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    if (!build.loader) {
      return reply
        .code(404)
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(`/* ${WIDGET_PAGES.notBuilt} */\n`);
    }
    reply.header('cache-control', LOADER_CACHE).header('etag', build.loader.etag);
    if (etagMatches(request.headers['if-none-match'], build.loader.etag)) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(build.loader.body);
  });

  /** The chat app's page, embeddable by `ancestors`; a small 404 page for unknown chats. */
  async function chatPage(
    reply: FastifyReply,
    businessCode: string,
    groupSlug: string | null,
    embeddable: boolean,
  ) {
    const allowed = await findEmbedOrigins(db, businessCode, groupSlug);
    if (!allowed) return smallPage(reply, 404, WIDGET_PAGES.notFound, '*');
    const ancestors = embeddable ? frameAncestors(allowed) : "'self'";
    if (!build.frameHtml) return smallPage(reply, 503, WIDGET_PAGES.notBuilt, ancestors);
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', framePagePolicy(ancestors))
      .send(build.frameHtml);
  }

  app.get<{ Params: { business_code: string } }>(
    '/widget/frame/:business_code',
    { config: pageConfig, schema },
    async (request, reply) => chatPage(reply, request.params.business_code, null, true),
  );
  app.get<{ Params: { business_code: string; group_slug: string } }>(
    '/widget/frame/:business_code/:group_slug',
    { config: pageConfig, schema },
    async (request, reply) => chatPage(reply, request.params.business_code, request.params.group_slug, true),
  );
  app.get<{ Params: { business_code: string; group_slug: string } }>(
    '/messages/chat/:business_code/g/:group_slug',
    { config: pageConfig, schema },
    async (request, reply) => chatPage(reply, request.params.business_code, request.params.group_slug, false),
  );

  if (build.assetsDir) {
    const root = build.assetsDir;
    await app.register(async (scope) => {
      markRoutesPublic(scope);
      await scope.register(fastifyStatic, {
        root,
        prefix: '/widget/assets/',
        wildcard: false,
        index: false,
        decorateReply: false,
        cacheControl: false,
        setHeaders: (res) => res.setHeader('cache-control', ASSET_CACHE),
      });
    });
  }
};
