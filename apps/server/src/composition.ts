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
import { type CampaignDeps, defineCampaignQueues } from './modules/campaigns';
import { realtimeCallers } from './realtime-callers';
import { defineNotificationJobs, notificationTopics, type NotificationDeps } from './modules/notifications';
import {
  createEmailDeps,
  defineEmailQueues,
  emailBroadcastChannel,
  emailReplier,
  type EmailDeps,
} from './modules/email';
import { defineImportQueue, importTopics } from './modules/customer-imports';
import {
  EMAIL_DOMAINS_RECHECK_CRON,
  EMAIL_DOMAINS_RECHECK_QUEUE,
  type EmailDomainDeps,
  recheckVerifiedDomains,
} from './modules/email-domains';
import {
  AutoAssigner,
  AutoResponder,
  conversationTopics,
  defineSlaWatchJob,
  defineSnoozeJob,
  type InboxDeps,
  typingSource,
} from './modules/conversations';
import { businessScope } from './platform/inbox-scope';
import { presenceTopic, startPresenceSweep, touchPresence } from './modules/presence';
import {
  PUBLIC_RETENTION_CRON,
  PUBLIC_RETENTION_QUEUE,
  runPublicRetention,
  visitorStillValid,
  VisitorTokens,
} from './modules/public-chat';
import {
  createWhatsappDeps,
  defineWhatsappQueues,
  lastCustomerMessagesOf,
  WINDOW_MS as WHATSAPP_WINDOW_MS,
  requestMarkRead,
  sendMessage as sendWhatsappMessage,
  type WhatsappDeps,
  whatsappBroadcastChannel,
} from './modules/whatsapp';
import {
  defineSmsQueues,
  e164Of,
  sendSms,
  smsBroadcastChannel,
  smsReplier,
  type SmsDeps,
} from './modules/sms';
import type { ConsentRouteDeps } from './modules/consent';
import { listNameOf, listSelection } from './modules/customer-lists';
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
import { type LlmDeps, openLlm, resolveLlm } from './modules/llm';
import { AI_RESPONDER_LOOP, type AiDeps, respondPending } from './modules/ai';
import {
  defineKbEmbedQueue,
  defineKbImportQueue,
  type KnowledgeDeps,
  requestEmbeddings,
} from './modules/knowledge';
import {
  type AgentRunDeps,
  type AgentRunPorts,
  createAgentRunDeps,
  defineAgentRunJobs,
  defineAgentScheduleTick,
} from './modules/agents';
import { callExternalTool, type ExternalToolDeps, prepareExternalTools } from './modules/outside-tools';
import { loadPluginManifests } from './modules/plugins';
import type { BillingDeps } from './modules/billing';
import { findBusiness, findBusinessById, setSubscriptionStatus } from './modules/business';
import {
  findCustomersByIds,
  segmentCustomers,
  segmentCustomersAmong,
  visibleCustomerIds,
} from './modules/directory';
import { frequencyCapForRecording, frequencyCapped } from './modules/sends';
import { suppressedAmong } from './modules/suppressions';
import { type Clock, systemClock } from './platform/clock';
import {
  pruneWebhookEvents,
  runDeliveryPass,
  WEBHOOK_DEFAULTS,
  WEBHOOK_DELIVERY_LOOP,
  type WebhookDeps,
} from './modules/webhooks';
import { JOURNEY_DEFAULTS, JOURNEYS_LOOP, type JourneyDeps, runJourneyPass } from './modules/journeys';
import { journeyPorts } from './journey-ports';
import { agentDeliveryPorts } from './agent-delivery-ports';

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
  /** "Now" for business hours, away replies and SLA alerts (tests move it). */
  clock: Clock;
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
  /** Staff alerts: the bell, Web Push, the unread email (issue 29). */
  notifications: NotificationDeps;
  /** Outbound webhooks: endpoints, the outbox and its delivery loop (issue 34). */
  webhooks: WebhookDeps;
  /** Double opt-in confirmations and the consent pages (issue 31). */
  consent: ConsentRouteDeps;
  /** The knowledge base: imports, embeddings, search (issue 33). */
  knowledge: KnowledgeDeps;
  /** Campaigns: composed broadcasts with schedules, throttles and A/B tests (issue 31). */
  campaigns: CampaignDeps;
  /** Journeys on customer events: the step ledger and its loop (issue 32). */
  journeys: JourneyDeps;
  /** The AI in the inbox: the first responder and the staff copilot (issue 33). */
  ai: AiDeps;
};

export function createServices(infrastructure: Infrastructure): Services {
  const services = buildServices(infrastructure);
  // Channels that send to lists.
  services.broadcasts.channels.set('email', emailBroadcastChannel(services.email));
  services.broadcasts.channels.set('sms', smsBroadcastChannel(services.sms));
  services.broadcasts.channels.set('whatsapp', whatsappBroadcastChannel(services.whatsapp));
  return services;
}

function buildServices(infrastructure: Infrastructure): Services {
  const services = buildChannelServices(infrastructure);
  const agentRuns = createAgentRunDeps({ ...services, ports: agentRunPorts() });
  return {
    ...services,
    agentRuns,
    campaigns: {
      db: services.db,
      jobs: services.broadcasts.jobs,
      logger: services.broadcasts.logger,
      broadcasts: services.broadcasts,
      email: services.email,
      sms: services.sms,
      whatsapp: services.whatsapp,
      clock: () => new Date(),
    },
    journeys: {
      db: services.db,
      logger: services.logger,
      ports: journeyPorts({ ...services, agentRuns }),
      clock: () => new Date(),
      wake: () => services.jobs.wake(JOURNEYS_LOOP),
      ...JOURNEY_DEFAULTS,
    },
  };
}

/** What the agents' run loop reads of other modules (it imports none of them). */
function agentRunPorts(): AgentRunPorts {
  return {
    findBusiness: findBusinessById,
    listSelection,
    openLlm,
    resolveLlm,
    prepareExternalTools,
    callExternalTool,
    e164Of,
    findCustomersByIds,
    visibleCustomerIds,
    segmentCustomers,
    segmentCustomersAmong,
    suppressedAmong,
    frequencyCapped,
    frequencyCapForRecording,
    lastCustomerMessagesOf,
    whatsappWindowMs: WHATSAPP_WINDOW_MS,
    ...agentDeliveryPorts,
  };
}

function buildChannelServices(
  infrastructure: Infrastructure,
): Omit<Services, 'agentRuns' | 'campaigns' | 'journeys'> {
  const { config, database, feed, jobs, logger } = infrastructure;
  const db = database.db;
  const storage = createStorage(config);
  const tokens = new AccessTokens(config.APP_SECRET);
  const visitorTokens = new VisitorTokens(config.APP_SECRET);
  const authCache = authCacheFor(db);
  const whatsapp = createWhatsappDeps(config, db, jobs);
  const clock = systemClock();
  const secrets = createSecretBox(config.APP_SECRET);
  const limiter = new RateLimiter(db);
  const sms: SmsDeps = { db, jobs, secrets, logger, config };
  const email = createEmailDeps({
    config,
    db,
    storage,
    jobs,
    secrets,
    logger,
    mailer: infrastructure.mailer,
  });
  // WhatsApp sends the customer a read receipt when staff read the conversation; SMS and email
  // conversations are answered through their channels' sends.
  const inbox: InboxDeps = {
    db,
    storage,
    onConversationRead: (c: Parameters<typeof requestMarkRead>[1]) => requestMarkRead(whatsapp, c),
    replies: { sms: smsReplier({ ...sms, storage }), email: emailReplier(email) },
  };
  const realtimeDeps = (): RealtimeDeps => {
    const inboxTopics = conversationTopics({
      db,
      storage,
      authCache,
      visitorStillValid: (caller) => visitorStillValid(db, caller),
    });
    return {
      db,
      feed,
      callers: realtimeCallers({ db, authCache, tokens, visitorTokens }),
      topics: [
        ...inboxTopics,
        ...importTopics({ db, authCache }),
        ...notificationTopics({ db, authCache }),
        presenceTopic({ db, authCache }),
      ],
      logger,
      typing: typingSource({ db, storage, authCache }, inboxTopics),
      // Connected members stay present; three refreshes fit in the grace period.
      presence: {
        touch: (userIds) => touchPresence(db, userIds),
        intervalMs: Math.max(1_000, (config.PRESENCE_GRACE_SECONDS * 1000) / 3),
      },
    };
  };
  const llm: LlmDeps = { db, secrets, config, logger };
  const external: ExternalToolDeps = {
    db,
    secrets,
    logger,
    guarded: outboundGuarded(config),
    publicUrl: config.PUBLIC_URL,
    timeoutMs: config.OUTSIDE_TOOLS_TIMEOUT_MS,
    pluginManifests: loadPluginManifests(config.PLUGIN_MANIFESTS_FILE),
    mailer: infrastructure.mailer,
  };
  const outbound = { guarded: outboundGuarded(config), publicUrl: config.PUBLIC_URL };
  const knowledge: KnowledgeDeps = {
    db,
    storage,
    jobs,
    logger,
    outbound,
    llm,
    onArticlesChanged: (businessId) => requestEmbeddings({ jobs }, businessId),
  };
  return {
    ...infrastructure,
    knowledge,
    ai: {
      db,
      llm,
      inbox,
      publicUrl: config.PUBLIC_URL,
      logger,
      external,
      onArticlesChanged: knowledge.onArticlesChanged,
      // The AI's WhatsApp messages leave as staff's do: recorded under their key, then sent.
      whatsapp: async ({ businessId, conversationId }, reply) => {
        await sendWhatsappMessage(
          whatsapp,
          businessScope(businessId),
          null,
          conversationId,
          { type: 'text', recipient_type: 'individual', text: { body: reply.content } },
          { cause: 'agent', idempotencyKey: reply.idempotencyKey, metaData: reply.metaData },
        );
      },
    },
    db,
    clock,
    storage,
    secrets,
    tokens,
    visitorTokens,
    limiter,
    authCache,
    oidc: createOidcClient(config),
    whatsapp,
    inbox,
    realtime: realtimeDeps(),
    broadcasts: { db, jobs, logger, channels: new Map() },
    emailDomains: emailDomainDeps(config, db, secrets),
    emailTracking: createEmailTracking(db, config.APP_SECRET, logger),
    email,
    llm,
    sms,
    external,
    billing: {
      db,
      config,
      logger,
      limiter,
      business: { find: findBusiness, setSubscriptionStatus },
    },
    consent: {
      db,
      mailer: infrastructure.mailer,
      limiter,
      config,
      listName: (businessId, listId) => listNameOf(db, businessId, listId),
      // "Reply YES" asks go out as ordinary texts of the business's SMS account.
      sendText: async ({ businessId, customerId, body }) => {
        await sendSms(
          { db, jobs, secrets, logger, config },
          { businessId, to: { customerId }, body, cause: 'system' },
        );
      },
    },
    notifications: {
      db,
      secrets,
      mailer: infrastructure.mailer,
      logger,
      config,
      outbound: { guarded: outboundGuarded(config), publicUrl: config.PUBLIC_URL },
      inbox,
      emailAfterMs: 15 * 60 * 1000,
    },
    webhooks: {
      db,
      secrets,
      logger,
      mailer: infrastructure.mailer,
      outbound: { guarded: outboundGuarded(config), publicUrl: config.PUBLIC_URL },
      publicUrl: config.PUBLIC_URL,
      ...WEBHOOK_DEFAULTS,
    },
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
  await defineCampaignQueues(services.campaigns);
  await defineImportQueue(services);
  await defineKbImportQueue(services.knowledge);
  await defineKbEmbedQueue(services.knowledge);
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
  await defineNotificationJobs(jobs, services.notifications);
  await defineSnoozeJob(jobs, db, logger);
  // The AI first responder: customer messages in conversations it holds, claimed once each.
  jobs.defineLoop({
    name: AI_RESPONDER_LOOP,
    run: () => respondPending(services.ai),
    concurrency: 2,
    pollIntervalMs: 2_000,
  });
  await defineSlaWatchJob(jobs, db, logger, services.clock);
  // Webhook deliveries: committed events are claimed within a poll interval by any worker.
  jobs.defineLoop({
    name: WEBHOOK_DELIVERY_LOOP,
    run: () => runDeliveryPass(services.webhooks),
    concurrency: 4,
    pollIntervalMs: 200,
  });
  await jobs.define({
    name: 'webhooks.prune',
    handler: () => pruneWebhookEvents(services.webhooks),
    retryLimit: 2,
  });
  await jobs.schedule('webhooks.prune', '41 3 * * *');
  // Journeys: events heard and due steps run by any worker (skip locked), woken when work is stored
  // or a wait comes due, else within a poll interval. Four passes: a batch waits on the database
  // most of its time, so passes overlap (claims never take the same step or event twice).
  jobs.defineLoop({
    name: JOURNEYS_LOOP,
    run: () => runJourneyPass(services.journeys),
    concurrency: 4,
    pollIntervalMs: 250,
  });
}

/**
 * What runs in every process whatever its role (API or workers): the auto-assignment engine and the
 * presence sweep. Answers how to stop them (before the database closes).
 */
export function startInboxBackground(services: Services): {
  assigner: AutoAssigner;
  away: AutoResponder;
  stop(): Promise<void>;
} {
  const assigner = new AutoAssigner({
    db: services.db,
    feed: services.feed,
    logger: services.logger,
    clock: services.clock,
  }).start();
  // The away reply and the CSAT survey. On WhatsApp they go through the channel's own send (the
  // customer just wrote, or was just answered: the 24-hour window is open).
  const away = new AutoResponder({
    publicUrl: services.config.PUBLIC_URL,
    db: services.db,
    feed: services.feed,
    logger: services.logger,
    clock: services.clock,
    replies: services.inbox.replies,
    whatsapp: async ({ businessId, conversationId }, text) => {
      await sendWhatsappMessage(
        services.whatsapp,
        businessScope(businessId),
        null,
        conversationId,
        { type: 'text', recipient_type: 'individual', text: { body: text } },
        { cause: 'system' },
      );
    },
  }).start();
  const stopSweep = startPresenceSweep(services.db, services.logger, services.config.PRESENCE_GRACE_SECONDS);
  // A new message may be one for the AI first responder: its loop looks now (where workers run).
  const unwake = services.feed.subscribe((change) => {
    if (
      (change.table === 'messages' || change.table === 'wa_messages') &&
      change.op === 'INSERT' &&
      (change.sender_type === 'customer' || change.sender_type === undefined)
    )
      services.jobs.wake(AI_RESPONDER_LOOP);
  });
  return {
    assigner,
    away,
    async stop() {
      unwake();
      stopSweep();
      await away.stop();
      await assigner.stop();
    },
  };
}
