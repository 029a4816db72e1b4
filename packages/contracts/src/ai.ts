// The AI in the inbox (next-api.md "Knowledge and AI in the inbox"): a chat group's first responder
// that answers customers from the knowledge base and hands off to a person, the runs every AI
// answer is logged as, and the staff copilot (suggested reply, rewrite, summary).
import { z } from 'zod';
import { ZKbArticle } from './knowledge';

export const AI_RESPONDER_MODES = ['off', 'always', 'after_hours'] as const;
/** Where the first responder answers: the widget, WhatsApp, SMS and email. */
export const AI_RESPONDER_CHANNELS = ['widget', 'whatsapp', 'email', 'sms'] as const;
export const AI_RUN_KINDS = [
  'responder',
  'suggest_reply',
  'summarize',
  'rewrite',
  'article_draft',
  'ask',
] as const;
/** `answered`: the AI replied; `handed_off`: it passed the conversation to a person. */
export const AI_RUN_STATUSES = ['running', 'answered', 'handed_off', 'done', 'failed'] as const;
export const AI_REWRITE_ACTIONS = ['improve', 'shorten', 'translate'] as const;
export const AI_RUN_RATINGS = ['good', 'bad'] as const;

export const AI_LIMITS = {
  topicsMax: 20,
  topicMax: 100,
  maxTurnsMax: 50,
  textMax: 10_000,
  questionMax: 1000,
} as const;

const TURNS_MESSAGE = `Enter a whole number from 1 to ${AI_LIMITS.maxTurnsMax}.`;
const CONFIDENCE_MESSAGE = 'Enter a number from 0 to 1, such as 0.6.';
const BUDGET_MESSAGE = 'Enter a whole number of tokens (0: no limit).';

/**
 * An outside tool the responder may call (a connected MCP server's or plugin's, e.g. an order
 * lookup). Offered only when it takes the customer's identity (an argument named customer_id,
 * customer_email, email, customer_phone or phone), which Titan fills with the conversation's
 * customer: the model never chooses whose data it reads.
 */
export const ZAiResponderTool = z.object({
  source: z.enum(['mcp', 'plugin'], { message: 'Choose an MCP server or a plugin.' }),
  server_id: z.number({ message: 'Choose a connection.' }).int().positive(),
  name: z.string().trim().min(1, { message: 'Choose a tool.' }).max(128),
});
export type TAiResponderTool = z.infer<typeof ZAiResponderTool>;
/** The arguments Titan fills with the conversation's customer (never the model). */
export const AI_CUSTOMER_ARGUMENTS = [
  'customer_id',
  'customer_email',
  'email',
  'customer_phone',
  'phone',
] as const;

export const ZAiResponderSettings = z.object({
  mode: z.enum(AI_RESPONDER_MODES).default('off'),
  channels: z.array(z.enum(AI_RESPONDER_CHANNELS)).max(AI_RESPONDER_CHANNELS.length).default(['widget']),
  handoff: z
    .object({
      /** AI answers in a row before the conversation goes to a person. */
      max_turns: z
        .number({ message: TURNS_MESSAGE })
        .int({ message: TURNS_MESSAGE })
        .min(1, { message: TURNS_MESSAGE })
        .max(AI_LIMITS.maxTurnsMax, { message: TURNS_MESSAGE })
        .default(5),
      /** Topics only a person handles (e.g. "refund disputes"): a question about one is handed off. */
      human_only_topics: z
        .array(z.string().trim().min(1).max(AI_LIMITS.topicMax))
        .max(AI_LIMITS.topicsMax)
        .default([]),
      /** Below this confidence (0–1, the model's own verdict) the AI hands off. */
      min_confidence: z
        .number({ message: CONFIDENCE_MESSAGE })
        .min(0, { message: CONFIDENCE_MESSAGE })
        .max(1, { message: CONFIDENCE_MESSAGE })
        .default(0.6),
    })
    .default({ max_turns: 5, human_only_topics: [], min_confidence: 0.6 }),
  /** Tokens a month the responder may spend for the business; past it, it hands off. 0: no limit. */
  monthly_token_budget: z
    .number({ message: BUDGET_MESSAGE })
    .int({ message: BUDGET_MESSAGE })
    .min(0, { message: BUDGET_MESSAGE })
    .max(1_000_000_000, { message: BUDGET_MESSAGE })
    .default(500_000),
  /** Outside tools it may call, scoped to the business and the conversation's customer. */
  tools: z.array(ZAiResponderTool).max(10, { message: 'Choose at most 10 tools.' }).default([]),
});
export type TAiResponderSettings = z.infer<typeof ZAiResponderSettings>;
/** A group whose responder was never set: off. */
export const DEFAULT_AI_RESPONDER: TAiResponderSettings = ZAiResponderSettings.parse({});
export type TAiResponderSettingsInput = z.input<typeof ZAiResponderSettings>;

export const ZAiSource = z.object({ article_id: z.number().int(), title: z.string(), url: z.string() });
export type TAiSource = z.infer<typeof ZAiSource>;

export const ZAiRunStep = z.object({
  type: z.enum(['retrieval', 'model', 'tool', 'guardrail', 'handoff', 'reply']),
  at: z.string(),
  summary: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TAiRunStep = z.infer<typeof ZAiRunStep>;

export const ZAiRun = z.object({
  id: z.string(),
  kind: z.enum(AI_RUN_KINDS),
  status: z.enum(AI_RUN_STATUSES),
  conversation_id: z.number().int().nullable(),
  outcome: z.string().nullable(),
  steps: z.array(ZAiRunStep),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  rating: z.enum(AI_RUN_RATINGS).nullable(),
  /** Why staff rated it so (may be empty), who did and when. */
  rating_reason: z.string().nullable(),
  rated_by: z.number().int().nullable(),
  rated_at: z.string().nullable(),
  /** 2 when the run was interrupted (its process stopped) and taken up again. */
  attempts: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TAiRun = z.infer<typeof ZAiRun>;

// ----- Staff rating of AI answers: PUT /api/ai/runs/{id}/rating/, GET /api/ai/report/ -----

const REASON_MAX = 1000;
export const ZAiRateRequest = z.strictObject({
  /** good / bad; null takes the rating back. */
  rating: z.enum(AI_RUN_RATINGS, { message: 'Choose good or bad.' }).nullable(),
  reason: z
    .string()
    .trim()
    .max(REASON_MAX, { message: `Keep the reason under ${REASON_MAX} characters.` })
    .optional(),
});
export type TAiRateRequest = z.infer<typeof ZAiRateRequest>;

export const ZAiReportQuery = z.strictObject({
  /** The period (ISO dates or times); by default the last 30 days. */
  from: z.iso
    .datetime({ offset: true, message: 'Enter a date and time such as 2026-05-01T00:00:00Z.' })
    .optional(),
  to: z.iso
    .datetime({ offset: true, message: 'Enter a date and time such as 2026-05-31T23:59:59Z.' })
    .optional(),
});
export type TAiReportQuery = z.infer<typeof ZAiReportQuery>;

/** How the first responder did in a period: answers, handoffs (by reason) and staff ratings. */
export const ZAiReport = z.object({
  from: z.string(),
  to: z.string(),
  runs: z.number().int(),
  answered: z.number().int(),
  handed_off: z.number().int(),
  handoff_reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  rated_good: z.number().int(),
  rated_bad: z.number().int(),
  /** Share of rated answers staff rated good (null: none rated). */
  good_rate: z.number().nullable(),
  tokens: z.number().int(),
  /** The newest answers staff rated bad, with why: what to fix in the knowledge base. */
  recent_bad: z.array(
    z.object({
      run_id: z.string(),
      conversation_id: z.number().int().nullable(),
      reason: z.string().nullable(),
      rated_at: z.string(),
    }),
  ),
});
export type TAiReport = z.infer<typeof ZAiReport>;

// ----- The staff copilot: POST /api/ai/suggest-reply/, /api/ai/rewrite/, /api/ai/summarize/ -----

export const ZAiConversationRequest = z.strictObject({ conversation_id: z.number().int().positive() });
export type TAiConversationRequest = z.infer<typeof ZAiConversationRequest>;

export const ZAiRewriteRequest = z.strictObject({
  text: z.string().trim().min(1, { message: 'Write something to rewrite first.' }).max(AI_LIMITS.textMax),
  action: z.enum(AI_REWRITE_ACTIONS),
  /** The language to translate into (translate only). */
  locale: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/, {
      message: 'Enter a language code such as en, de or pt-BR.',
    })
    .optional(),
});
export type TAiRewriteRequest = z.infer<typeof ZAiRewriteRequest>;

/** A copilot answer: text for staff to edit (never sent by itself), its sources, and its run. */
export const ZAiCopilotAnswer = z.object({
  content: z.string(),
  sources: z.array(ZAiSource),
  run_id: z.string(),
});
export type TAiCopilotAnswer = z.infer<typeof ZAiCopilotAnswer>;

// ----- A staff reply turned into a help-centre article draft: POST /api/ai/article-drafts/ -----

export const ZAiArticleDraftRequest = z.strictObject({
  conversation_id: z.number().int().positive(),
  /** The staff reply (one of the conversation's latest 200 messages). */
  message_id: z.union([z.number().int().positive(), z.string().min(1).max(200)]),
});
export type TAiArticleDraftRequest = z.infer<typeof ZAiArticleDraftRequest>;

/** The draft article created (status draft, for staff to edit and publish), and how it was written. */
export const ZAiArticleDraft = z.object({
  article: ZKbArticle,
  /** true: the business's model wrote title and body from the question and the reply; false: the reply as written. */
  written_by_model: z.boolean(),
  /** Said plainly to staff when no model wrote it (none configured). */
  notice: z.string().nullable(),
  run_id: z.string().nullable(),
});
export type TAiArticleDraft = z.infer<typeof ZAiArticleDraft>;

// ----- The copilot's "Ask" box: POST /api/ai/ask/ -----

export const ZAiAskRequest = z.strictObject({
  conversation_id: z.number().int().positive(),
  question: z
    .string()
    .trim()
    .min(1, { message: 'Write a question first.' })
    .max(AI_LIMITS.questionMax, { message: `Keep the question under ${AI_LIMITS.questionMax} characters.` }),
});
export type TAiAskRequest = z.infer<typeof ZAiAskRequest>;

/**
 * An answer for staff from the published articles and the conversation, with the articles it used.
 * Without a configured model there is no answer (`answer` null): `notice` says so and `sources`
 * are the articles that match the question best.
 */
export const ZAiAskAnswer = z.object({
  answer: z.string().nullable(),
  sources: z.array(ZAiSource),
  notice: z.string().nullable(),
  run_id: z.string().nullable(),
});
export type TAiAskAnswer = z.infer<typeof ZAiAskAnswer>;

/** Why the responder handed a conversation to a person (a run's `outcome` when it did). */
export const AI_HANDOFF_REASONS = [
  'customer_asked',
  'human_only_topic',
  'max_turns',
  'budget',
  'no_model',
  'no_sources',
  'low_confidence',
  'model_verdict',
  'unsupported_claims',
  'model_error',
  'channel',
  'interrupted',
] as const;
export type TAiHandoffReason = (typeof AI_HANDOFF_REASONS)[number];

/** GET /api/ai/runs/?conversation_id=: a conversation's AI runs, newest first. */
export const ZAiRunListQuery = z.strictObject({
  conversation_id: z.coerce.number().int().positive(),
});
export const ZAiRunList = z.object({ results: z.array(ZAiRun) });

export const AI_ERRORS = {
  runNotFound: 'This AI run does not exist.',
  translateLocale: 'Choose the language to translate into.',
  emptyConversation: 'This conversation has no messages to work from yet.',
  notAnAnswer: 'Only the first responder’s finished answers and handoffs can be rated.',
  reportPeriod: 'Choose a start before the end.',
  unknownTool: 'No MCP server or plugin connection of this business has this id.',
  messageNotFound: 'This message is not among the conversation’s latest 200 messages.',
  notAStaffReply: 'Only a reply your team sent to the customer can become an article.',
  noModelDraft:
    'No AI model is configured for this business (Settings → AI model), so the draft is the reply as written, titled with the customer’s question. Edit it before publishing.',
  noModelAsk:
    'No AI model is configured for this business (Settings → AI model), so there is no written answer: these are the published articles that match your question best.',
} as const;
