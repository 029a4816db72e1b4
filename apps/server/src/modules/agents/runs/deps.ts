// What the agents' run loop is given: its dependencies and limits, built once by the composition
// root (createAgentRunDeps), and the queue names and thresholds the loop and its jobs share.
import type { Logger } from 'pino';
import type { Config } from '../../../config';
import type { Db } from '../../../db/client';
import type { Jobs } from '../../../platform/jobs';
import { outboundGuarded } from '../../../platform/safe-fetch';
import type { findBusinessById } from '../../business';
import type { listSelection } from '../../customer-lists';
import type { findCustomerConversations } from '../../conversations';
import type {
  findCustomersByIds,
  segmentCustomers,
  segmentCustomersAmong,
  visibleCustomerIds,
} from '../../directory';
import type {
  buildSend,
  EMAIL_ERRORS,
  EmailDeps,
  enqueueEmailSends,
  sendContext,
  textOf,
  withUnsubscribeFooter,
} from '../../email';
import type { LlmDeps, openLlm, resolveLlm } from '../../llm';
import type {
  createMany,
  findByIdempotencyKey,
  frequencyCapForRecording,
  frequencyCapped,
} from '../../sends';
import type { buildSmsSend, e164Of, enqueueSmsSends, SMS_SEND_ERRORS, smsContext, SmsDeps } from '../../sms';
import type { normalizeAddress, suppressedAmong } from '../../suppressions';
import type {
  findTemplates as findEmailTemplates,
  loadCompiledTemplate,
  renderCompiled,
} from '../../templates';
import type { recordEvent } from '../../webhooks';
import type {
  findTemplateById as findWhatsappTemplate,
  findTemplates as findWhatsappTemplates,
  lastCustomerMessagesOf,
  renderTemplate,
  sendMessage,
  sendTemplate,
  toTemplate,
  WhatsappDeps,
} from '../../whatsapp';
import type { callExternalTool, ExternalToolDeps, prepareExternalTools } from '../../outside-tools';

export const RUN_QUEUE = 'agents.run';
export const DELIVER_QUEUE = 'agents.deliver';
export const RUN_TICK_QUEUE = 'agents.run-tick';

/** Failed runs in a row (previews aside) after which an active agent is paused. */
export const FAILURES_TO_PAUSE = 3;
/** LLM calls failing in a row (after the client's own retries) after which a run stops. */
export const LLM_ERRORS_TO_FAIL = 3;
/** Attempts at a run (takeovers after a worker died) before it is failed. */
export const MAX_RUN_ATTEMPTS = 5;

/**
 * What the run loop reads of other modules (the business, its lists and customers, suppressions,
 * the WhatsApp window, the model, outside tools), handed in by the composition root so the loop
 * imports none of them.
 */
export type AgentRunPorts = {
  findBusiness: typeof findBusinessById;
  listSelection: typeof listSelection;
  openLlm: typeof openLlm;
  /** Whether the business has a model configured (null: none), before a run or a preview. */
  resolveLlm: typeof resolveLlm;
  /** The tools a config allows that are available for a run (connections refreshed ahead of it). */
  prepareExternalTools: typeof prepareExternalTools;
  callExternalTool: typeof callExternalTool;
  /** A phone number in E.164, or null (SMS and WhatsApp addresses). */
  e164Of: typeof e164Of;
  findCustomersByIds: typeof findCustomersByIds;
  /** The customers an agent-role viewer may see (run logs read by the API). */
  visibleCustomerIds: typeof visibleCustomerIds;
  segmentCustomers: typeof segmentCustomers;
  segmentCustomersAmong: typeof segmentCustomersAmong;
  suppressedAmong: typeof suppressedAmong;
  /** The business's marketing frequency cap, shared with campaigns and journeys. */
  frequencyCapped: typeof frequencyCapped;
  /**
   * The cap asked again where a delivery is recorded (an approval may come days after the run):
   * under its per-customer locks, held until the recording transaction ends.
   */
  frequencyCapForRecording: typeof frequencyCapForRecording;
  lastCustomerMessagesOf: typeof lastCustomerMessagesOf;
  /** How long after a customer's last message WhatsApp lets the business write freely. */
  whatsappWindowMs: number;
} & AgentDeliveryPorts;

/**
 * What a run's deliveries, read-only tools and finished event reach of other modules: sends built
 * and recorded by the email and SMS channels and the spine, WhatsApp's templates and sends, email
 * templates, a customer's conversations, and the webhooks outbox.
 */
export type AgentDeliveryPorts = {
  email: {
    sendContext: typeof sendContext;
    buildSend: typeof buildSend;
    enqueue: typeof enqueueEmailSends;
    errors: typeof EMAIL_ERRORS;
    findTemplates: typeof findEmailTemplates;
    loadCompiledTemplate: typeof loadCompiledTemplate;
    renderCompiled: typeof renderCompiled;
    textOf: typeof textOf;
    withUnsubscribeFooter: typeof withUnsubscribeFooter;
  };
  sms: {
    smsContext: typeof smsContext;
    buildSmsSend: typeof buildSmsSend;
    enqueue: typeof enqueueSmsSends;
    errors: typeof SMS_SEND_ERRORS;
  };
  whatsapp: {
    findTemplate: typeof findWhatsappTemplate;
    findTemplates: typeof findWhatsappTemplates;
    toTemplate: typeof toTemplate;
    renderTemplate: typeof renderTemplate;
    sendTemplate: typeof sendTemplate;
    sendMessage: typeof sendMessage;
  };
  sends: { createMany: typeof createMany; findByIdempotencyKey: typeof findByIdempotencyKey };
  normalizeAddress: typeof normalizeAddress;
  findCustomerConversations: typeof findCustomerConversations;
  /** `agent_run.finished` into the webhooks outbox, in the caller's transaction. */
  recordEvent: typeof recordEvent;
};

export type AgentRunDeps = {
  ports: AgentRunPorts;
  db: Db;
  jobs: Jobs;
  logger: Logger;
  llm: LlmDeps;
  email: EmailDeps;
  sms: SmsDeps;
  whatsapp: WhatsappDeps;
  external: ExternalToolDeps;
  /** US dollars per million tokens; null: cost unknown. */
  price: { prompt: number; completion: number } | null;
  /** Recipients decided at once (LLM calls in flight). */
  concurrency?: number;
  /** Recipients per written page. */
  pageSize?: number;
  /** How long a worker holds a run between pages. */
  leaseMs?: number;
};

/** The dependencies of the run loop, from the process's services. */
export function createAgentRunDeps(
  s: Pick<AgentRunDeps, 'db' | 'jobs' | 'logger' | 'llm' | 'email' | 'sms' | 'whatsapp' | 'ports'> & {
    secrets: ExternalToolDeps['secrets'];
    /** The services' outside-tool deps (plugin manifests, timeouts); built from the rest when absent. */
    external?: ExternalToolDeps;
    config: Pick<Config, 'NODE_ENV' | 'HOST' | 'PUBLIC_URL'> & {
      LLM_PRICE_PER_MILLION_TOKENS?: AgentRunDeps['price'];
    };
  },
): AgentRunDeps {
  return {
    ports: s.ports,
    db: s.db,
    jobs: s.jobs,
    logger: s.logger,
    llm: s.llm,
    email: s.email,
    sms: s.sms,
    whatsapp: s.whatsapp,
    external: s.external ?? {
      db: s.db,
      secrets: s.secrets,
      logger: s.logger,
      guarded: outboundGuarded(s.config),
      publicUrl: s.config.PUBLIC_URL,
    },
    price: s.config.LLM_PRICE_PER_MILLION_TOKENS ?? null,
  };
}
