// The AI agents' run loop (engage.md §5). A run is one agent × channel × slot: it pages through the
// audience (lists, narrowed by a segment) in customer-id order and, for each recipient, asks the
// model for a structured decision {send, channel, template_id, variables, subject, body, reason}
// with tools at hand (built-ins and outside tools). Every send — decided, or asked for through a
// send tool — passes the guardrails and is written as a delivery whose idempotency key is
// (agent, channel, customer, slot): planned (auto), pending_approval (review) or dry_run. A page's
// deliveries, steps, tokens and the cursor are written in one transaction; then planned deliveries
// become sends through the channel services (which record before they call the provider, under the
// same idempotency key). A run killed mid-way is taken over when its lease lapses and goes on after
// its last written page: nothing is decided, nor sent, twice.
import {
  AGENT_RUN_ERRORS as RM,
  LLM_ERRORS,
  ZAgentDecision,
  type TAgentChannel,
  type TAgentConfigValues,
  type TAgentDeliveryStatus,
  type TAgentRunStep,
  type TSegmentFilter,
} from '@titan/contracts';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { outboundGuarded } from '../../platform/safe-fetch';
import {
  jsonSchemaOf,
  LlmError,
  parseStructured,
  type LlmChatResult,
  type LlmMessage,
  type LlmResponseFormat,
  type LlmTool,
} from '../../platform/llm/llm.client';
import { findBusinessById } from '../business';
import { listSelection, type ListSelection } from '../customer-lists';
import { type CustomerRow, findCustomersByIds, segmentCustomers, segmentCustomersAmong } from '../directory';
import type { EmailDeps } from '../email';
import { type LlmDeps, type LlmSession, openLlm } from '../llm';
import { e164Of, type SmsDeps } from '../sms';
import { suppressedAmong } from '../suppressions';
import { recordEvent } from '../webhooks';
import { passed, summaries } from './runs/summary';
import { lastCustomerMessagesOf, type WhatsappDeps, WINDOW_MS } from '../whatsapp';
import {
  callExternalTool,
  prepareExternalTools,
  type ExternalTool,
  type ExternalToolDeps,
} from './agents.external-tools';
import {
  customerTimezone,
  quietHoursEnd,
  wallClockWords,
  recipientStop,
  sendStop,
  type GuardrailStop,
  type RecipientFacts,
} from './agents.guardrails';
import { deliverPlanned, messageOf } from './agents.deliveries';
import * as agentsRepo from './agents.repository';
import * as repo from './agents.runs.repository';
import {
  BUILTIN_TOOLS,
  builtinModelTool,
  customerForModel,
  externalModelTool,
  runReadTool,
  variablesOf,
  ZSendEmailArgs,
  ZSendSmsArgs,
  ZSendWhatsappArgs,
  type BuiltinToolName,
} from './agents.tools';

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

// ---- What the model answers ----

/** The contract's decision, with the run's own channel as the only one allowed. */
function decisionSchema(channel: TAgentChannel) {
  return ZAgentDecision.extend({ channel: z.enum([channel]) });
}
type ModelDecision = z.infer<ReturnType<typeof decisionSchema>>;

// ---- A run in memory ----

export type StepDraft = Omit<TAgentRunStep, 'seq' | 'created_at'>;

type DeliveryDraft = {
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

const keyOf = (run: repo.RunRow, customerId: number) =>
  `agent:${run.agentId}:${run.channel}:${customerId}:${run.slot.toISOString()}`;

function addressOf(channel: TAgentChannel, c: CustomerRow): string | null {
  if (channel === 'email') return c.email?.trim() || null;
  return e164Of(c.phone);
}

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
    llm = await openLlm(deps.llm, {
      businessId: run.businessId,
      purpose: 'agent_run',
      ref: run.id,
      ...(config.model ? { model: config.model } : {}),
    });
  } catch (err) {
    if (err instanceof AppError) throw new RunFailure(err.message);
    throw err;
  }
  const business = await findBusinessById(deps.db, run.businessId);

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
    const prepared = await prepareExternalTools(deps.external, run.businessId, config.tools);
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
      lists.push(await listSelection(deps.db, run.businessId, id));
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

// ---- The audience ----

/**
 * The next `limit` customers of the audience after customer id `after`, in id order: the union of
 * the lists, narrowed by the segment (or the segment alone). `last` is where the next page starts
 * (the segment may leave a page with fewer customers than it covered).
 */
export async function audiencePage(
  ctx: Pick<RunContext, 'deps' | 'run' | 'config' | 'lists'>,
  after: number,
  limit: number,
): Promise<{ customers: CustomerRow[]; last: number | null }> {
  const { db } = ctx.deps;
  const businessId = ctx.run.businessId;
  const segment = ctx.config.audience.segment as TSegmentFilter | undefined;
  if (ctx.lists.length === 0) {
    const customers = await segmentCustomers(db, businessId, segment ?? {}, after, limit);
    return { customers, last: customers.at(-1)?.id ?? null };
  }
  const ids = new Set<number>();
  for (const list of ctx.lists) {
    const some =
      list.kind === 'static'
        ? await list.memberIdsAfter(after, limit)
        : (await segmentCustomers(db, businessId, list.filter, after, limit)).map((c) => c.id);
    for (const id of some) ids.add(id);
  }
  const page = [...ids].sort((a, b) => a - b).slice(0, limit);
  if (page.length === 0) return { customers: [], last: null };
  const customers = segment
    ? await segmentCustomersAmong(db, businessId, segment, page)
    : await findCustomersByIds(db, businessId, page);
  return { customers, last: page.at(-1)! };
}

/** The guardrails' facts for a page of recipients, in a few queries. */
async function factsFor(
  ctx: RunContext,
  customers: CustomerRow[],
  now: Date,
): Promise<Map<number, RecipientFacts>> {
  const { db } = ctx.deps;
  const channel = ctx.run.channel;
  const businessId = ctx.run.businessId;
  const ids = customers.map((c) => c.id);
  const addresses = customers.map((c) => addressOf(channel, c));
  const [suppressed, recent, whatsapp] = await Promise.all([
    suppressedAmong(
      db,
      businessId,
      channel,
      addresses.filter((a): a is string => a !== null),
    ),
    repo.recentDeliveryCounts(db, businessId, ids, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)),
    channel === 'whatsapp' ? lastCustomerMessagesOf(db, businessId, ids) : Promise.resolve(new Map()),
  ]);
  const facts = new Map<number, RecipientFacts>();
  customers.forEach((customer, i) => {
    const address = addresses[i]!;
    const wa = whatsapp.get(customer.id) as { conversationId: number; at: Date } | undefined;
    facts.set(customer.id, {
      customer,
      address,
      suppressed: address !== null && suppressed.has(address.trim().toLowerCase()),
      recentDeliveries: recent.get(customer.id) ?? 0,
      timezone: customerTimezone(customer) ?? ctx.businessTz,
      whatsapp: wa
        ? { conversationId: wa.conversationId, windowOpen: wa.at.getTime() + WINDOW_MS > now.getTime() }
        : null,
    });
  });
  return facts;
}

// ---- One recipient ----

const stopped = (customerId: number, stop: GuardrailStop, send?: Partial<DeliveryDraft>): DeliveryDraft => ({
  customerId,
  status: stop.status,
  reason: stop.reason,
  guardrail: stop.guardrail,
  templateId: send?.templateId ?? null,
  variables: send?.variables ?? {},
  subject: send?.subject ?? null,
  body: send?.body ?? null,
});

const skipped = (customerId: number, reason: string): DeliveryDraft =>
  stopped(customerId, { status: 'skipped', guardrail: null, reason });

type SendAsk = {
  templateId: number | null;
  variables: Record<string, unknown>;
  subject: string | null;
  body: string | null;
  reason: string;
};

/**
 * A send the model asked for (its decision, or a send tool): what it needs to be whole, then the
 * send guardrails, then a delivery as the send mode (and the tool's approval) says.
 */
function applySend(
  ctx: RunContext,
  facts: RecipientFacts,
  ask: SendAsk,
  approval: 'auto' | 'review',
  steps: StepDraft[],
): DeliveryDraft {
  const customerId = facts.customer.id;
  const channel = ctx.run.channel;
  const configured = ctx.channel.template_id ?? null;
  // The channel's template is the business's choice: the model fills it, never swaps it.
  if (channel !== 'sms' && configured !== null && ask.templateId !== null && ask.templateId !== configured)
    return skipped(customerId, RM.templateLocked(configured, ask.templateId));
  const templateId = channel === 'sms' ? null : (ask.templateId ?? configured);
  const body = ask.body?.trim() || null;
  const subject = ask.subject?.trim() || null;
  if (channel === 'email' && templateId === null && (!subject || !body))
    return skipped(customerId, 'The model gave neither a template nor a subject and body to send.');
  if (channel === 'sms' && !body) return skipped(customerId, 'The model gave no text to send.');
  if (channel === 'sms' && [...body!].length > 1600)
    return skipped(customerId, 'The model’s text is longer than 1,600 characters.');
  if (channel === 'whatsapp' && templateId === null && !body)
    return skipped(customerId, 'The model gave neither a template nor a text to send.');
  const send = { templateId, variables: ask.variables, subject, body };
  const stop = sendStop(channel, ctx.config, facts, send, ctx.state.planned);
  if (stop) {
    steps.push(guardrailStep(customerId, stop));
    if (stop.guardrail === 'max_sends_per_run') ctx.state.stopped = stop.reason;
    return stopped(customerId, stop, send);
  }
  ctx.state.planned++;
  const mode = ctx.run.sendMode;
  const status: TAgentDeliveryStatus =
    mode === 'dry_run'
      ? 'dry_run'
      : mode === 'review' || approval === 'review'
        ? 'pending_approval'
        : 'planned';
  return { customerId, status, reason: ask.reason, guardrail: null, ...send };
}

const guardrailStep = (customerId: number, stop: GuardrailStop): StepDraft => ({
  kind: 'guardrail',
  name: stop.guardrail ?? 'recipient',
  customer_id: customerId,
  input: null,
  output: { status: stop.status, reason: stop.reason },
  duration_ms: 0,
  tokens: 0,
});

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw || '{}');
  } catch {
    return undefined;
  }
}

/** Runs one tool call of the model; answers what goes back to it, and the delivery of a send tool. */
async function runTool(
  ctx: RunContext,
  facts: RecipientFacts,
  call: LlmChatResult['toolCalls'][number],
  already: DeliveryDraft | null,
  steps: StepDraft[],
): Promise<{ result: unknown; delivery: DeliveryDraft | null }> {
  const started = performance.now();
  const customerId = facts.customer.id;
  const args = parseArgs(call.arguments);
  const record = (output: unknown) =>
    steps.push({
      kind: 'tool',
      name: call.name,
      customer_id: customerId,
      input: args ?? call.arguments,
      output,
      duration_ms: Math.round(performance.now() - started),
      tokens: 0,
    });
  if (args === undefined) {
    const result = { error: 'The arguments are not valid JSON.' };
    record(result);
    return { result, delivery: null };
  }
  const builtin = ctx.builtins.get(call.name);
  if (builtin) {
    const sendsOn = BUILTIN_TOOLS[builtin.name].sends;
    if (sendsOn === null) {
      let result: unknown;
      try {
        result = await runReadTool(
          ctx.deps.db,
          ctx.run.businessId,
          facts.customer,
          builtin.name as 'lookup_customer' | 'customer_conversations' | 'list_templates',
          args,
        );
      } catch (err) {
        result = { error: err instanceof z.ZodError ? 'The arguments do not fit the tool.' : messageOf(err) };
      }
      record(result);
      return { result, delivery: null };
    }
    if (already) {
      const result = { error: 'A message to this customer is already recorded in this run.' };
      record(result);
      return { result, delivery: null };
    }
    const schema =
      sendsOn === 'email' ? ZSendEmailArgs : sendsOn === 'sms' ? ZSendSmsArgs : ZSendWhatsappArgs;
    const parsed = schema.safeParse(args);
    if (!parsed.success) {
      const result = { error: 'The arguments do not fit the tool.' };
      record(result);
      return { result, delivery: null };
    }
    const a = parsed.data as {
      template_id?: number | null;
      subject?: string | null;
      body?: string | null;
      variables?: { name: string; value: string }[];
      reason: string;
    };
    const delivery = applySend(
      ctx,
      facts,
      {
        templateId: a.template_id ?? null,
        variables: variablesOf(a.variables ?? []),
        subject: a.subject ?? null,
        body: a.body ?? null,
        reason: a.reason,
      },
      builtin.approval,
      steps,
    );
    const result = { status: delivery.status, message: outcomeWords(delivery) };
    record(result);
    return { result, delivery };
  }
  const outside = ctx.external.get(call.name);
  if (outside) {
    if (outside.approval === 'review') {
      const result = { error: 'This tool needs a person’s approval for each call; runs cannot use it.' };
      record(result);
      return { result, delivery: null };
    }
    const answer = await callExternalTool(ctx.deps.external, ctx.run.businessId, outside, args);
    const result = answer.ok ? answer.output : { error: answer.error };
    record(result);
    return { result, delivery: null };
  }
  const result = { error: `There is no tool named ${call.name}.` };
  record(result);
  return { result, delivery: null };
}

function outcomeWords(d: DeliveryDraft): string {
  switch (d.status) {
    case 'planned':
      return 'Recorded: it will be sent.';
    case 'pending_approval':
      return 'Recorded: it waits for a person’s approval.';
    case 'dry_run':
      return 'Recorded as a dry run: nothing is sent.';
    default:
      return `Not sent: ${d.reason}`;
  }
}

/**
 * One recipient: the guardrails known beforehand, then the conversation with the model (tool
 * calls and their answers, within max_steps and max_tokens), then its decision.
 */
async function decide(
  ctx: RunContext,
  facts: RecipientFacts,
  now: Date,
  steps: StepDraft[],
): Promise<DeliveryDraft> {
  const customer = facts.customer;
  const before = recipientStop(ctx.run.channel, ctx.config, facts, now);
  // A preview during quiet hours still asks the model: it shows what would be sent, and when.
  const quietPreview = before?.guardrail === 'quiet_hours' && ctx.run.trigger === 'preview';
  if (before) {
    if (before.guardrail) steps.push(guardrailStep(customer.id, before));
    if (!quietPreview) return stopped(customer.id, before);
  }
  const delivery = await consult(ctx, facts, now, steps);
  const quiet = ctx.config.quiet_hours;
  if (!quietPreview || !quiet || delivery.status !== 'dry_run') return delivery;
  const at = wallClockWords(quietHoursEnd(now, facts.timezone, quiet.end), facts.timezone);
  return { ...delivery, reason: `${RM.wouldSendAt(at, quiet.start, quiet.end)} ${delivery.reason}`.trim() };
}

/** The conversation with the model for one recipient the guardrails let through, and its decision. */
async function consult(
  ctx: RunContext,
  facts: RecipientFacts,
  now: Date,
  steps: StepDraft[],
): Promise<DeliveryDraft> {
  const customer = facts.customer;
  const { max_steps: maxSteps, max_tokens: maxTokens } = ctx.config.limits;
  const user = JSON.stringify({
    customer: customerForModel(customer),
    channel: ctx.run.channel,
    ...(ctx.run.channel === 'whatsapp' ? { whatsapp_window_open: facts.whatsapp?.windowOpen ?? false } : {}),
    now: now.toISOString(),
    customer_time_zone: facts.timezone,
  });
  const messages: LlmMessage[] = [
    { role: 'system', content: ctx.system },
    { role: 'user', content: user },
  ];
  let delivery: DeliveryDraft | null = null;
  let used = 0;
  let sentFrom = 1;
  for (let step = 0; step < maxSteps;) {
    if (used >= maxTokens) {
      const reason = RM.maxTokens(maxTokens);
      steps.push(errorStep(customer.id, 'max_tokens', reason));
      return delivery ?? skipped(customer.id, reason);
    }
    const started = performance.now();
    let result: LlmChatResult;
    try {
      result = await ctx.llm.chat({
        messages,
        ...(ctx.tools.length > 0 ? { tools: ctx.tools, toolChoice: 'auto' as const } : {}),
        responseFormat: ctx.responseFormat,
        maxTokens: Math.max(16, maxTokens - used),
      });
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      ctx.state.llmErrorsInRow++;
      steps.push({
        kind: 'error',
        name: `llm_${err.kind}`,
        customer_id: customer.id,
        input: { messages: messages.slice(sentFrom) },
        output: { error: err.message, attempts: err.details.attempts ?? 1 },
        duration_ms: Math.round(performance.now() - started),
        tokens: 0,
      });
      if (ctx.state.llmErrorsInRow >= LLM_ERRORS_TO_FAIL) throw new RunFailure(err.message);
      return delivery ?? skipped(customer.id, `The AI model failed: ${err.message}`);
    }
    ctx.state.llmErrorsInRow = 0;
    step++;
    const tokens = result.usage?.totalTokens ?? 0;
    used += tokens;
    ctx.state.promptTokens += result.usage?.promptTokens ?? 0;
    ctx.state.completionTokens += result.usage?.completionTokens ?? 0;
    steps.push({
      kind: 'llm',
      name: ctx.llm.model,
      customer_id: customer.id,
      // The system prompt is the same for every recipient: the first step of a run shows it.
      input: { messages: messages.slice(sentFrom) },
      output: {
        content: result.content,
        tool_calls: result.toolCalls.map((c) => ({
          name: c.name,
          arguments: parseArgs(c.arguments) ?? c.arguments,
        })),
        finish_reason: result.finishReason,
      },
      duration_ms: result.durationMs,
      tokens,
    });
    if (result.toolCalls.length > 0) {
      messages.push(result.message);
      sentFrom = messages.length;
      for (const call of result.toolCalls) {
        if (step >= maxSteps) break;
        step++;
        const out = await runTool(ctx, facts, call, delivery, steps);
        if (out.delivery) delivery = out.delivery;
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(out.result ?? null) });
      }
      // Every call needs its answer before the model is asked again.
      const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
      for (const call of result.toolCalls)
        if (!answered.has(call.id))
          messages.push({
            role: 'tool',
            tool_call_id: call.id,
            content: JSON.stringify({ error: RM.maxSteps(maxSteps) }),
          });
      continue;
    }
    let decision: ModelDecision;
    try {
      decision = parseStructured(result.content, ctx.schema);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      steps.push(errorStep(customer.id, 'invalid_output', LLM_ERRORS.invalidOutput, err.details.issues));
      return delivery ?? skipped(customer.id, LLM_ERRORS.invalidOutput);
    }
    // A send tool already recorded this recipient's message: the decision only explains it.
    if (delivery) return delivery;
    if (!decision.send) return skipped(customer.id, decision.reason || 'The model decided not to send.');
    return applySend(
      ctx,
      facts,
      {
        templateId: decision.template_id,
        variables: variablesOf(decision.variables),
        subject: decision.subject,
        body: decision.body,
        reason: decision.reason,
      },
      'auto',
      steps,
    );
  }
  const reason = RM.maxSteps(maxSteps);
  steps.push(errorStep(customer.id, 'max_steps', reason));
  return delivery ?? skipped(customer.id, reason);
}

const errorStep = (customerId: number | null, name: string, error: string, detail?: unknown): StepDraft => ({
  kind: 'error',
  name,
  customer_id: customerId,
  input: null,
  output: { error, ...(detail !== undefined ? { detail } : {}) },
  duration_ms: 0,
  tokens: 0,
});

/** Runs `fn` over `items`, `limit` at a time, answers in the items' order. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Decides a page of recipients: their deliveries and steps (in recipient order). */
export async function decidePage(
  ctx: RunContext,
  customers: CustomerRow[],
): Promise<{ deliveries: DeliveryDraft[]; steps: StepDraft[] }> {
  const now = new Date();
  const facts = await factsFor(ctx, customers, now);
  const results = await pool(customers, ctx.deps.concurrency ?? 8, async (c) => {
    const steps: StepDraft[] = [];
    if (ctx.state.stopped) return { delivery: null, steps };
    const delivery = await decide(ctx, facts.get(c.id)!, now, steps);
    return { delivery, steps };
  });
  return {
    deliveries: results.flatMap((r) => (r.delivery ? [r.delivery] : [])),
    steps: results.flatMap((r) => r.steps),
  };
}

function costOf(price: AgentRunDeps['price'], prompt: number, completion: number): number | null {
  if (!price) return null;
  return (prompt * price.prompt + completion * price.completion) / 1_000_000;
}

/**
 * Writes a page in one transaction: its deliveries (a key already written is left alone), its
 * steps (numbered after the run's last), the cursor, the recipients considered and the tokens.
 */
export async function writePage(
  ctx: RunContext,
  page: { deliveries: DeliveryDraft[]; steps: StepDraft[]; cursor: number | null; considered: number },
  seq: { next: number },
  leaseUntil: Date | null,
): Promise<repo.RunRow> {
  const run = ctx.run;
  const prompt = ctx.state.promptTokens;
  const completion = ctx.state.completionTokens;
  ctx.state.promptTokens = 0;
  ctx.state.completionTokens = 0;
  return ctx.deps.db.transaction(async (tx) => {
    await repo.insertDeliveries(
      tx,
      page.deliveries.map((d) => ({
        runId: run.id,
        agentId: run.agentId,
        businessId: run.businessId,
        channel: run.channel,
        customerId: d.customerId,
        status: d.status,
        reason: d.reason,
        guardrail: d.guardrail,
        templateId: d.templateId,
        variables: d.variables,
        subject: d.subject,
        body: d.body,
        idempotencyKey: keyOf(run, d.customerId),
      })),
    );
    await repo.insertSteps(
      tx,
      page.steps.map((s) => ({
        runId: run.id,
        businessId: run.businessId,
        seq: seq.next++,
        kind: s.kind,
        name: s.name,
        customerId: s.customer_id,
        input: s.input ?? null,
        output: s.output ?? null,
        durationMs: s.duration_ms,
        tokens: s.tokens,
      })),
    );
    const current = (await repo.findRunById(tx, run.id))!;
    const counts = { ...current.counts, considered: (current.counts.considered ?? 0) + page.considered };
    const promptTokens = current.promptTokens + prompt;
    const completionTokens = current.completionTokens + completion;
    const updated = await repo.updateRun(tx, run.id, {
      ...(page.cursor !== null ? { cursor: page.cursor } : {}),
      counts,
      addPromptTokens: prompt,
      addCompletionTokens: completion,
      cost: costOf(ctx.deps.price, promptTokens, completionTokens),
      ...(leaseUntil ? { lockedUntil: leaseUntil } : {}),
    });
    return updated!;
  });
}

/**
 * Runs (or goes on with) a run: claimed for this worker (a lease renewed every page), pages of the
 * audience decided and written, planned deliveries sent, then finished — or failed with the reason
 * in words, the agent paused after repeated failures.
 */
export async function processRun(deps: AgentRunDeps, runId: string): Promise<void> {
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const lease = () => new Date(Date.now() + leaseMs);
  const run = await repo.claimRun(deps.db, runId, new Date(), lease());
  if (!run) return;
  if (run.attempts > MAX_RUN_ATTEMPTS) {
    await failRun(deps, run, `The run was interrupted ${MAX_RUN_ATTEMPTS} times; it gave up.`);
    return;
  }
  const seq = { next: (await repo.maxStepSeq(deps.db, run.id)) + 1 };
  const setup: StepDraft[] = [];
  let ctx: RunContext;
  try {
    if (run.trigger === 'schedule') {
      const agent = await agentsRepo.findAgentById(deps.db, run.agentId);
      if (agent && agent.status !== 'active')
        throw new RunFailure('The agent was no longer active when its run began.');
    }
    ctx = await prepareRun(deps, run, setup, { recordUnavailable: run.cursor === 0 && run.attempts === 1 });
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    await failRun(deps, run, err.message, setup);
    return;
  }
  // A page is written (and its sends made) while the next one is decided: the model's answers and
  // the database's work overlap. Writes stay in page order, each after the one before.
  let pending: Promise<void> = Promise.resolve();
  // The lease is renewed while a page is decided too: a slow model must not let it lapse mid-page
  // (another worker would take the run over and ask the model again).
  const heartbeat = setInterval(
    () => void repo.updateRun(deps.db, run.id, { lockedUntil: lease() }).catch(() => undefined),
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  try {
    ctx.state.planned = passed((await repo.countDeliveries(deps.db, [run.id])).get(run.id) ?? {});
    // A worker that died after writing a page may have left sends to make.
    await deliverPlanned(deps, ctx.run, ctx.channel);
    let cursor = run.cursor;
    let first = true;
    const pageSize = deps.pageSize ?? 100;
    for (;;) {
      const { customers, last } = await audiencePage(ctx, cursor, pageSize);
      if (last === null) break;
      // Recipients a killed attempt already wrote are not asked again.
      const done = await repo.existingKeys(
        deps.db,
        customers.map((c) => keyOf(run, c.id)),
      );
      const todo = customers.filter((c) => !done.has(keyOf(run, c.id)));
      const page = await decidePage(ctx, todo);
      await pending;
      const steps = first ? [...setup, ...page.steps] : page.steps;
      first = false;
      // Called at once: writePage takes the tokens counted so far before anything else runs.
      const written = writePage(
        ctx,
        { deliveries: page.deliveries, steps, cursor: last, considered: page.deliveries.length },
        seq,
        lease(),
      );
      pending = (async () => {
        ctx.run = await written;
        if (run.sendMode === 'auto') await deliverPlanned(deps, ctx.run, ctx.channel);
      })();
      // Awaited before the next write or at the end; until then a failure must not go unhandled.
      pending.catch(() => undefined);
      cursor = last;
      if (ctx.state.stopped) break;
    }
    await pending;
    if (first && setup.length > 0)
      ctx.run = await writePage(
        ctx,
        { deliveries: [], steps: setup, cursor: null, considered: 0 },
        seq,
        null,
      );
    if (ctx.state.stopped)
      await repo.insertSteps(deps.db, [
        {
          runId: run.id,
          businessId: run.businessId,
          seq: seq.next++,
          kind: 'guardrail',
          name: 'max_sends_per_run',
          output: { reason: ctx.state.stopped, stopped: true },
        },
      ]);
    const waiting = await repo.countPending(deps.db, run.id);
    await finishRun(deps.db, run, {
      status: waiting > 0 ? 'awaiting_approval' : 'completed',
      finishedAt: new Date(),
      lockedUntil: null,
    });
  } catch (err) {
    // The page being written finishes first (or fails too): the run's row is then final.
    await pending.catch(() => undefined);
    if (err instanceof RunFailure) {
      // What was decided before the failure is kept; the run says why it stopped.
      await failRun(deps, ctx.run, err.message);
      return;
    }
    deps.logger.error({ err, run_id: run.id }, 'agent run failed unexpectedly');
    await failRun(deps, ctx.run, `The run stopped on an unexpected error: ${messageOf(err)}`);
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A run's final row, and `agent_run.finished` in the same transaction (the webhooks outbox) for
 * every run but a preview (a preview sends nothing and is nobody's business but the editor's).
 */
async function finishRun(
  db: Db,
  run: repo.RunRow,
  values: {
    status: 'completed' | 'awaiting_approval' | 'failed';
    error?: string;
    finishedAt: Date;
    lockedUntil: null;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await repo.updateRun(tx, run.id, values);
    if (row) await recordRunFinished(tx, row, values.finishedAt);
  });
}

/** `agent_run.finished` with the run as the API summarises it, in the caller's transaction. */
async function recordRunFinished(tx: Queryable, row: repo.RunRow, at: Date): Promise<void> {
  if (row.trigger === 'preview') return;
  const [summary] = await summaries(tx, [row]);
  await recordEvent(tx, {
    businessId: row.businessId,
    type: 'agent_run.finished',
    objectKey: `agent:${row.agentId}`,
    data: { ...summary, run_id: row.id },
    at,
  });
}

/**
 * A run that waited for approval and whose last delivery was just decided: `completed`, and
 * `agent_run.finished` told again (now completed, with the review's outcome) in the same
 * transaction. Nothing when deliveries still wait or another review completed it first.
 */
export async function completeReviewedRun(db: Db, runId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await repo.completeReviewedRun(tx, runId);
    if (row) await recordRunFinished(tx, row, new Date());
  });
}

/** Fails a run with the reason in words; an agent whose last runs all failed is paused, saying why. */
export async function failRun(
  deps: AgentRunDeps,
  run: repo.RunRow,
  error: string,
  steps: StepDraft[] = [],
): Promise<void> {
  const seq = (await repo.maxStepSeq(deps.db, run.id)) + 1;
  await repo.insertSteps(
    deps.db,
    [...steps, errorStep(null, 'run_failed', error)].map((s, i) => ({
      runId: run.id,
      businessId: run.businessId,
      seq: seq + i,
      kind: s.kind,
      name: s.name,
      customerId: s.customer_id,
      input: s.input ?? null,
      output: s.output ?? null,
      durationMs: s.duration_ms,
      tokens: s.tokens,
    })),
  );
  await finishRun(deps.db, run, {
    status: 'failed',
    error,
    finishedAt: new Date(),
    lockedUntil: null,
  });
  if (run.trigger === 'preview') return;
  const statuses = await repo.latestFinishedStatuses(deps.db, run.agentId, FAILURES_TO_PAUSE);
  if (statuses.length < FAILURES_TO_PAUSE || statuses.some((s) => s !== 'failed')) return;
  const agent = await agentsRepo.findAgentById(deps.db, run.agentId);
  if (agent?.status !== 'active') return;
  await agentsRepo.updateAgent(deps.db, agent.businessId, agent.id, {
    status: 'paused',
    statusReason: RM.pausedAfterFailures(FAILURES_TO_PAUSE),
  });
  deps.logger.warn({ agent_id: agent.id, run_id: run.id }, 'agent paused after repeated failed runs');
}

// ---- Schedules become runs ----

/**
 * Consumes fired schedule slots (claimed with `for update skip locked`): one run per channel of
 * the agent's current config, unique per agent × channel × slot, so consuming twice creates
 * nothing twice. Fires of agents no longer active are consumed without a run. Answers the runs
 * created (their jobs are sent).
 */
export async function consumeFires(deps: AgentRunDeps, now = new Date()): Promise<string[]> {
  const created: string[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const fires = await agentsRepo.claimFires(tx, 50);
      for (const fire of fires) {
        const agent = await agentsRepo.findAgentById(tx, fire.agentId);
        if (agent && agent.status === 'active' && agent.configVersion !== null) {
          const [current] = await agentsRepo.findConfigVersions(tx, agent.businessId, [agent.id], 'current');
          for (const c of current?.config.channels ?? []) {
            const run = await repo.insertRun(tx, {
              agentId: agent.id,
              businessId: agent.businessId,
              channel: c.channel,
              slot: fire.slot,
              trigger: 'schedule',
              configVersion: current!.version,
              sendMode: current!.config.send_mode,
            });
            if (run) created.push(run.id);
          }
        }
        await agentsRepo.markFireConsumed(tx, fire.id, now);
      }
      return fires.length;
    });
    if (batch < 50) break;
  }
  for (const id of created) await deps.jobs.send(RUN_QUEUE, { run_id: id });
  return created;
}

/** Runs whose worker died (their lease lapsed): handed to a worker again. */
export async function resumeStaleRuns(deps: AgentRunDeps, now = new Date()): Promise<number> {
  const stale = await repo.findStaleRuns(deps.db, now, 100);
  for (const run of stale) await deps.jobs.send(RUN_QUEUE, { run_id: run.id }, { singletonKey: run.id });
  return stale.length;
}
