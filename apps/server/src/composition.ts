// The composition root: every service, adapter and job of Titan is built here, once, for API
// instances and workers alike — buildApp hands routes what they need from `Services`, and
// `defineJobs` defines every queue and schedule the same way in both (an API instance sends jobs,
// a worker runs them), so no job or service is built differently in the two.
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import {
  AccessTokens,
  type AuthCache,
  authCacheFor,
  createOidcClient,
  type OidcClient,
} from './modules/auth';
import { type BroadcastDeps, defineBroadcastQueues } from './modules/broadcasts';
import { realtimeCallers } from './realtime-callers';
import { createEmailDeps, defineEmailQueues, emailBroadcastChannel, type EmailDeps } from './modules/email';
import { defineImportQueue, importTopics } from './modules/customer-imports';
import {
  EMAIL_DOMAINS_RECHECK_CRON,
  EMAIL_DOMAINS_RECHECK_QUEUE,
  type EmailDomainDeps,
  recheckVerifiedDomains,
} from './modules/email-domains';
import { conversationTopics, type InboxDeps } from './modules/conversations';
import {
  PUBLIC_RETENTION_CRON,
  PUBLIC_RETENTION_QUEUE,
  runPublicRetention,
  VisitorTokens,
} from './modules/public-chat';
import {
  createWhatsappDeps,
  defineWhatsappQueues,
  requestMarkRead,
  type WhatsappDeps,
} from './modules/whatsapp';
import { defineSmsQueues, smsBroadcastChannel, type SmsDeps } from './modules/sms';
import type { ChangeFeed } from './platform/change-feed';
import { createSecretBox, type SecretBox } from './platform/crypto';
import { createEmailTracking, type EmailTracking } from './modules/email-tracking';
import type { Jobs } from './platform/jobs';
import type { Mailer } from './platform/mailer';
import { RateLimiter, pruneRateLimits } from './platform/rate-limiter';
import { purgeAuditLog } from './modules/audit';
import { pruneChallenges } from './modules/auth';
import { pruneChangeLog } from './platform/realtime/change-log.repository';
import type { RealtimeDeps } from './platform/realtime/realtime.hub';
import { outboundGuarded } from './platform/safe-fetch';
import { createStorage, type Storage } from './platform/storage';
import type { LlmDeps } from './modules/llm';
import {
  type AgentRunDeps,
  createAgentRunDeps,
  defineAgentRunJobs,
  defineAgentScheduleTick,
  type ExternalToolDeps,
} from './modules/agents';
import { loadPluginManifests } from './modules/plugins';
import type { BillingDeps } from './modules/billing';

export type Infrastructure = {
  config: Config;
  database: Database;
  feed: ChangeFeed;
  jobs: Jobs;
  mailer: Mailer;
  logger: Logger;
};

export type Services = Infrastructure & {
  db: Db;
  storage: Storage;
  secrets: SecretBox;
  tokens: AccessTokens;
  visitorTokens: VisitorTokens;
  limiter: RateLimiter;
  authCache: AuthCache;
  oidc: OidcClient | null;
  whatsapp: WhatsappDeps;
  inbox: InboxDeps;
  realtime: RealtimeDeps;
  /** Broadcasts to a list; each channel adds itself to `channels`. */
  broadcasts: BroadcastDeps;
  emailDomains: EmailDomainDeps;
  emailTracking: EmailTracking;
  email: EmailDeps;
  /** The LLM a business's AI features use (engage.md §6). */
  llm: LlmDeps;
  sms: SmsDeps;
  /** MCP servers and plugins: outside tools for agents (engage.md §6). */
  external: ExternalToolDeps;
  /** The AI agents' run loop (engage.md §5). */
  agentRuns: AgentRunDeps;
  /** Chargebee and quotas (engage.md §8). */
  billing: BillingDeps;
};

export function createServices(infrastructure: Infrastructure): Services {
  const services = buildServices(infrastructure);
  // Channels that send to lists.
  services.broadcasts.channels.set('email', emailBroadcastChannel(services.email));
  services.broadcasts.channels.set('sms', smsBroadcastChannel(services.sms));
  return services;
}

function buildServices(infrastructure: Infrastructure): Services {
  const services = buildChannelServices(infrastructure);
  return { ...services, agentRuns: createAgentRunDeps(services) };
}

function buildChannelServices(infrastructure: Infrastructure): Omit<Services, 'agentRuns'> {
  const { config, database, feed, jobs, logger } = infrastructure;
  const db = database.db;
  const storage = createStorage(config);
  const tokens = new AccessTokens(config.APP_SECRET);
  const visitorTokens = new VisitorTokens(config.APP_SECRET);
  const authCache = authCacheFor(db);
  const whatsapp = createWhatsappDeps(config, db, jobs);
  const secrets = createSecretBox(config.APP_SECRET);
  const limiter = new RateLimiter(db);
  return {
    ...infrastructure,
    db,
    storage,
    secrets,
    tokens,
    visitorTokens,
    limiter,
    authCache,
    oidc: createOidcClient(config),
    whatsapp,
    // WhatsApp sends the customer a read receipt when staff read the conversation.
    inbox: {
      db,
      storage,
      onConversationRead: (c) => requestMarkRead(whatsapp, c),
    },
    realtime: {
      db,
      feed,
      callers: realtimeCallers({ db, authCache, tokens, visitorTokens }),
      topics: [...conversationTopics({ db, storage, authCache }), ...importTopics({ db, authCache })],
      logger,
    },
    broadcasts: { db, jobs, logger, channels: new Map() },
    emailDomains: emailDomainDeps(config, db, secrets),
    emailTracking: createEmailTracking(db, config.APP_SECRET, logger),
    email: createEmailDeps({ config, db, jobs, secrets, logger, mailer: infrastructure.mailer }),
    llm: { db, secrets, config, logger },
    sms: { db, jobs, secrets, logger, config },
    external: {
      db,
      secrets,
      logger,
      guarded: outboundGuarded(config),
      publicUrl: config.PUBLIC_URL,
      timeoutMs: config.OUTSIDE_TOOLS_TIMEOUT_MS,
      pluginManifests: loadPluginManifests(config.PLUGIN_MANIFESTS_FILE),
      mailer: infrastructure.mailer,
    },
    billing: { db, config, logger, limiter },
  };
}

/** Sending domains: which DNS servers verification asks, and the names domains point at Titan. */
function emailDomainDeps(config: Config, db: Db, secrets: SecretBox): EmailDomainDeps {
  const host = new URL(config.PUBLIC_URL).hostname.replace(/^\[|\]$/g, '');
  return {
    db,
    secrets,
    dns: { servers: config.DNS_SERVERS ?? null, timeoutMs: config.DNS_TIMEOUT_MS },
    publish: {
      spfInclude: config.EMAIL_SPF_INCLUDE ?? `_spf.${host}`,
      returnPathTarget: config.EMAIL_RETURN_PATH_HOST ?? `rp.${host}`,
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every queue, loop and schedule of the product. */
export async function defineJobs(services: Services): Promise<void> {
  const { jobs, db, logger } = services;
  await services.mailer.defineQueue();
  await jobs.define({
    name: 'realtime.prune-change-log',
    // Realtime resume covers a day of disconnection; older changes are only ever refetched.
    handler: () => pruneChangeLog(db, new Date(Date.now() - DAY_MS)),
    retryLimit: 2,
  });
  await jobs.schedule('realtime.prune-change-log', '17 * * * *');
  await jobs.define({
    name: 'platform.prune-rate-limits',
    handler: () => pruneRateLimits(db, new Date(Date.now() - DAY_MS)),
    retryLimit: 2,
  });
  await jobs.schedule('platform.prune-rate-limits', '23 * * * *');
  await jobs.define({
    name: 'audit.purge',
    handler: async () => {
      await purgeAuditLog(db, services.config.AUDIT_LOG_RETENTION_DAYS);
      await pruneChallenges(db, new Date(Date.now() - DAY_MS));
    },
    retryLimit: 2,
  });
  await jobs.schedule('audit.purge', '29 * * * *');
  await jobs.define({
    name: PUBLIC_RETENTION_QUEUE,
    handler: async () => {
      await runPublicRetention(services, logger);
    },
    retryLimit: 2,
  });
  await jobs.schedule(PUBLIC_RETENTION_QUEUE, PUBLIC_RETENTION_CRON);
  await defineWhatsappQueues(jobs, services.whatsapp, logger);
  await defineBroadcastQueues(services.broadcasts);
  await defineImportQueue(services);
  await jobs.define({
    name: EMAIL_DOMAINS_RECHECK_QUEUE,
    handler: async () => {
      await recheckVerifiedDomains(services.emailDomains, logger);
    },
    retryLimit: 1,
  });
  await jobs.schedule(EMAIL_DOMAINS_RECHECK_QUEUE, EMAIL_DOMAINS_RECHECK_CRON);
  await defineEmailQueues(jobs, services.email, logger);
  await defineSmsQueues(jobs, services.sms, logger);
  await defineAgentScheduleTick(jobs, db, logger);
  await defineAgentRunJobs(jobs, services.agentRuns);
}
