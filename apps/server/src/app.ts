// buildApp(deps): plugins, then modules, with the services the composition root built. Tests build it
// without listening and use app.inject.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Services } from './composition';
import { analyticsRoutes } from './modules/analytics';
import { apiKeyRoutes } from './modules/api-keys';
import { authRoutes, mfaRoutes, oidcRoutes, registerAuthGuard } from './modules/auth';
import { auditRoutes, registerAuditHook } from './modules/audit';
import { webhookRoutes } from './modules/webhooks';
import { knowledgeRoutes } from './modules/knowledge';
import { aiRoutes } from './modules/ai';
import { API_KEY_PERMISSIONS } from './platform/roles';
import { businessRoutes } from './modules/business';
import { cannedResponseRoutes } from './modules/canned-responses';
import { chatGroupRoutes } from './modules/chat-groups';
import {
  conversationRoutes,
  csatRoutes,
  findConversationView,
  findCustomerConversations,
  searchRoutes,
} from './modules/conversations';
import { presenceRoutes } from './modules/presence';
import { outboxRoutes } from './modules/dev';
import { broadcastRoutes } from './modules/broadcasts';
import { campaignRoutes } from './modules/campaigns';
import { journeyRoutes } from './modules/journeys';
import { customerImportRoutes } from './modules/customer-imports';
import { customerListRoutes, listSelection } from './modules/customer-lists';
import { directoryRoutes } from './modules/directory';
import { emailDomainRoutes } from './modules/email-domains';
import { fileRoutes } from './modules/files';
import { healthRoutes } from './modules/health';
import { labelRoutes } from './modules/labels';
import { publicChatRoutes } from './modules/public-chat';
import { qrFormRoutes } from './modules/qr-forms';
import { consentRoutes, updateVisitorAndConsent } from './modules/consent';
import { privacyRoutes } from './modules/privacy';
import { teamRoutes } from './modules/team';
import {
  whatsappAccountRoutes,
  whatsappMediaRoutes,
  whatsappSendRoutes,
  whatsappTemplatesRoutes,
  whatsappWebhookRoutes,
} from './modules/whatsapp';
import { sendLogRoutes } from './modules/sends';
import { templateAiRoutes, templateRoutes } from './modules/templates';
import { emailMetricsRoutes, emailTrackingRoutes, trackingFastPath } from './modules/email-tracking';
import { widgetRoutes } from './modules/widget';
import { emailInboxRoutes, emailRoutes } from './modules/email';
import { llmRoutes } from './modules/llm';
import { smsRoutes } from './modules/sms';
import { agentRoutes, agentRunRoutes } from './modules/agents';
import { mcpServerRoutes } from './modules/mcp-servers';
import { pluginRoutes } from './modules/plugins';
import { billingRoutes } from './modules/billing';
import { dashboardRoutes } from './modules/dashboard';
import { attachNotificationFeed, catchUpNotifications, notificationRoutes } from './modules/notifications';
import { defaultWebDistDir } from './paths';
import { nulInUrl } from './platform/bad-input';
import { frameworkErrors, registerErrorHandling, registerJsonParser } from './platform/http';
import { AccessLogController, lazyChildLoggerFactory } from './platform/logger';
import { registerOpenApi } from './platform/openapi';
import { realtimeRoutes } from './platform/realtime/realtime.routes';
import { helmetOptions, registerSecurity } from './platform/security';
import { readIndexHtml, registerWebApp } from './platform/web-app';

export type AppDeps = {
  /** Built once by the composition root (composition.ts), as for the workers. */
  services: Services;
  /** Sees every route as it is registered, before any module (tests: the tenancy route matrix). */
  onRoute?: (route: RouteOptions) => void;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** How long closing waits for open connections before cutting them. */
const SHUTDOWN_GRACE_MS = 3_000;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { services } = deps;
  const { config, database, db, mailer, logger } = services;
  const webDist = config.WEB_DIST_DIR ?? defaultWebDistDir;
  const indexHtml = readIndexHtml(webDist, {
    authSiteUrl: config.AUTH_SITE_URL,
    devOutbox: mailer.usesOutbox,
    cookieDomain: config.COOKIE_DOMAIN,
  });
  // Mail's open pixels and click redirects are answered by the HTTP server before Fastify
  // (email-tracking.routes.ts); every other request goes on to Fastify.
  const tracking = trackingFastPath(services.emailTracking, {
    appHelmet: helmetOptions(config, indexHtml),
    trustProxy: config.TRUST_PROXY,
  });
  const app = Fastify({
    serverFactory: (handler, options) => {
      const server = createServer(options.http ?? {}, (req, res) => {
        if (!tracking(req, res)) handler(req, res);
      });
      // As Fastify sets up a server of its own.
      server.keepAliveTimeout = Number(options.keepAliveTimeout);
      server.requestTimeout = Number(options.requestTimeout);
      server.setTimeout(Number(options.connectionTimeout ?? 0));
      const perSocket = Number(options.maxRequestsPerSocket ?? 0);
      if (perSocket > 0) server.maxRequestsPerSocket = perSocket;
      return server;
    },
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's 10 s per plugin fails a start on a loaded 2-core machine (swagger-ui reads its
    // assets from disk); a minute still names a plugin that never calls `done`.
    pluginTimeout: 60_000,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // In-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    logController: new AccessLogController(logger, { development: config.NODE_ENV === 'development' }),
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

  await registerSecurity(app, config, indexHtml, db);
  await registerOpenApi(app, { apiKeyPermissions: API_KEY_PERMISSIONS });

  const detachAuthCache = services.authCache.attach(services.feed);
  app.addHook('onClose', async () => detachAuthCache());
  // Closing waits for in-flight requests, but not for ever: a connection still open after the grace
  // (a stream whose reader went quiet, a client holding its socket) is cut, so a SIGTERM or a test's
  // teardown never waits out the 72 s keep-alive.
  app.addHook('preClose', (done) => {
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    done();
  });
  registerAuthGuard(app, db, services.tokens, services.authCache);
  registerAuditHook(app, db);

  // Routes take what they need from the services (each plugin's deps type is a part of them).
  await app.register(healthRoutes, { database });
  await app.register(analyticsRoutes, { deps: services });
  await app.register(authRoutes, { deps: services });
  await app.register(oidcRoutes, { deps: services });
  await app.register(mfaRoutes, { deps: services });
  await app.register(auditRoutes, { db });
  await app.register(webhookRoutes, { deps: services.webhooks });
  await app.register(knowledgeRoutes, { deps: services.knowledge });
  await app.register(aiRoutes, { deps: services.ai });
  await app.register(businessRoutes, { db });
  await app.register(teamRoutes, { deps: services });
  await app.register(apiKeyRoutes, { db });
  await app.register(fileRoutes, { deps: services, ports: { findConversation: findConversationView } });
  await app.register(chatGroupRoutes, { db, secrets: services.secrets });
  // The directory's routes reach the modules built on it through ports (they cannot import them).
  await app.register(directoryRoutes, {
    db,
    ports: {
      updateVisitor: updateVisitorAndConsent,
      listSelection,
      customerConversations: findCustomerConversations,
    },
  });
  await app.register(privacyRoutes, { deps: { db, storage: services.storage } });
  await app.register(labelRoutes, { db });
  await app.register(cannedResponseRoutes, { db, storage: services.storage });
  await app.register(customerListRoutes, { db, doubleOptIn: services.consent });
  await app.register(consentRoutes, { deps: services.consent });
  await app.register(customerImportRoutes, { deps: services });
  await app.register(broadcastRoutes, { db });
  await app.register(campaignRoutes, { deps: services.campaigns });
  await app.register(journeyRoutes, { deps: services.journeys });
  await app.register(whatsappAccountRoutes, { deps: services.whatsapp });
  await app.register(whatsappWebhookRoutes, { deps: services.whatsapp });
  await app.register(whatsappSendRoutes, { deps: services.whatsapp });
  await app.register(whatsappMediaRoutes, { deps: services.whatsapp });
  await app.register(whatsappTemplatesRoutes, { deps: services.whatsapp });
  await app.register(sendLogRoutes, { db });
  await app.register(emailDomainRoutes, { deps: services.emailDomains });
  await app.register(templateRoutes, {
    deps: { db, storage: services.storage, publicUrl: config.PUBLIC_URL },
  });
  await app.register(emailTrackingRoutes, { tracking: services.emailTracking });
  await app.register(emailMetricsRoutes, { db });
  await app.register(publicChatRoutes, { deps: services });
  await app.register(conversationRoutes, { deps: services.inbox });
  await app.register(searchRoutes, { db });
  await app.register(csatRoutes, { db });
  await app.register(presenceRoutes, { deps: { db: services.db } });
  await app.register(realtimeRoutes, { deps: services.realtime });
  if (mailer.usesOutbox) await app.register(outboxRoutes, { mailer, config });

  await app.register(widgetRoutes, { db });
  await app.register(emailRoutes, { deps: services.email, broadcasts: services.broadcasts });
  await app.register(emailInboxRoutes, { deps: services.email });
  await app.register(qrFormRoutes, { deps: services });
  await app.register(llmRoutes, { deps: services.llm });
  await app.register(templateAiRoutes, { deps: { llm: services.llm, limiter: services.limiter } });
  await app.register(smsRoutes, { deps: services.sms, broadcasts: services.broadcasts });
  await app.register(agentRoutes, { deps: { db, storage: services.storage } });
  await app.register(mcpServerRoutes, { deps: services.external });
  await app.register(pluginRoutes, { deps: services.external });
  await app.register(agentRunRoutes, { deps: services.agentRuns });
  await app.register(billingRoutes, { deps: services.billing });
  await app.register(dashboardRoutes, { db });
  await app.register(notificationRoutes, { deps: services.notifications });
  // Notifications are derived from the message changes this instance hears (and what it may have
  // missed: at start and when the feed resets).
  const detachNotifications = attachNotificationFeed(
    services.notifications,
    services.feed,
    catchUpNotifications,
  );
  app.addHook('onClose', async () => detachNotifications());
  await registerWebApp(app, webDist, indexHtml);
  return app;
}
