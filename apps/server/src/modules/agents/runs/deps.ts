// What the agents' run loop is given: its dependencies and limits, built once by the composition
// root (createAgentRunDeps), and the queue names and thresholds the loop and its jobs share.
import type { Logger } from 'pino';
import type { Config } from '../../../config';
import type { Db } from '../../../db/client';
import type { Jobs } from '../../../platform/jobs';
import { outboundGuarded } from '../../../platform/safe-fetch';
import type { EmailDeps } from '../../email';
import { type LlmDeps } from '../../llm';
import { type SmsDeps } from '../../sms';
import { type WhatsappDeps } from '../../whatsapp';
import { type ExternalToolDeps } from '../agents.external-tools';

export const RUN_QUEUE = 'agents.run';
export const DELIVER_QUEUE = 'agents.deliver';
export const RUN_TICK_QUEUE = 'agents.run-tick';

/** Failed runs in a row (previews aside) after which an active agent is paused. */
export const FAILURES_TO_PAUSE = 3;
/** LLM calls failing in a row (after the client's own retries) after which a run stops. */
export const LLM_ERRORS_TO_FAIL = 3;
/** Attempts at a run (takeovers after a worker died) before it is failed. */
export const MAX_RUN_ATTEMPTS = 5;

export type AgentRunDeps = {
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
  s: Pick<AgentRunDeps, 'db' | 'jobs' | 'logger' | 'llm' | 'email' | 'sms' | 'whatsapp'> & {
    secrets: ExternalToolDeps['secrets'];
    /** The services' outside-tool deps (plugin manifests, timeouts); built from the rest when absent. */
    external?: ExternalToolDeps;
    config: Pick<Config, 'NODE_ENV' | 'HOST' | 'PUBLIC_URL'> & {
      LLM_PRICE_PER_MILLION_TOKENS?: AgentRunDeps['price'];
    };
  },
): AgentRunDeps {
  return {
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
