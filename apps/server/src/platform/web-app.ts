// Serves the built web app: hashed assets cached for a year, index.html for every app route.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from './http';
import { markRoutesPublic } from './public-scope';

/** The built index.html, with the server's settings the web app reads at runtime. */
export function readIndexHtml(distDir: string, settings: { authSiteUrl: string }): string | null {
  const file = join(distDir, 'index.html');
  if (!existsSync(file)) return null;
  const meta = `<meta name="titan-auth-site-url" content="${escapeAttribute(settings.authSiteUrl)}" />`;
  return readFileSync(file, 'utf8').replace('</head>', `    ${meta}\n  </head>`);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Paths the SPA never owns: they answer the JSON 404 instead of index.html. */
const API_PREFIXES = ['/api/', '/files/', '/assets/'];

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

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p) &&
      (request.headers.accept ?? '').includes('text/html');
    if (!indexHtml || !wantsPage) return notFound(request, reply);
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
}
