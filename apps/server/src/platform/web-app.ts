// Serves the built web app: hashed assets cached for a year, index.html for every app route.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from './http';
import { markRoutesPublic } from './public-scope';
import { escapeHtml } from './html';

/** The server's settings the web app reads at runtime, one meta tag each (unset: no tag). */
export type WebAppSettings = { authSiteUrl: string; cookieDomain?: string; devOutbox?: boolean };

/** The built index.html, with the server's settings the web app reads at runtime. */
export function readIndexHtml(distDir: string, settings: WebAppSettings): string | null {
  const file = join(distDir, 'index.html');
  if (!existsSync(file)) return null;
  const tag = (name: string, value: string) => `<meta name="${name}" content="${escapeHtml(value)}" />`;
  const metas = [tag('titan-auth-site-url', settings.authSiteUrl)];
  if (settings.cookieDomain) metas.push(tag('titan-cookie-domain', settings.cookieDomain));
  // The sign-up screen links to the outbox page only when mail really goes there.
  if (settings.devOutbox) metas.push(tag('titan-dev-outbox', 'on'));
  return readFileSync(file, 'utf8').replace('</head>', `${metas.map((m) => `    ${m}\n`).join('')}  </head>`);
}

/**
 * The Titan mark (as index.html's icon), for the pages that name no icon of their own — the
 * hosted chat, the widget's frames —: browsers then ask for /favicon.ico.
 */
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#171717"/>' +
  '<path d="M9 10h14v3.2h-5.4V23h-3.2v-9.8H9z" fill="#fafafa"/></svg>';

/** Paths the SPA never owns (the API, files, its own and the widget's assets): a JSON 404. */
const API_PREFIXES = ['/api/', '/files/', '/assets/', '/widget/'];

export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  indexHtml: string | null,
): Promise<void> {
  if (indexHtml) {
    await app.register(async (scope) => {
      markRoutesPublic(scope);
      await scope.register(fastifyStatic, {
        root: distDir,
        wildcard: false,
        index: false,
        cacheControl: false,
        setHeaders(res, path) {
          res.setHeader(
            'cache-control',
            path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
  } else {
    app.log.warn({ distDir }, 'web app is not built; run `npm run build` to serve it');
  }

  // A favicon.ico in the build is served as a file above.
  if (!indexHtml || !existsSync(join(distDir, 'favicon.ico'))) {
    app.get('/favicon.ico', { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG),
    );
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    // Any GET outside the API, files and assets is an app route, whatever it accepts (`curl /`).
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p);
    if (!indexHtml || !wantsPage) return notFound(request, reply);
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
}
