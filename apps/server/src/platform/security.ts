// Security headers, CORS closed unless origins are listed, and a rate limiter routes opt into.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { sharedRateLimitStore } from './rate-limiter';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's changes to the security headers (helmet's options, over the app's). */
    helmet?: HelmetOptions;
  }
}

/**
 * The headers helmet sets for `options`, worked out once. Helmet's middleware only sets and
 * removes response headers, and its options are fixed per route, so every request of a route
 * gets the same set (@fastify/helmet rebuilds the middleware, CSP parsing included, per request).
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** CSP hashes for the inline scripts of the built index.html (the theme bootstrap). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

/** The app's helmet options (a route's own `config.helmet` is laid over them). */
export function helmetOptions(config: Pick<Config, 'PUBLIC_URL'>, indexHtml: string | null): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...(indexHtml ? inlineScriptHashes(indexHtml) : [])],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'media-src': ["'self'", 'blob:', 'https:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
      },
    },
    // The API is same-origin by default; the widget's pages set their own embedding rules later.
    crossOriginEmbedderPolicy: false,
    hsts: config.PUBLIC_URL.startsWith('https://'),
  };
}

export async function registerSecurity(
  app: FastifyInstance,
  config: Pick<Config, 'CORS_ORIGINS' | 'PUBLIC_URL'>,
  indexHtml: string | null,
  db: Db,
): Promise<void> {
  const options = helmetOptions(config, indexHtml);
  const appHeaders = securityHeaders(options);
  // The API answers JSON and files, never pages: OWASP's table for all REST responses, with
  // nothing allowed to run or frame them. The browser-page headers above (Referrer-Policy, CORP,
  // COOP…) only act on documents and their subresources; every header costs each answer a few µs
  // to write and to read, on the inbox's hottest calls.
  const apiHeaders: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Customer data: no cache keeps a copy (downloads that may be cached say so themselves).
    'cache-control': 'no-store',
    ...(appHeaders['strict-transport-security']
      ? { 'strict-transport-security': appHeaders['strict-transport-security'] }
      : {}),
  };
  const routeHeaders = new Map<HelmetOptions, Record<string, string>>();
  app.addHook('onRoute', (route) => {
    const own = route.config?.helmet;
    if (own && !routeHeaders.has(own))
      routeHeaders.set(own, securityHeaders({ ...options, ...own } as HelmetOptions));
  });
  // onRequest, so errors and not-found answers carry them too.
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.helmet;
    reply.headers(
      (own && routeHeaders.get(own)) ?? (request.url.startsWith('/api/') ? apiHeaders : appHeaders),
    );
    done();
  });
  // Same-origin only unless origins are listed: then no CORS hook runs on every request at all.
  if (config.CORS_ORIGINS.length > 0) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      credentials: true,
      exposedHeaders: ['x-request-id', 'retry-after'],
    });
  }
  await app.register(rateLimit, {
    global: false,
    store: sharedRateLimitStore(db),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });
}
