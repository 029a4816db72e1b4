// AI email templates (engage.md §2, `gpt-prompt-email`): the business's model writes a template —
// name, subject, preheader, MJML — as structured output, and it is compiled with the templates'
// own compiler before it is answered. A template that does not compile is sent back once with its
// errors for a repair; a second failure is a 422 naming them. Saving is the ordinary create route.
import { z } from 'zod';
import {
  LLM_ERRORS,
  type TEmailTemplateStreamEvent,
  type TFieldErrors,
  type TGenerateEmailTemplateRequest,
  type TGeneratedEmailTemplate,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import type { LlmMessage } from '../../platform/llm/llm.client';
import type { RateLimiter } from '../../platform/rate-limiter';
import { llmAppError, type LlmDeps, LlmError, type LlmSession, openLlm } from '../llm';
import { compileSource } from './templates.compile';

export type AiTemplateDeps = { llm: LlmDeps; limiter: RateLimiter };

/** Per business: generations are slow and cost the business tokens. */
export const AI_TEMPLATE_RATE_LIMITS = [
  { name: 'minute', max: 10, windowSeconds: 60 },
  { name: 'day', max: 300, windowSeconds: 24 * 60 * 60 },
] as const;

/** What the model is asked for (strict json_schema): the MJML becomes the template's content. */
const ZAiTemplateDraft = z.object({
  name: z.string().describe('A short internal name for the template'),
  subject: z.string().describe('The subject line, at most 80 characters'),
  preheader: z.string().describe('The preview text shown after the subject, at most 120 characters'),
  mjml: z.string().describe('The whole template: one MJML document'),
});
type TAiTemplateDraft = z.infer<typeof ZAiTemplateDraft>;

export const AI_TEMPLATE_SYSTEM_PROMPT = `You write email templates for a business, in MJML 4 with Liquid variables.
Answer with JSON: name (a short internal name for the template), subject (at most 80 characters), preheader (the preview text shown after the subject, at most 120 characters) and mjml (the whole template).
Rules for the MJML:
- One <mjml> document with one <mj-body>; content goes in <mj-section><mj-column>…</mj-column></mj-section>: text in <mj-text>, buttons in <mj-button href="https://…">, images in <mj-image src="https://…">.
- No <mj-include>, no scripts, no external style sheets.
- Personalise with Liquid: {{ customer.name | default: "there" }} and {{ business.name }}; use no other variables unless the brief names them. Liquid must sit inside a text component, never between components.
- Write in the language of the brief; keep the copy concise and clear, with one call to action.`;

function briefMessage(input: TGenerateEmailTemplateRequest): string {
  return [
    `Brief: ${input.prompt}`,
    `Tone: ${input.tone || 'friendly'}`,
    `Audience: ${input.audience || "the business's customers"}`,
  ].join('\n');
}

/** The compile errors as the model wrote the fields: `content` is its `mjml`. */
function repairMessage(errors: TFieldErrors): string {
  const lines = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => `- ${field === 'content' ? 'mjml' : field}: ${m}`),
  );
  return [
    'The template you wrote does not compile. Fix these problems and answer the whole corrected template in the same JSON form:',
    ...lines,
  ].join('\n');
}

const LIMITS = { name: 200, subject: 998, preheader: 500 } as const;

/** A draft with an empty name, subject or MJML cannot be a template: problems for the repair. */
function draftProblems(draft: TAiTemplateDraft): TFieldErrors | null {
  const errors: TFieldErrors = {};
  if (!draft.name.trim()) errors.name = ['The name is empty.'];
  if (!draft.subject.trim()) errors.subject = ['The subject is empty.'];
  if (!draft.mjml.trim()) errors.content = ['The MJML is empty.'];
  return Object.keys(errors).length > 0 ? errors : null;
}

export type GenerateOptions = {
  signal?: AbortSignal;
  /** Streams: the model's text as it arrives, and what is happening. */
  onEvent?: (event: Extract<TEmailTemplateStreamEvent, { type: 'status' | 'delta' }>) => void;
};

export type TemplateGeneration = { run(options?: GenerateOptions): Promise<TGeneratedEmailTemplate> };

/**
 * Checks what must hold before anything is generated — a model is configured (409 otherwise) and
 * the business is within its rate limits (429) — and answers the generation to run, so a streamed
 * answer starts only once these have passed.
 */
export async function prepareTemplateGeneration(
  deps: AiTemplateDeps,
  ctx: { businessId: number; userId: number | null },
  input: TGenerateEmailTemplateRequest,
): Promise<TemplateGeneration> {
  const llm = await openLlm(deps.llm, {
    businessId: ctx.businessId,
    purpose: 'email_template',
    userId: ctx.userId,
  });
  await deps.limiter.hit(
    ...AI_TEMPLATE_RATE_LIMITS.map((l) => ({
      key: `llm:email-template:${l.name}:${ctx.businessId}`,
      max: l.max,
      windowSeconds: l.windowSeconds,
    })),
  );
  return { run: (options = {}) => generate(llm, input, options) };
}

async function generate(
  llm: LlmSession,
  input: TGenerateEmailTemplateRequest,
  { signal, onEvent }: GenerateOptions,
): Promise<TGeneratedEmailTemplate> {
  const messages: LlmMessage[] = [
    { role: 'system', content: AI_TEMPLATE_SYSTEM_PROMPT },
    { role: 'user', content: briefMessage(input) },
  ];
  let errors: TFieldErrors = {};
  for (let attempt = 1; attempt <= 2; attempt++) {
    onEvent?.({ type: 'status', stage: attempt === 1 ? 'generating' : 'repairing', attempt });
    let raw = '';
    let draft: TAiTemplateDraft | null = null;
    try {
      const result = await llm.structured({
        name: 'email_template',
        schema: ZAiTemplateDraft,
        messages,
        signal,
        ...(onEvent ? { onDelta: (text: string) => onEvent({ type: 'delta', text }) } : {}),
      });
      raw = result.content ?? '';
      draft = result.value;
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      if (err.kind !== 'invalid_output') throw llmAppError(err);
      raw = err.details.raw ?? '';
      errors = { non_field_errors: err.details.issues ?? [LLM_ERRORS.invalidOutput] };
    }
    if (draft) {
      const problems = draftProblems(draft);
      if (problems) errors = problems;
      else {
        onEvent?.({ type: 'status', stage: 'compiling', attempt });
        const template: TGeneratedEmailTemplate = {
          name: draft.name.trim().slice(0, LIMITS.name),
          subject: draft.subject
            .replace(/[\r\n]+/g, ' ')
            .trim()
            .slice(0, LIMITS.subject),
          preheader: draft.preheader.trim().slice(0, LIMITS.preheader),
          format: 'mjml',
          content: draft.mjml,
        };
        const compiled = await compileSource({
          subject: template.subject,
          preheader: template.preheader,
          format: 'mjml',
          content: template.content,
          textContent: null,
        });
        if (compiled.ok) return template;
        errors = compiled.errors;
      }
    }
    messages.push({ role: 'assistant', content: raw }, { role: 'user', content: repairMessage(errors) });
  }
  throw new AppError('unprocessable', LLM_ERRORS.templateDidNotCompile, errors);
}
