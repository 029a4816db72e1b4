// The LLM (engage.md §6): a business's own OpenAI-compatible model in Settings (`/api/config/llm/`),
// else the server's (LLM_BASE_URL, LLM_MODEL), else none — and the AI email template generation
// (`POST /api/template/gpt-prompt-email/`, engage.md §2), whole or streamed as server-sent events.
import { z } from 'zod';
import { ZFieldErrors } from './envelope';

/** Which settings the AI features use: the business's own, the server's, or none at all. */
export const LLM_SOURCES = ['business', 'server', 'none'] as const;
export const ZLlmSource = z.enum(LLM_SOURCES);
export type TLlmSource = z.infer<typeof ZLlmSource>;

/** What the AI features answer and show when something about the model goes wrong. */
export const LLM_ERRORS = {
  /** 409 from every AI feature while no model is configured. */
  notConfigured:
    'No AI model is set up for this business. An owner or admin can connect an OpenAI-compatible model in Settings → AI model; the server administrator can also set LLM_BASE_URL and LLM_MODEL for every business.',
  unauthorized: 'The AI provider refused the API key (HTTP 401). Check the API key in Settings → AI model.',
  forbidden:
    'The AI provider refused access (HTTP 403): the API key may not be allowed to use this model. Check it in Settings → AI model.',
  insufficientQuota:
    'The AI provider says the quota of this API key is used up (HTTP 429). Check the plan and billing at the provider.',
  rateLimited: 'The AI provider is rate limiting requests (HTTP 429). Try again in a minute.',
  unreachable: 'The AI provider could not be reached. Check the base URL in Settings → AI model.',
  unreadable:
    'The AI provider answered something that is not an OpenAI-compatible chat completion. Check that the base URL is the API root (it usually ends in /v1).',
  invalidOutput: 'The AI model did not answer in the expected format.',
  templateDidNotCompile:
    'The AI model wrote a template that does not compile, even after one repair attempt. Try again, or reword the prompt.',
  httpsRequired: 'Use an https:// URL for the AI provider.',
  privateAddress: 'This URL points at a private or local network address, which is not allowed.',
  hostNotFound: 'The host name of this URL could not be found.',
} as const;

export function llmModelNotFoundMessage(model: string): string {
  return `The AI provider has no model named “${model}” (HTTP 404). Check the model name in Settings → AI model.`;
}

export function llmProviderDownMessage(status: number): string {
  return `The AI provider is not answering properly (HTTP ${status}). Try again in a few minutes.`;
}

export function llmTimeoutMessage(seconds: number): string {
  return `The AI model did not answer within ${seconds} seconds. Try again, or choose a faster model.`;
}

export function llmRefusedMessage(status: number, detail: string): string {
  return `The AI provider refused the request (HTTP ${status})${detail ? `: ${detail}` : '.'}`;
}

/** `GET /api/config/llm/`: the business's own settings (the key is never answered) and what is in use. */
export const ZLlmSettings = z.object({
  /** The business's own model; null when it uses the server's (or none). */
  base_url: z.string().nullable(),
  model: z.string().nullable(),
  has_api_key: z.boolean(),
  /** Which settings the AI features use now. */
  source: ZLlmSource,
  /** The model the AI features call (the business's, else the server's); null when none. */
  effective_model: z.string().nullable(),
  /** The embedding model knowledge-base search uses (the business's, else the server's); null: full text only. */
  embedding_model: z.string().nullable(),
  configured: z.boolean(),
  updated_at: z.string().nullable(),
  /** Calls to the model and their tokens over the last 30 days, whichever settings were used. */
  usage_30d: z.object({
    calls: z.number().int(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
  }),
});
export type TLlmSettings = z.infer<typeof ZLlmSettings>;

/**
 * `PUT /api/config/llm/`. `api_key` is write-only and sealed at rest: omitted keeps the stored key,
 * null removes it (local models often need none).
 */
export const ZSaveLlmSettingsRequest = z.object({
  base_url: z
    .url({
      protocol: /^https?$/,
      message: 'Enter the http(s):// URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1.',
    })
    .trim()
    .max(500)
    .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), {
      message: 'Put the key in the API key field, not in the URL.',
    })
    .transform((v) => v.replace(/\/+$/, '')),
  model: z.string().trim().min(1, { message: 'Enter the model name, e.g. gpt-4o-mini.' }).max(200),
  api_key: z.string().trim().min(1).max(2000).nullish(),
  /** A model for `/embeddings` at the same server (hybrid knowledge search); null or omitted: none. */
  embedding_model: z.string().trim().min(1).max(200).nullish(),
});
export type TSaveLlmSettingsRequest = z.input<typeof ZSaveLlmSettingsRequest>;

/** `POST /api/config/llm/test/`: one short call to the model in use; a failed call is an answer too. */
export const ZLlmTestResult = z.object({
  ok: z.boolean(),
  source: ZLlmSource,
  model: z.string(),
  /** The model's reply when it answered, else why it did not. */
  message: z.string(),
  duration_ms: z.number().int(),
});
export type TLlmTestResult = z.infer<typeof ZLlmTestResult>;

// ---- AI email templates ----

export const AI_TEMPLATE_LIMITS = { promptMax: 4000, toneMax: 100, audienceMax: 300 } as const;

export const ZGenerateEmailTemplateRequest = z.object({
  prompt: z
    .string()
    .trim()
    .min(3, { message: 'Describe the email you want in a few words.' })
    .max(AI_TEMPLATE_LIMITS.promptMax),
  tone: z.string().trim().max(AI_TEMPLATE_LIMITS.toneMax).optional(),
  audience: z.string().trim().max(AI_TEMPLATE_LIMITS.audienceMax).optional(),
});
export type TGenerateEmailTemplateRequest = z.infer<typeof ZGenerateEmailTemplateRequest>;

/** A generated template, compiled before it was answered: ready for `POST /api/template/`. */
export const ZGeneratedEmailTemplate = z.object({
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  format: z.literal('mjml'),
  content: z.string(),
});
export type TGeneratedEmailTemplate = z.infer<typeof ZGeneratedEmailTemplate>;

/**
 * The streamed form (`Accept: text/event-stream` or `?stream=true`): `event: <type>` with this JSON
 * as `data`. Text arrives as `delta`s (the model's raw answer), `status` says what is happening, and
 * the stream ends with one `result` or one `error` (`status` is the HTTP status the whole form would
 * have answered; `errors` the compile errors of a 422).
 */
export const AI_TEMPLATE_STAGES = ['generating', 'compiling', 'repairing'] as const;
export const ZEmailTemplateStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), stage: z.enum(AI_TEMPLATE_STAGES), attempt: z.number().int() }),
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('result'), template: ZGeneratedEmailTemplate }),
  z.object({
    type: z.literal('error'),
    status: z.number().int(),
    message: z.string(),
    errors: ZFieldErrors.optional(),
  }),
]);
export type TEmailTemplateStreamEvent = z.infer<typeof ZEmailTemplateStreamEvent>;
