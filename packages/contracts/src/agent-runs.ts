// AI agents' runs (engage.md §5): one run per agent × channel × slot, its steps (LLM calls, tool
// calls, guardrail decisions, errors) and its deliveries (one per recipient, each becoming a send),
// the review queue (approve / reject), the preview (a dry run on sample recipients), run now, and
// the tools an agent may use.
import { z } from 'zod';
import { AGENT_SEND_MODES, ZAgentChannel } from './agents';
import { PAGE_SIZE_MAX } from './constants';

export const AGENT_RUN_TRIGGERS = ['schedule', 'manual', 'preview', 'journey'] as const;
export const ZAgentRunTrigger = z.enum(AGENT_RUN_TRIGGERS);
export type TAgentRunTrigger = z.infer<typeof ZAgentRunTrigger>;

/**
 * running: the loop is going through the audience; awaiting_approval: done deciding, deliveries
 * wait in the review queue; completed: nothing left to do; failed: stopped with `error`.
 */
export const AGENT_RUN_STATUSES = ['running', 'awaiting_approval', 'completed', 'failed'] as const;
export const ZAgentRunStatus = z.enum(AGENT_RUN_STATUSES);
export type TAgentRunStatus = z.infer<typeof ZAgentRunStatus>;

export const AGENT_STEP_KINDS = ['llm', 'tool', 'guardrail', 'error'] as const;
export const ZAgentStepKind = z.enum(AGENT_STEP_KINDS);
export type TAgentStepKind = z.infer<typeof ZAgentStepKind>;

/**
 * planned: passed the guardrails, about to become a send (auto mode); pending_approval: waiting in
 * the review queue; approved: approved, becoming a send; rejected: rejected in review; sent: a send
 * was recorded (send_id); failed: the send could not be made (reason); suppressed: a guardrail
 * stopped it (reason); skipped: the model decided not to send, or could not decide (reason);
 * dry_run: recorded only (dry-run mode and previews).
 */
export const AGENT_DELIVERY_STATUSES = [
  'planned',
  'pending_approval',
  'approved',
  'rejected',
  'sent',
  'failed',
  'suppressed',
  'skipped',
  'dry_run',
] as const;
export const ZAgentDeliveryStatus = z.enum(AGENT_DELIVERY_STATUSES);
export type TAgentDeliveryStatus = z.infer<typeof ZAgentDeliveryStatus>;

/** The guardrails every send tool passes before a delivery is written (engage.md §5). */
export const AGENT_GUARDRAILS = [
  'consent',
  'suppression',
  'per_recipient_cap',
  /** The business's marketing frequency cap, shared with campaigns and journeys. */
  'frequency_cap',
  'max_sends_per_run',
  'quiet_hours',
  'whatsapp_window',
] as const;
export const ZAgentGuardrail = z.enum(AGENT_GUARDRAILS);
export type TAgentGuardrail = z.infer<typeof ZAgentGuardrail>;

export const AGENT_RUN_ERRORS = {
  runNotFound: 'Run not found.',
  noConfig: 'Give the agent a configuration before running it.',
  archived: 'This agent is archived; restore it before running it.',
  channelNotConfigured: 'This channel is not among the agent’s channels.',
  notInReview: 'Only deliveries waiting for approval can be approved or rejected.',
  unknownDeliveries: 'These deliveries are not waiting for approval in this run.',
  idsOrAll: 'Send delivery_ids or all: true.',
  unknownCustomers: 'These customers are not in your business.',
  notInAudience: 'These customers are not in the agent’s audience.',
  /** A read tool asked about anyone but the recipient being decided (a prompt injection, or a confused model). */
  otherCustomer: (id: number) =>
    `Refused: this tool reads only the customer this decision is about (id ${id}); other customers are not yours to see.`,
  /** A preview during quiet hours: what the model would send, and when quiet hours let it go. */
  wouldSendAt: (when: string, start: string, end: string) =>
    `Would send at ${when}, when quiet hours (${start}–${end}) end.`,
  /** The model named a template other than the one the agent's channel is set to. */
  templateLocked: (configured: number, asked: number) =>
    `Refused: this channel sends template ${configured}; the model may not switch it to template ${asked}.`,
  maxSteps: (n: number) => `Stopped at the limit of ${n} steps for one recipient.`,
  maxTokens: (n: number) => `Stopped at the limit of ${n} tokens for one recipient.`,
  pausedAfterFailures: (n: number) =>
    `Paused after ${n} failed runs in a row. Check the last run's error, then activate the agent again.`,
} as const;

// ---- Runs ----

export const ZAgentRunCounts = z.object({
  /** Recipients the run went through. */
  considered: z.number().int(),
  /** Deliveries that passed the guardrails, whatever became of them afterwards. */
  planned: z.number().int(),
  pending_approval: z.number().int(),
  rejected: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** Stopped by a guardrail. */
  suppressed: z.number().int(),
  /** The model chose not to send, or could not decide. */
  skipped: z.number().int(),
  /** Recorded only (dry run, preview). */
  dry_run: z.number().int(),
});
export type TAgentRunCounts = z.infer<typeof ZAgentRunCounts>;

/** A run as listed: `GET /api/agents/{id}/runs/?channel=`. */
export const ZAgentRunSummary = z.object({
  id: z.string(),
  agent_id: z.number().int(),
  channel: ZAgentChannel,
  status: ZAgentRunStatus,
  trigger: ZAgentRunTrigger,
  /** The config version the run used. */
  config_version: z.number().int(),
  send_mode: z.enum(AGENT_SEND_MODES),
  /** The schedule slot (or the moment of a manual run / preview). */
  slot_at: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  counts: ZAgentRunCounts,
  /** Tokens used by every LLM call of the run. */
  tokens: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  /** In US dollars, when the model's price is known (LLM_PRICE_PER_MILLION_TOKENS); else null. */
  cost: z.number().nullable(),
  /** Why the run failed, in words; null otherwise. */
  error: z.string().nullable(),
});
export type TAgentRunSummary = z.infer<typeof ZAgentRunSummary>;

export const ZAgentRunListQuery = z.strictObject({
  channel: ZAgentChannel.optional(),
  status: ZAgentRunStatus.optional(),
  trigger: ZAgentRunTrigger.optional(),
  /** `real`: the runs that could send (previews apart); `preview`: the previews alone. */
  kind: z.enum(['real', 'preview'], { message: 'Choose real or preview.' }).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(20),
});
export type TAgentRunListQuery = z.input<typeof ZAgentRunListQuery>;

export const ZAgentRunStep = z.object({
  seq: z.number().int(),
  kind: ZAgentStepKind,
  /** llm: the model; tool: the tool's name; guardrail: which guardrail; error: what failed. */
  name: z.string(),
  /** The recipient the step was about; null for run-level steps. */
  customer_id: z.number().int().nullable(),
  input: z.unknown(),
  output: z.unknown(),
  duration_ms: z.number().int(),
  tokens: z.number().int(),
  created_at: z.string(),
});
export type TAgentRunStep = z.infer<typeof ZAgentRunStep>;

export const ZAgentDeliveryCustomer = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

/** What the recipient would get (or got), rendered. */
export const ZAgentRendered = z.object({
  subject: z.string().nullable(),
  text: z.string().nullable(),
  html: z.string().nullable(),
});
export type TAgentRendered = z.infer<typeof ZAgentRendered>;

export const ZAgentDelivery = z.object({
  id: z.string(),
  run_id: z.string(),
  channel: ZAgentChannel,
  /** Null when the customer has since been deleted. */
  customer: ZAgentDeliveryCustomer.nullable(),
  status: ZAgentDeliveryStatus,
  /** The model's reason to send or not, or the guardrail / failure that decided, in words. */
  reason: z.string(),
  /** The guardrail that stopped it (status suppressed); null otherwise. */
  guardrail: ZAgentGuardrail.nullable(),
  template_id: z.number().int().nullable(),
  variables: z.record(z.string(), z.unknown()),
  /** Written by the model when no template is used (SMS always; email without a template). */
  subject: z.string().nullable(),
  body: z.string().nullable(),
  /** The send it became (link to the send's page); null until then. */
  send_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TAgentDelivery = z.infer<typeof ZAgentDelivery>;

export const ZAgentRunDetailQuery = z.strictObject({
  /** Pages through deliveries and steps alike. */
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(100),
  delivery_status: ZAgentDeliveryStatus.optional(),
});
export type TAgentRunDetailQuery = z.input<typeof ZAgentRunDetailQuery>;

/** `GET /api/agents/{id}/runs/{runId}/`. */
export const ZAgentRun = ZAgentRunSummary.extend({
  steps: z.array(ZAgentRunStep),
  steps_count: z.number().int(),
  deliveries: z.array(ZAgentDelivery),
  /** With the delivery_status filter applied. */
  deliveries_count: z.number().int(),
});
export type TAgentRun = z.infer<typeof ZAgentRun>;

// ---- Review queue ----

/** `POST …/runs/{runId}/approve/` and `…/reject/`. */
export const ZAgentReviewRequest = z
  .object({
    delivery_ids: z
      .array(z.uuid({ message: 'Enter delivery ids as given by the run.' }))
      .min(1)
      .max(1000)
      .optional(),
    all: z.literal(true).optional(),
  })
  .refine((v) => (v.delivery_ids === undefined) !== (v.all === undefined), {
    message: AGENT_RUN_ERRORS.idsOrAll,
    path: ['non_field_errors'],
  });
export type TAgentReviewRequest = z.infer<typeof ZAgentReviewRequest>;

export const ZAgentReviewResult = z.object({
  /** How many deliveries were approved (or rejected) by this request. */
  updated: z.number().int(),
  run: ZAgentRunSummary,
});
export type TAgentReviewResult = z.infer<typeof ZAgentReviewResult>;

// ---- Preview and run now ----

export const AGENT_PREVIEW_MAX = 20;

/** `POST /api/agents/{id}/preview/`: a dry run on up to 20 recipients of the audience. */
export const ZAgentPreviewRequest = z.object({
  /** Default: the agent's first channel. */
  channel: ZAgentChannel.optional(),
  /** Particular customers of the audience; default: the first of the audience. */
  customer_ids: z.array(z.number().int().positive()).min(1).max(AGENT_PREVIEW_MAX).optional(),
  sample_size: z.number().int().min(1).max(AGENT_PREVIEW_MAX).default(5),
});
export type TAgentPreviewRequest = z.input<typeof ZAgentPreviewRequest>;

export const ZAgentPreviewItem = ZAgentDelivery.extend({
  /** What would be sent, rendered; null when nothing would be sent. */
  rendered: ZAgentRendered.nullable(),
});
export type TAgentPreviewItem = z.infer<typeof ZAgentPreviewItem>;

export const ZAgentPreviewResult = z.object({
  /** The preview is recorded as a run (trigger preview) with its steps. */
  run: ZAgentRunSummary,
  items: z.array(ZAgentPreviewItem),
});
export type TAgentPreviewResult = z.infer<typeof ZAgentPreviewResult>;

/** `POST /api/agents/{id}/run-now/`: default every channel of the agent. */
export const ZAgentRunNowRequest = z.object({ channel: ZAgentChannel.optional() });
export type TAgentRunNowRequest = z.input<typeof ZAgentRunNowRequest>;

/** Answered 202: the runs started (they go on in the background). */
export const ZAgentRunNowResult = z.object({ runs: z.array(ZAgentRunSummary) });
export type TAgentRunNowResult = z.infer<typeof ZAgentRunNowResult>;

// ---- Tools ----

/** `GET /api/agents/tools/`: what an agent may use — Titan's built-ins and connected outside tools. */
export const ZAgentToolInfo = z.object({
  source: z.enum(['builtin', 'mcp', 'plugin']),
  /** The MCP server or plugin connection; null for built-ins. */
  server_id: z.number().int().nullable(),
  /** The tool's own name (what a config's tools[].name holds). */
  name: z.string(),
  /** The name offered to the model. */
  model_name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  /** Send tools pass the guardrails and write deliveries; they never send directly. */
  sends: z.boolean(),
});
export type TAgentToolInfo = z.infer<typeof ZAgentToolInfo>;

/**
 * The structured decision the model answers per recipient. Strict structured output wants every key
 * present and no free-form maps: absent values are null, variables are name/value pairs.
 */
export const ZAgentDecision = z.object({
  send: z.boolean(),
  channel: ZAgentChannel,
  template_id: z.number().int().nullable(),
  variables: z.array(z.object({ name: z.string(), value: z.string() })),
  /** Without a template: the email's subject. */
  subject: z.string().nullable(),
  /** Without a template: the text of the SMS or email. */
  body: z.string().nullable(),
  reason: z.string(),
});
export type TAgentDecision = z.infer<typeof ZAgentDecision>;
