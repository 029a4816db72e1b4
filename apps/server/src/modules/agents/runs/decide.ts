// One recipient: the guardrails, the conversation with the model and its tools, the decision
// checked and turned into a delivery draft and steps.
import { AGENT_RUN_ERRORS as RM, LLM_ERRORS, type TAgentDeliveryStatus } from '@titan/contracts';
import { z } from 'zod';
import {
  LlmError,
  parseStructured,
  type LlmChatResult,
  type LlmMessage,
} from '../../../platform/llm/llm.client';
import {
  quietHoursEnd,
  wallClockWords,
  recipientStop,
  sendStop,
  type GuardrailStop,
  type RecipientFacts,
} from '../agents.guardrails';
import { messageOf } from '../agents.deliveries';
import {
  BUILTIN_TOOLS,
  customerForModel,
  runReadTool,
  variablesOf,
  ZSendEmailArgs,
  ZSendSmsArgs,
  ZSendWhatsappArgs,
} from '../agents.tools';
import { LLM_ERRORS_TO_FAIL } from './deps';
import {
  type DeliveryDraft,
  type ModelDecision,
  type RunContext,
  RunFailure,
  type StepDraft,
} from './prompt';

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
          ctx.deps,
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
    const answer = await ctx.deps.ports.callExternalTool(
      ctx.deps.external,
      ctx.run.businessId,
      outside,
      args,
    );
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
export async function decide(
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

export const errorStep = (
  customerId: number | null,
  name: string,
  error: string,
  detail?: unknown,
): StepDraft => ({
  kind: 'error',
  name,
  customer_id: customerId,
  input: null,
  output: { error, ...(detail !== undefined ? { detail } : {}) },
  duration_ms: 0,
  tokens: 0,
});
