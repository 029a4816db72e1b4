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
  AGENT_RUN_MESSAGES as RM,
  LLM_MESSAGES,
  ZAgentDecision,
  type TAgentChannel,
  type TAgentConfigValues,
  type TAgentDelivery,
  type TAgentDeliveryStatus,
  type TAgentRendered,
  type TAgentRunCounts,
  type TAgentRunSummary,
  type TAgentRunStep,
  type TSendTemplateComponent,
  type TSegmentFilter,
} from '@titan/contracts';
import { z } from 'zod';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import {
  jsonSchemaOf,
  LlmError,
  parseStructured,
  type LlmChatResult,
  type LlmMessage,
  type LlmResponseFormat,
  type LlmTool,
} from '../../platform/llm/llm.client';
import { findBusinessById } from '../business/business.repository';
import { businessScope } from '../conversations/conversations.service';
import { listSelection, type ListSelection } from '../customer-lists/customer-lists.service';
import {
  findCustomersByIds,
  segmentCustomers,
  segmentCustomersAmong,
  type CustomerRow,
} from '../directory/directory.service';
import {
  buildSend,
  EMAIL_MESSAGES,
  enqueueEmailSends,
  sendContext,
  type EmailDeps,
} from '../email/email.service';
import { openLlm, resolveLlm, type LlmDeps, type LlmSession } from '../llm/llm.service';
import * as sends from '../sends/sends.service';
import {
  buildSmsSend,
  e164Of,
  enqueueSmsSends,
  smsContext,
  SMS_SEND_MESSAGES,
  type SmsDeps,
} from '../sms/sms.service';
import { normalizeAddress, suppressedAmong } from '../suppressions/suppressions.service';
import { loadCompiledTemplate, renderCompiled } from '../templates/templates.service';
import type { WhatsappDeps } from '../whatsapp/messages/whatsapp.outbound';
import { sendMessage as sendWhatsappText, WINDOW_MS } from '../whatsapp/messages/whatsapp.send';
import {
  findTemplateById as findWhatsappTemplate,
  lastCustomerMessagesOf,
  renderTemplate,
  sendTemplate,
  toTemplate,
} from '../whatsapp/templates/whatsapp.templates';
import {
  callExternalTool,
  prepareExternalTools,
  type ExternalTool,
  type ExternalToolDeps,
} from './agents.external-tools';
import {
  customerTimezone,
  recipientStop,
  sendStop,
  type GuardrailStop,
  type RecipientFacts,
} from './agents.guardrails';
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
    config: { NODE_ENV: string; PUBLIC_URL: string; LLM_PRICE_PER_MILLION_TOKENS?: AgentRunDeps['price'] };
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
      production: s.config.NODE_ENV === 'production',
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

type StepDraft = Omit<TAgentRunStep, 'seq' | 'created_at'>;

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

type ChannelConfig = TAgentConfigValues['channels'][number];

type RunContext = {
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

class RunFailure extends Error {}

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
async function prepareRun(
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
  const [schedule] = await agentsRepo.findSchedules(deps.db, run.businessId, [agent.id]);

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
    businessTz: schedule?.timezone ?? 'UTC',
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
async function audiencePage(
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
  const templateId = channel === 'sms' ? null : (ask.templateId ?? ctx.channel.template_id ?? null);
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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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
  if (before) {
    if (before.guardrail) steps.push(guardrailStep(customer.id, before));
    return stopped(customer.id, before);
  }
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
      steps.push(errorStep(customer.id, 'invalid_output', LLM_MESSAGES.invalidOutput, err.details.issues));
      return delivery ?? skipped(customer.id, LLM_MESSAGES.invalidOutput);
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
async function decidePage(
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
async function writePage(
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

/** Deliveries of a run that passed the guardrails so far (whatever became of them). */
function passed(counts: Partial<Record<TAgentDeliveryStatus, number>>): number {
  return (Object.entries(counts) as [TAgentDeliveryStatus, number][])
    .filter(([s]) => s !== 'suppressed' && s !== 'skipped')
    .reduce((n, [, c]) => n + c, 0);
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
    await repo.updateRun(deps.db, run.id, {
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
  }
}

/** Fails a run with the reason in words; an agent whose last runs all failed is paused, saying why. */
async function failRun(
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
  await repo.updateRun(deps.db, run.id, {
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

// ---- Deliveries become sends ----

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain-text body as simple HTML: paragraphs and line breaks. */
export function htmlOfText(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** A WhatsApp template's components from the delivery's variables (by placeholder name or position). */
function componentsOf(
  template: ReturnType<typeof toTemplate>,
  variables: Record<string, unknown>,
): TSendTemplateComponent[] {
  const named = (template.parameter_format ?? '').toUpperCase() === 'NAMED';
  const params = (names: string[]) =>
    names.map((name) => ({
      type: 'text' as const,
      text: String(variables[name] ?? '').trim() || '-',
      ...(named ? { parameter_name: name } : {}),
    }));
  const out: TSendTemplateComponent[] = [];
  if (template.header_format === 'TEXT' && template.header_parameter_names.length > 0)
    out.push({ type: 'header', parameters: params(template.header_parameter_names) });
  if (template.body_parameter_names.length > 0)
    out.push({ type: 'body', parameters: params(template.body_parameter_names) });
  return out;
}

/** A WhatsApp delivery as a send (Meta is called at once); answers the send. */
async function sendWhatsapp(
  deps: AgentRunDeps,
  run: repo.RunRow,
  d: repo.DeliveryRow,
): Promise<{ sendId: string; status: string; error: string | null }> {
  const common = {
    businessId: run.businessId,
    cause: 'agent' as const,
    causeId: run.id,
    idempotencyKey: d.idempotencyKey,
  };
  // WhatsApp: the spine's idempotency key answers a send already made.
  const existing = await sends.findByIdempotencyKey(deps.db, run.businessId, d.idempotencyKey);
  if (existing) return { sendId: existing.id, status: existing.status, error: existing.errorMessage };
  const [customer] = await findCustomersByIds(deps.db, run.businessId, [d.customerId]);
  if (!customer) throw new AppError('not_found', 'The customer no longer exists.');
  const conversation = (await lastCustomerMessagesOf(deps.db, run.businessId, [customer.id])).get(
    customer.id,
  );
  const origin = { ...common, customerId: customer.id };
  const scope = businessScope(run.businessId);
  if (d.templateId !== null) {
    const row = await findWhatsappTemplate(deps.db, run.businessId, d.templateId);
    if (!row) throw new AppError('not_found', 'The WhatsApp template no longer exists.');
    const phone = e164Of(customer.phone);
    await sendTemplate(
      deps.whatsapp,
      { scope, userId: null },
      {
        ...(conversation ? { conversation_id: conversation.conversationId } : { to: phone ?? '' }),
        name: row.name,
        language: row.language,
        components: componentsOf(toTemplate(row), d.variables),
      },
      origin,
    );
  } else {
    if (!conversation)
      throw new AppError('conflict', 'The customer has no WhatsApp conversation to write in.');
    await sendWhatsappText(
      deps.whatsapp,
      scope,
      null,
      conversation.conversationId,
      { type: 'text', text: { body: d.body ?? '' }, recipient_type: 'individual' },
      origin,
    );
  }
  const sent = await sends.findByIdempotencyKey(deps.db, run.businessId, d.idempotencyKey);
  if (!sent) throw new Error('the WhatsApp send was not recorded');
  return { sendId: sent.id, status: sent.status, error: sent.errorMessage };
}

const FAILED_SEND = new Set(['failed', 'bounced', 'complained', 'cancelled']);

function failureWords(err: unknown): string {
  const fields =
    err instanceof AppError && err.result && typeof err.result === 'object'
      ? Object.values(err.result as Record<string, unknown>).flatMap((v) =>
          Array.isArray(v) ? v.map(String) : [],
        )
      : [];
  return [messageOf(err), ...fields.filter((f) => f !== messageOf(err))].join(' ');
}

type Outcome = Parameters<typeof repo.setDeliveryOutcomes>[1][number];

const customerVars = (c: CustomerRow) => ({
  ...c.fields,
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  external_id: c.externalId,
});

/**
 * A batch of email or SMS deliveries become sends the way a broadcast's do: the channel's context
 * (sender, template) made once, each message built, the suppression list asked once, the sends and
 * the deliveries' outcomes written in one transaction (a send already recorded under the same
 * idempotency key is answered, never made twice), then the queued sends handed to the channel's job.
 */
async function deliverBatch(
  deps: AgentRunDeps,
  run: repo.RunRow,
  channel: ChannelConfig,
  batch: repo.DeliveryRow[],
  contexts: Map<string, Promise<unknown>>,
): Promise<void> {
  const businessId = run.businessId;
  const cached = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let p = contexts.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      p.catch(() => undefined);
      contexts.set(key, p);
    }
    return p;
  };
  const customers = new Map(
    (await findCustomersByIds(deps.db, businessId, [...new Set(batch.map((d) => d.customerId))])).map((c) => [
      c.id,
      c,
    ]),
  );
  const outcomes: Outcome[] = [];
  const built: { d: repo.DeliveryRow; send: sends.QueuedSend & { id: string; idempotencyKey: string } }[] =
    [];
  for (const d of batch) {
    const c = customers.get(d.customerId);
    if (!c) {
      outcomes.push({ id: d.id, status: 'failed', sendId: null, reason: 'The customer no longer exists.' });
      continue;
    }
    const common = { businessId, cause: 'agent' as const, causeId: run.id, idempotencyKey: d.idempotencyKey };
    try {
      if (d.channel === 'sms') {
        const ctx = await cached('sms', () => smsContext(deps.sms, { businessId }));
        const number = e164Of(c.phone);
        if (!number) throw new AppError('bad_request', SMS_SEND_MESSAGES.badCustomerPhone);
        const send = buildSmsSend(
          ctx,
          { ...common, body: d.body ?? '' },
          { number, customerId: c.id, customer: customerVars(c) },
        );
        built.push({ d, send: { ...send, idempotencyKey: d.idempotencyKey } });
      } else {
        const template = d.templateId !== null ? { id: d.templateId, variables: d.variables } : undefined;
        const ctx = await cached(`email:${d.templateId ?? ''}`, () =>
          sendContext(deps.email, { businessId, from: channel.from, ...(template ? { template } : {}) }),
        );
        const address = c.email?.trim();
        if (!address) throw new AppError('bad_request', EMAIL_MESSAGES.noCustomerEmail);
        const send = buildSend(
          deps.email,
          ctx,
          {
            ...common,
            ...(template
              ? { template }
              : { subject: d.subject ?? '', html: htmlOfText(d.body ?? ''), text: d.body ?? '' }),
          },
          { address, customerId: c.id, customer: customerVars(c) },
        );
        built.push({ d, send: { ...send, idempotencyKey: d.idempotencyKey } });
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcomes.push({ id: d.id, status: 'failed', sendId: null, reason: failureWords(err) });
    }
  }
  const sendChannel = run.channel === 'sms' ? 'sms' : 'email';
  const suppressed = await suppressedAmong(
    deps.db,
    businessId,
    sendChannel,
    built.map((b) => b.send.recipient),
  );
  const suppressedWords =
    sendChannel === 'sms' ? SMS_SEND_MESSAGES.suppressed() : EMAIL_MESSAGES.suppressed();
  const rows = built.map((b) =>
    suppressed.has(normalizeAddress(b.send.recipient))
      ? { ...b.send, status: 'suppressed' as const, errorMessage: suppressedWords }
      : { ...b.send, status: 'queued' as const },
  );
  const queued: string[] = [];
  await deps.db.transaction(async (tx) => {
    const written = new Set((await sends.createMany(tx, rows)).map((w) => w.id));
    for (const [i, row] of rows.entries()) {
      const d = built[i]!.d;
      if (written.has(row.id)) {
        if (row.status === 'queued') queued.push(row.id);
        outcomes.push({
          id: d.id,
          status: row.status === 'queued' ? 'sent' : 'suppressed',
          sendId: row.id,
          reason: row.status === 'queued' ? null : suppressedWords,
        });
        continue;
      }
      // Recorded before (a worker died after the sends, before their deliveries said so).
      const existing = await sends.findByIdempotencyKey(tx, businessId, row.idempotencyKey);
      outcomes.push({
        id: d.id,
        status: !existing
          ? 'failed'
          : existing.status === 'suppressed'
            ? 'suppressed'
            : FAILED_SEND.has(existing.status)
              ? 'failed'
              : 'sent',
        sendId: existing?.id ?? null,
        reason: existing?.errorMessage ?? (existing ? null : 'The send could not be recorded.'),
      });
    }
    await repo.setDeliveryOutcomes(tx, outcomes);
  });
  if (queued.length > 0)
    await (sendChannel === 'sms' ? enqueueSmsSends(deps.jobs, queued) : enqueueEmailSends(deps.jobs, queued));
}

/** Sends a run's planned and approved deliveries; each records its send, or why it failed. */
async function deliverPlanned(deps: AgentRunDeps, run: repo.RunRow, channel: ChannelConfig): Promise<number> {
  let n = 0;
  const contexts = new Map<string, Promise<unknown>>();
  for (;;) {
    const batch = await repo.deliveriesToSend(deps.db, run.id, 100);
    if (batch.length === 0) return n;
    n += batch.length;
    if (run.channel !== 'whatsapp') {
      await deliverBatch(deps, run, channel, batch, contexts);
      continue;
    }
    for (const d of batch) {
      try {
        const send = await sendWhatsapp(deps, run, d);
        await repo.setDeliveryOutcome(deps.db, d.id, {
          status:
            send.status === 'suppressed' ? 'suppressed' : FAILED_SEND.has(send.status) ? 'failed' : 'sent',
          sendId: send.sendId,
          ...(send.error ? { reason: send.error } : {}),
        });
      } catch (err) {
        if (!(err instanceof AppError))
          deps.logger.error({ err, delivery_id: d.id }, 'agent delivery failed');
        await repo.setDeliveryOutcome(deps.db, d.id, { status: 'failed', reason: failureWords(err) });
      }
    }
  }
}

/** The `agents.deliver` job: sends what was approved in a run. */
export async function deliverRun(deps: AgentRunDeps, runId: string): Promise<number> {
  const run = await repo.findRunById(deps.db, runId);
  if (!run) return 0;
  const [version] = (await agentsRepo.findConfigVersions(deps.db, run.businessId, [run.agentId])).filter(
    (v) => v.version === run.configVersion,
  );
  const channel = version?.config.channels.find((c) => c.channel === run.channel) ?? { channel: run.channel };
  return deliverPlanned(deps, run, channel);
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

// ---- The API ----

async function mustFindAgent(deps: AgentRunDeps, businessId: number, agentId: number) {
  const agent = await agentsRepo.findAgent(deps.db, businessId, agentId);
  if (!agent) throw AppError.notFound('Agent not found.');
  return agent;
}

async function currentConfig(deps: AgentRunDeps, agent: agentsRepo.AgentRow) {
  if (agent.configVersion === null) throw new AppError('conflict', RM.noConfig);
  const [current] = await agentsRepo.findConfigVersions(deps.db, agent.businessId, [agent.id], 'current');
  if (!current) throw new AppError('conflict', RM.noConfig);
  return current;
}

/** 409 saying so when no model is configured: before a run or a preview starts. */
async function requireModel(deps: AgentRunDeps, businessId: number): Promise<void> {
  if (!(await resolveLlm(deps.llm, businessId))) throw new AppError('conflict', LLM_MESSAGES.notConfigured);
}

function countsOf(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunCounts {
  const n = (s: TAgentDeliveryStatus) => byStatus[s] ?? 0;
  return {
    considered: run.counts.considered ?? 0,
    planned: passed(byStatus),
    pending_approval: n('pending_approval'),
    rejected: n('rejected'),
    sent: n('sent'),
    failed: n('failed'),
    suppressed: n('suppressed'),
    skipped: n('skipped'),
    dry_run: n('dry_run'),
  };
}

function toSummary(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunSummary {
  return {
    id: run.id,
    agent_id: run.agentId,
    channel: run.channel,
    status: run.status,
    trigger: run.trigger,
    config_version: run.configVersion,
    send_mode: run.sendMode,
    slot_at: run.slot.toISOString(),
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    counts: countsOf(run, byStatus),
    tokens: run.promptTokens + run.completionTokens,
    prompt_tokens: run.promptTokens,
    completion_tokens: run.completionTokens,
    cost: run.cost,
    error: run.error,
  };
}

async function summaries(db: Db, runs: repo.RunRow[]): Promise<TAgentRunSummary[]> {
  const counts = await repo.countDeliveries(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((r) => toSummary(r, counts.get(r.id) ?? {}));
}

export async function listAgentRuns(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  query: {
    channel?: TAgentChannel;
    status?: repo.RunRow['status'];
    trigger?: repo.RunRow['trigger'];
    page: number;
    page_size: number;
  },
) {
  await mustFindAgent(deps, businessId, agentId);
  const { rows, count } = await repo.listRuns(
    deps.db,
    businessId,
    agentId,
    query,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: await summaries(deps.db, rows),
  };
}

async function toDeliveries(db: Db, businessId: number, rows: repo.DeliveryRow[]): Promise<TAgentDelivery[]> {
  const customers = await findCustomersByIds(db, businessId, [...new Set(rows.map((r) => r.customerId))]);
  const byId = new Map(customers.map((c) => [c.id, c]));
  return rows.map((d) => {
    const c = byId.get(d.customerId);
    return {
      id: d.id,
      run_id: d.runId,
      channel: d.channel,
      customer: c ? { id: c.id, name: c.name ?? '', email: c.email, phone: c.phone } : null,
      status: d.status,
      reason: d.reason,
      guardrail: (d.guardrail as TAgentDelivery['guardrail']) ?? null,
      template_id: d.templateId,
      variables: d.variables,
      subject: d.subject,
      body: d.body,
      send_id: d.sendId,
      created_at: d.createdAt.toISOString(),
      updated_at: d.updatedAt.toISOString(),
    };
  });
}

const toStep = (s: repo.StepRow): TAgentRunStep => ({
  seq: s.seq,
  kind: s.kind,
  name: s.name,
  customer_id: s.customerId,
  input: s.input,
  output: s.output,
  duration_ms: s.durationMs,
  tokens: s.tokens,
  created_at: s.createdAt.toISOString(),
});

async function mustFindRun(deps: AgentRunDeps, businessId: number, agentId: number, runId: string) {
  await mustFindAgent(deps, businessId, agentId);
  const run = await repo.findRun(deps.db, businessId, agentId, runId);
  if (!run) throw AppError.notFound(RM.runNotFound);
  return run;
}

export async function findAgentRun(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  runId: string,
  query: { page: number; page_size: number; delivery_status?: TAgentDeliveryStatus },
) {
  const run = await mustFindRun(deps, businessId, agentId, runId);
  const offset = (query.page - 1) * query.page_size;
  const [steps, deliveries, [summary]] = await Promise.all([
    repo.listSteps(deps.db, run.id, query.page_size, offset),
    repo.listDeliveries(deps.db, run.id, { status: query.delivery_status }, query.page_size, offset),
    summaries(deps.db, [run]),
  ]);
  return {
    ...summary!,
    steps: steps.rows.map(toStep),
    steps_count: steps.count,
    deliveries: await toDeliveries(deps.db, businessId, deliveries.rows),
    deliveries_count: deliveries.count,
  };
}

/** Approves or rejects deliveries waiting in a run's review queue; approved ones become sends. */
export async function reviewRun(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  runId: string,
  userId: number | null,
  action: 'approved' | 'rejected',
  body: { delivery_ids?: string[]; all?: true },
) {
  const run = await mustFindRun(deps, businessId, agentId, runId);
  let ids: string[] | 'all' = 'all';
  if (body.delivery_ids) {
    ids = [...new Set(body.delivery_ids)];
    const found = await repo.findDeliveriesOfRun(deps.db, run.id, ids);
    const waiting = new Set(found.filter((d) => d.status === 'pending_approval').map((d) => d.id));
    const wrong = ids.filter((id) => !waiting.has(id));
    if (wrong.length > 0)
      throw AppError.fields({ delivery_ids: [`${RM.unknownDeliveries} (${wrong.join(', ')})`] });
  }
  const updated = await repo.reviewDeliveries(deps.db, run.id, ids, action, userId);
  if (action === 'approved' && updated.length > 0) {
    if (updated.length <= 100) await deliverRun(deps, run.id);
    else await deps.jobs.send(DELIVER_QUEUE, { run_id: run.id });
  }
  if (run.status === 'awaiting_approval' && (await repo.countPending(deps.db, run.id)) === 0)
    await repo.updateRun(deps.db, run.id, { status: 'completed' });
  const [summary] = await summaries(deps.db, [(await repo.findRunById(deps.db, run.id))!]);
  return { updated: updated.length, run: summary! };
}

/** Starts a manual run on each channel (or one): 202 with the runs, which go on in the background. */
export async function runNow(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  userId: number | null,
  body: { channel?: TAgentChannel },
) {
  const agent = await mustFindAgent(deps, businessId, agentId);
  if (agent.status === 'archived') throw new AppError('conflict', RM.archived);
  const current = await currentConfig(deps, agent);
  const channels = current.config.channels.filter((c) => !body.channel || c.channel === body.channel);
  if (channels.length === 0) throw AppError.fields({ channel: [RM.channelNotConfigured] });
  await requireModel(deps, businessId);
  const slot = new Date();
  const runs: repo.RunRow[] = [];
  for (const c of channels) {
    const run =
      (await repo.insertRun(deps.db, {
        agentId,
        businessId,
        channel: c.channel,
        slot,
        trigger: 'manual',
        configVersion: current.version,
        sendMode: current.config.send_mode,
        createdBy: userId,
      })) ?? (await repo.findRunBySlot(deps.db, agentId, c.channel, slot))!;
    runs.push(run);
    await deps.jobs.send(RUN_QUEUE, { run_id: run.id }, { singletonKey: run.id });
  }
  return { runs: await summaries(deps.db, runs) };
}

/** What a delivery would look like to the recipient. */
async function render(
  deps: AgentRunDeps,
  businessId: number,
  businessName: string,
  customer: CustomerRow | undefined,
  d: repo.DeliveryRow,
): Promise<TAgentRendered | null> {
  if (d.status !== 'dry_run' && d.status !== 'planned' && d.status !== 'pending_approval') return null;
  try {
    if (d.channel === 'whatsapp' && d.templateId !== null) {
      const row = await findWhatsappTemplate(deps.db, businessId, d.templateId);
      if (!row) return { subject: null, text: '(the WhatsApp template no longer exists)', html: null };
      return {
        subject: null,
        text: renderTemplate(row, componentsOf(toTemplate(row), d.variables)).content,
        html: null,
      };
    }
    if (d.channel === 'email' && d.templateId !== null) {
      const template = await loadCompiledTemplate(deps.db, businessId, d.templateId);
      if (!template) return { subject: null, text: '(the template no longer exists)', html: null };
      const mail = renderCompiled(template, {
        customer: customer
          ? {
              ...customer.fields,
              id: customer.id,
              name: customer.name,
              email: customer.email,
              phone: customer.phone,
            }
          : {},
        business: { name: businessName },
        unsubscribe_url: '#unsubscribe',
        ...d.variables,
      });
      return { subject: mail.subject, text: mail.text || null, html: mail.html };
    }
    return {
      subject: d.channel === 'email' ? d.subject : null,
      text: d.body,
      html: d.channel === 'email' && d.body ? htmlOfText(d.body) : null,
    };
  } catch (err) {
    return { subject: null, text: `(it cannot be rendered: ${messageOf(err)})`, html: null };
  }
}

/**
 * A dry run on up to 20 recipients (the audience's first, or the customers named), decided now
 * and recorded as a run (trigger preview): what would be sent to whom, rendered.
 */
export async function previewAgent(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  userId: number | null,
  body: { channel?: TAgentChannel; customer_ids?: number[]; sample_size: number },
) {
  const agent = await mustFindAgent(deps, businessId, agentId);
  const current = await currentConfig(deps, agent);
  const channel = body.channel ?? current.config.channels[0]!.channel;
  if (!current.config.channels.some((c) => c.channel === channel))
    throw AppError.fields({ channel: [RM.channelNotConfigured] });
  const named = body.customer_ids
    ? await findCustomersByIds(deps.db, businessId, [...new Set(body.customer_ids)])
    : null;
  if (named && body.customer_ids) {
    const found = new Set(named.map((c) => c.id));
    const unknown = body.customer_ids.filter((id) => !found.has(id));
    if (unknown.length > 0)
      throw AppError.fields({ customer_ids: [`${RM.unknownCustomers} (${unknown.join(', ')})`] });
  }
  await requireModel(deps, businessId);
  const run = (await repo.insertRun(deps.db, {
    agentId,
    businessId,
    channel,
    slot: new Date(),
    trigger: 'preview',
    configVersion: current.version,
    sendMode: 'dry_run',
    createdBy: userId,
    lockedUntil: new Date(Date.now() + 10 * 60_000),
    attempts: 1,
  }))!;
  const setup: StepDraft[] = [];
  let ctx: RunContext;
  try {
    ctx = await prepareRun(deps, run, setup, { recordUnavailable: true });
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    await failRun(deps, run, err.message, setup);
    throw new AppError('conflict', err.message);
  }
  const customers =
    named ?? (await audiencePage(ctx, 0, body.sample_size)).customers.slice(0, body.sample_size);
  const seq = { next: 1 };
  try {
    const page = await decidePage(ctx, customers);
    ctx.run = await writePage(
      ctx,
      {
        deliveries: page.deliveries,
        steps: [...setup, ...page.steps],
        cursor: null,
        considered: page.deliveries.length,
      },
      seq,
      null,
    );
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    await failRun(deps, ctx.run, err.message);
    throw new AppError('bad_gateway', err.message);
  }
  await repo.updateRun(deps.db, run.id, { status: 'completed', finishedAt: new Date(), lockedUntil: null });
  const { rows } = await repo.listDeliveries(deps.db, run.id, {}, 100, 0);
  const business = await findBusinessById(deps.db, businessId);
  const byId = new Map(customers.map((c) => [c.id, c]));
  const deliveries = await toDeliveries(deps.db, businessId, rows);
  const items = await Promise.all(
    rows.map(async (row, i) => ({
      ...deliveries[i]!,
      rendered: await render(deps, businessId, business?.name ?? '', byId.get(row.customerId), row),
    })),
  );
  const [summary] = await summaries(deps.db, [(await repo.findRunById(deps.db, run.id))!]);
  return { run: summary!, items };
}
