// buildApp(deps): plugins, then modules. Tests build it without listening and use app.inject.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { apiKeyRoutes } from './modules/api-keys/api-keys.routes';
import { authCacheFor } from './modules/auth/auth-cache';
import { registerAuthGuard } from './modules/auth/auth.guard';
import { authRoutes } from './modules/auth/auth.routes';
import { createOidcClient } from './modules/auth/oidc.client';
import { oidcRoutes } from './modules/auth/oidc.routes';
import { AccessTokens } from './modules/auth/tokens';
import { businessRoutes } from './modules/business/business.routes';
import { conversationRoutes } from './modules/conversations/conversations.routes';
import { outboxRoutes } from './modules/dev/outbox.routes';
import { directoryRoutes } from './modules/directory/directory.routes';
import { fileRoutes } from './modules/files/files.routes';
import { chatGroupRoutes } from './modules/chat-groups/chat-groups.routes';
import { publicChatRoutes } from './modules/public-chat/public-chat.routes';
import { VisitorTokens } from './modules/public-chat/visitor-tokens';
import { conversationTopics } from './modules/conversations/conversations.topics';
import { realtimeCallers } from './modules/auth/realtime-callers';
import { healthRoutes } from './modules/health/health.routes';
import { teamRoutes } from './modules/team/team.routes';
import { createWhatsappDeps } from './modules/whatsapp/whatsapp.queues';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes';
import { requestMarkRead } from './modules/whatsapp/whatsapp.send';
import { whatsappSendRoutes } from './modules/whatsapp/whatsapp.send.routes';
import { whatsappTemplatesRoutes } from './modules/whatsapp/whatsapp.templates.routes';
import { widgetRoutes } from './modules/widget/widget.routes';
import { defaultWebDistDir } from './paths';
import type { ChangeFeed } from './platform/change-feed';
import { nulInUrl } from './platform/bad-input';
import { frameworkErrors, registerErrorHandling, registerJsonParser } from './platform/http';
import type { Jobs } from './platform/jobs';
import type { Mailer } from './platform/mailer';
import { registerOpenApi } from './platform/openapi';
import { RateLimiter } from './platform/rate-limiter';
import { AccessLogController, lazyChildLoggerFactory } from './platform/logger';
import { registerSecurity } from './platform/security';
import { createStorage } from './platform/storage';
import { createSecretBox } from './platform/crypto';
import { readIndexHtml, registerWebApp } from './platform/web-app';
import { realtimeRoutes } from './platform/realtime/realtime.routes';

export type AppDeps = {
  config: Config;
  database: Database;
  feed: ChangeFeed;
  jobs: Jobs;
  mailer: Mailer;
  logger: Logger;
  /** Sees every route as it is registered, before any module (tests: the tenancy route matrix). */
  onRoute?: (route: RouteOptions) => void;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // In-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    logController: new AccessLogController(deps.logger),
    childLoggerFactory: lazyChildLoggerFactory,
    frameworkErrors,
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A NUL in a path or query parameter is refused here, before any route reads it (bodies: in
    // their parsers); one hook for both, as every hook costs each request a call.
    done(nulInUrl(request) ?? undefined);
  });
  registerErrorHandling(app);
  registerJsonParser(app);

  const webDist = config.WEB_DIST_DIR ?? defaultWebDistDir;
  const indexHtml = readIndexHtml(webDist, {
    authSiteUrl: config.AUTH_SITE_URL,
    devOutbox: deps.mailer.usesOutbox,
    cookieDomain: config.COOKIE_DOMAIN,
  });
  await registerSecurity(app, config, indexHtml, database.db);
  await registerOpenApi(app);

  const db = database.db;
  const tokens = new AccessTokens(config.APP_SECRET);
  const limiter = new RateLimiter(db);
  const authCache = authCacheFor(db);
  const detachAuthCache = authCache.attach(deps.feed);
  app.addHook('onClose', async () => detachAuthCache());
  registerAuthGuard(app, db, tokens, authCache);

  await app.register(healthRoutes, { database });
  await app.register(analyticsRoutes, { deps: { db, limiter, config } });
  await app.register(authRoutes, { deps: { db, mailer: deps.mailer, limiter, tokens, config } });
  await app.register(oidcRoutes, {
    deps: {
      db,
      mailer: deps.mailer,
      limiter,
      tokens,
      config,
      oidc: createOidcClient(config),
      logger: deps.logger,
    },
  });
  await app.register(businessRoutes, { db });
  await app.register(teamRoutes, { deps: { db, mailer: deps.mailer, config } });
  await app.register(apiKeyRoutes, { db });
  const storage = createStorage(config);
  const visitorTokens = new VisitorTokens(config.APP_SECRET);
  await app.register(fileRoutes, { deps: { db, storage } });
  const secrets = createSecretBox(config.APP_SECRET);
  await app.register(chatGroupRoutes, { db, secrets });
  await app.register(directoryRoutes, { db });
  const whatsappDeps = createWhatsappDeps(config, db, deps.jobs);
  await app.register(whatsappRoutes, { deps: whatsappDeps });
  await app.register(whatsappSendRoutes, { deps: whatsappDeps });
  await app.register(whatsappTemplatesRoutes, { deps: whatsappDeps });
  await app.register(publicChatRoutes, { deps: { db, storage, limiter, visitorTokens, secrets, config } });
  await app.register(conversationRoutes, {
    deps: { db, storage, onConversationRead: (c) => requestMarkRead(whatsappDeps, c) },
  });
  await app.register(realtimeRoutes, {
    deps: {
      db,
      feed: deps.feed,
      callers: realtimeCallers({ db, authCache, tokens, visitorTokens }),
      topics: conversationTopics({ db, storage, authCache }),
      logger: deps.logger,
    },
  });
  if (deps.mailer.usesOutbox) await app.register(outboxRoutes, { mailer: deps.mailer, config });

  await app.register(widgetRoutes, { db });
  await registerWebApp(app, webDist, indexHtml);
  return app;
}
