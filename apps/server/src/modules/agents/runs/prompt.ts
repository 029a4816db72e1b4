// A run in memory and what its model is told: the decision's schema, the system prompt, and
// prepareRun (the agent, its config version, the model and the tools) before the first recipient.
import {
  AGENT_RUN_ERRORS as RM,
  ZAgentDecision,
  type TAgentChannel,
  type TAgentConfigValues,
  type TAgentDeliveryStatus,
  type TAgentRunStep,
} from '@titan/contracts';
import { z } from 'zod';
import { AppError } from '../../../platform/errors';
import { jsonSchemaOf, type LlmResponseFormat, type LlmTool } from '../../../platform/llm/llm.client';
import type { ListSelection } from '../../customer-lists';
import type { LlmSession } from '../../llm';
import type { ExternalTool } from '../../outside-tools';
import * as agentsRepo from '../agents.repository';
import type * as repo from '../agents.runs.repository';
import { BUILTIN_TOOLS, builtinModelTool, externalModelTool, type BuiltinToolName } from '../agents.tools';
import type { AgentRunDeps } from './deps';

// ---- What the model answers ----

/** The contract's decision, with the run's own channel as the only one allowed. */
function decisionSchema(channel: TAgentChannel) {
  return ZAgentDecision.extend({ channel: z.enum([channel]) });
}
export type ModelDecision = z.infer<ReturnType<typeof decisionSchema>>;

// ---- A run in memory ----

export type StepDraft = Omit<TAgentRunStep, 'seq' | 'created_at'>;

export type DeliveryDraft = {
  customerId: number;
  status: TAgentDeliveryStatus;
  reason: string;
  guardrail: string | null;
  templateId: number | null;
  variables: Record<string, unknown>;
  subject: string | null;
  body: string | null;
};

export type ChannelConfig = TAgentConfigValues['channels'][number];

export type RunContext = {
  deps: AgentRunDeps;
  run: repo.RunRow;
  agentName: string;
  config: TAgentConfigValues;
  channel: ChannelConfig;
  llm: LlmSession;
  tools: LlmTool[];
  builtins: Map<string, { name: BuiltinToolName; approval: 'auto' | 'review' }>;
  external: Map<string, ExternalTool>;
  system: string;
  responseFormat: LlmResponseFormat;
  schema: ReturnType<typeof decisionSchema>;
  businessTz: string;
  lists: ListSelection[];
  state: {
    /** Sends let through by the guardrails in this run (for max_sends_per_run). */
    planned: number;
    llmErrorsInRow: number;
    /** Why the run stops early (max sends reached); null while it goes on. */
    stopped: string | null;
    promptTokens: number;
    completionTokens: number;
  };
};

export class RunFailure extends Error {}

/** A delivery's key: agent × channel × customer × slot, or — a one-customer run — its own key. */
export const keyOf = (run: repo.RunRow, customerId: number) =>
  run.idempotencyKey
    ? `agent:${run.agentId}:${run.channel}:${customerId}:${run.idempotencyKey}`
    : `agent:${run.agentId}:${run.channel}:${customerId}:${run.slot.toISOString()}`;

const CHANNEL_NAME: Record<TAgentChannel, string> = { email: 'email', sms: 'SMS', whatsapp: 'WhatsApp' };

function systemPrompt(
  agentName: string,
  businessName: string,
  config: TAgentConfigValues,
  channel: ChannelConfig,
  tools: LlmTool[],
): string {
  const templateLine =
    channel.channel === 'sms'
      ? 'SMS has no templates: write the text in `body` (at most 1,600 characters), `template_id` null.'
      : channel.template_id
        ? `Use template ${channel.template_id} (set template_id to it, and variables it needs), unless told otherwise.`
        : channel.channel === 'email'
          ? 'Write the mail: `subject` and `body` (plain text), template_id null — or pick a template with list_templates.'
          : 'Pick an approved WhatsApp template (list_templates) outside the 24-hour window; inside it you may write `body`.';
  return [
    `You are “${agentName}”, an AI agent of ${businessName}.`,
    `Goal: ${config.goal}`,
    '',
    'Instructions from the business:',
    config.instructions,
    '',
    `You decide, for one customer at a time, whether to send them a message on ${CHANNEL_NAME[channel.channel]} now, and what.`,
    templateLine,
    'Answer with JSON: {send, channel, template_id, variables: [{name, value}], subject, body, reason}. `reason` says why, in one sentence.',
    'Send nothing (send: false) when a message would not help the goal.',
    tools.length > 0 ? `Tools you may call first: ${tools.map((t) => t.name).join(', ')}.` : '',
  ]
    .filter((l) => l !== null)
    .join('\n');
}

/** The agent, its config version, the model, the tools: everything a run needs before its first recipient. */
export async function prepareRun(
  deps: AgentRunDeps,
  run: repo.RunRow,
  steps: StepDraft[],
  options: { recordUnavailable: boolean },
): Promise<RunContext> {
  const agent = await agentsRepo.findAgentById(deps.db, run.agentId);
  if (!agent) throw new RunFailure('The agent was deleted.');
  const [version] = (await agentsRepo.findConfigVersions(deps.db, run.businessId, [agent.id])).filter(
    (v) => v.version === run.configVersion,
  );
  if (!version) throw new RunFailure(RM.noConfig);
  const config = version.config;
  const channel = config.channels.find((c) => c.channel === run.channel);
  if (!channel) throw new RunFailure(RM.channelNotConfigured);
  let llm: LlmSession;
  try {
    llm = await deps.ports.openLlm(deps.llm, {
      businessId: run.businessId,
      purpose: 'agent_run',
      ref: run.id,
      ...(config.model ? { model: config.model } : {}),
    });
  } catch (err) {
    if (err instanceof AppError) throw new RunFailure(err.message);
    throw err;
  }
  const business = await deps.ports.findBusiness(deps.db, run.businessId);

  const builtins = new Map<string, { name: BuiltinToolName; approval: 'auto' | 'review' }>();
  const tools: LlmTool[] = [];
  for (const t of config.tools) {
    if (t.source !== 'builtin') continue;
    const name = t.name as BuiltinToolName;
    const sends = BUILTIN_TOOLS[name].sends;
    // A send tool of another channel has no place in this channel's run.
    if (sends !== null && sends !== run.channel) continue;
    if (builtins.has(name)) continue;
    builtins.set(name, { name, approval: t.approval });
    tools.push(builtinModelTool(name));
  }
  const external = new Map<string, ExternalTool>();
  if (config.tools.some((t) => t.source !== 'builtin')) {
    const prepared = await deps.ports.prepareExternalTools(deps.external, run.businessId, config.tools);
    for (const tool of prepared.tools) {
      external.set(tool.modelName, tool);
      tools.push(externalModelTool(tool));
    }
    if (options.recordUnavailable) {
      for (const u of prepared.unavailable)
        steps.push({
          kind: 'error',
          name: 'tool_unavailable',
          customer_id: null,
          input: { source: u.tool.source, server_id: u.tool.server_id ?? null, name: u.tool.name },
          output: { error: u.reason },
          duration_ms: 0,
          tokens: 0,
        });
    }
  }

  const lists: ListSelection[] = [];
  for (const id of config.audience.list_ids) {
    try {
      lists.push(await deps.ports.listSelection(deps.db, run.businessId, id));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (options.recordUnavailable)
        steps.push({
          kind: 'error',
          name: 'audience',
          customer_id: null,
          input: { list_id: id },
          output: { error: `List ${id} no longer exists; it was left out of the audience.` },
          duration_ms: 0,
          tokens: 0,
        });
    }
  }
  if (lists.length === 0 && !config.audience.segment)
    throw new RunFailure('The audience is empty: its lists no longer exist.');

  const schema = decisionSchema(run.channel);
  return {
    deps,
    run,
    agentName: agent.name,
    config,
    channel,
    llm,
    tools,
    builtins,
    external,
    system: systemPrompt(agent.name, business?.name ?? 'the business', config, channel, tools),
    responseFormat: {
      type: 'json_schema',
      name: 'agent_decision',
      schema: jsonSchemaOf(schema),
      strict: true,
    },
    schema,
    // Quiet hours of a customer without a zone of their own follow the business's zone.
    businessTz: business?.timeZone ?? 'UTC',
    lists,
    state: { planned: 0, llmErrorsInRow: 0, stopped: null, promptTokens: 0, completionTokens: 0 },
  };
}
