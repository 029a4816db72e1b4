// A run for one customer alone, started by another module (a journey's "hand to an AI agent" step,
// issue 32): the agent's current config on the step's channel (its first when the step names none),
// its audience that customer, every
// guardrail as in any run (consent, the weekly cap, quiet hours, the send mode's review or dry run).
// Recorded in the caller's transaction under the caller's key — a step retried after a crash finds
// the run it started — and handed to the run loop after the commit (a run whose job was never sent
// is found by resumeStaleRuns, as one whose worker died).
import { AGENT_RUN_ERRORS as RM, type TAgentChannel } from '@titan/contracts';
import type { Queryable } from '../../../db/client';
import * as agentsRepo from '../agents.repository';
import * as repo from '../agents.runs.repository';
import { RUN_QUEUE, type AgentRunDeps } from './deps';

export const CUSTOMER_RUN_WORDS = {
  noAgent: 'No such agent.',
  notActive: (status: string) => `The agent is ${status}; it starts no runs until it is active again.`,
  noChannel: (channel: string) =>
    `The agent no longer sends on ${channel}: choose another channel for this step.`,
} as const;

/** The run started (or found under the key), or why none was. */
export type CustomerRunStart =
  { runId: string; created: boolean; channel: string } | { runId: null; reason: string };

/**
 * The channels of the business's agent, in its config's order (empty before its first config), or
 * null when the business has no such agent (archived ones included: a journey says why at run time).
 */
export async function agentChannelsOf(
  db: Queryable,
  businessId: number,
  agentId: number,
): Promise<TAgentChannel[] | null> {
  const agent = await agentsRepo.findAgent(db, businessId, agentId);
  if (!agent) return null;
  if (agent.configVersion === null) return [];
  const [current] = await agentsRepo.findConfigVersions(db, businessId, [agent.id], 'current');
  return (current?.config.channels ?? []).map((c) => c.channel);
}

/**
 * Records a one-customer run in the caller's transaction (every read through it: PGlite has one
 * connection), once per key. A business without a model gets the run failed saying so, as any run.
 */
export async function startCustomerRun(
  tx: Queryable,
  input: {
    businessId: number;
    agentId: number;
    /** The agent's channel to run on; absent, its first. */
    channel?: TAgentChannel;
    customerId: number;
    idempotencyKey: string;
    at: Date;
  },
): Promise<CustomerRunStart> {
  const known = await repo.findRunByKey(tx, input.businessId, input.idempotencyKey);
  if (known) return { runId: known.id, created: false, channel: known.channel };
  const agent = await agentsRepo.findAgent(tx, input.businessId, input.agentId);
  if (!agent) return { runId: null, reason: CUSTOMER_RUN_WORDS.noAgent };
  if (agent.status !== 'active') return { runId: null, reason: CUSTOMER_RUN_WORDS.notActive(agent.status) };
  if (agent.configVersion === null) return { runId: null, reason: RM.noConfig };
  const [current] = await agentsRepo.findConfigVersions(tx, agent.businessId, [agent.id], 'current');
  if (!current || current.config.channels.length === 0) return { runId: null, reason: RM.noConfig };
  const channel =
    input.channel === undefined
      ? current.config.channels[0]
      : current.config.channels.find((c) => c.channel === input.channel);
  // The agent's config changed since the journey was saved: the step says so rather than using another channel.
  if (!channel) return { runId: null, reason: CUSTOMER_RUN_WORDS.noChannel(input.channel!) };
  const inserted = await repo.insertKeyedRun(tx, {
    agentId: agent.id,
    businessId: agent.businessId,
    channel: channel.channel,
    slot: input.at,
    trigger: 'journey',
    configVersion: current.version,
    sendMode: current.config.send_mode,
    customerId: input.customerId,
    idempotencyKey: input.idempotencyKey,
  });
  const run = inserted ?? (await repo.findRunByKey(tx, input.businessId, input.idempotencyKey))!;
  return { runId: run.id, created: inserted !== null, channel: run.channel };
}

/** Hands started runs to the run loop (after their transaction committed). */
export async function dispatchCustomerRuns(
  deps: Pick<AgentRunDeps, 'jobs'>,
  runIds: string[],
): Promise<void> {
  for (const id of runIds) await deps.jobs.send(RUN_QUEUE, { run_id: id }, { singletonKey: id });
}
