// An OpenAI-compatible chat completions client over fetch (engage.md §6): whole or streamed (SSE)
// answers, tool calling, structured output (`response_format: json_schema`, parsed and checked with
// zod), usage per call, a timeout per call (for a stream: per piece), and new attempts with backoff
// and jitter on 429, 5xx and network errors, honouring Retry-After. The API key goes in one header
// and nowhere else: never logged, scrubbed from any provider text an error repeats.
import { z } from 'zod';
import { isAddressRefusal } from '../safe-fetch';
import {
  blockedError,
  httpError,
  isRetryable,
  LlmError,
  networkError,
  timeoutError,
  unreadableError,
  type ErrorContext,
} from './llm.errors';
import { readSse } from './llm.sse';

export { LlmError, type LlmErrorKind } from './llm.errors';

export type LlmEndpoint = { baseUrl: string; apiKey: string | null; model: string };

export type LlmToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type LlmMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function the model may call; `parameters` is a JSON Schema object (see `jsonSchemaOf`). */
export type LlmTool = {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
};

export type LlmToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type LlmResponseFormat =
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean }
  | { type: 'json_object' };

export type LlmChatRequest = {
  messages: LlmMessage[];
  tools?: LlmTool[];
  toolChoice?: LlmToolChoice;
  responseFormat?: LlmResponseFormat;
  maxTokens?: number;
  temperature?: number;
  /** Aborts the call (the user left): no new attempt is made. */
  signal?: AbortSignal;
  /** Streams the answer: called with each piece of text as it arrives. */
  onDelta?: (text: string) => void;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
};

export type LlmUsage = { promptTokens: number; completionTokens: number; totalTokens: number };

export type LlmChatResult = {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** The assistant's turn as it goes back into `messages` (after tool calls, before their results). */
  message: LlmMessage;
  finishReason: string | null;
  /** Null when the provider reported none. */
  usage: LlmUsage | null;
  model: string;
  durationMs: number;
  attempts: number;
};

export type LlmLogger = { warn(obj: Record<string, unknown>, msg: string): void };

export type LlmClientOptions = {
  timeoutMs?: number;
  maxRetries?: number;
  /** The first backoff; it doubles per attempt, with jitter, up to maxBackoffMs. */
  retryBaseMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails as rate limited. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  logger?: LlmLogger;
};

const DEFAULTS = {
  timeoutMs: 60_000,
  maxRetries: 2,
  retryBaseMs: 500,
  maxBackoffMs: 8_000,
  maxRetryAfterMs: 30_000,
};

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError('aborted', 'The call was cancelled.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError('aborted', 'The call was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in milliseconds: OpenAI's `retry-after-ms`, else seconds or an HTTP date. */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (raw.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const ZToolCall = z.object({
  id: z.string(),
  type: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
const ZUsage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().optional(),
});
const ZCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(ZToolCall).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: ZUsage.nullish(),
});
const ZChunk = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().nonnegative(),
                  id: z.string().nullish(),
                  function: z
                    .object({ name: z.string().nullish(), arguments: z.string().nullish() })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .optional(),
  usage: ZUsage.nullish(),
  error: z.unknown().optional(),
});

type Answer = Omit<LlmChatResult, 'durationMs' | 'attempts' | 'message'> & { refusal: string | null };

function usageOf(u: z.infer<typeof ZUsage> | null | undefined): LlmUsage | null {
  if (!u) return null;
  return {
    promptTokens: u.prompt_tokens,
    completionTokens: u.completion_tokens,
    totalTokens: u.total_tokens ?? u.prompt_tokens + u.completion_tokens,
  };
}

/**
 * A zod schema as the JSON Schema that `response_format` and tool `parameters` take: objects closed
 * and every property required (OpenAI's strict mode), no `$schema` key. Optional fields must be
 * written as nullable for strict mode.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** JSON that models sometimes wrap in a Markdown code fence. */
function unfenced(text: string): string {
  const m = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  return m ? m[1]! : text;
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
}

/** The model's text as `schema`, or an `invalid_output` error holding the text and what is wrong. */
export function parseStructured<T>(content: string | null, schema: z.ZodType<T>): T {
  const raw = content ?? '';
  let json: unknown;
  try {
    json = JSON.parse(unfenced(raw));
  } catch (err) {
    throw new LlmError('invalid_output', 'The AI model did not answer in the expected format.', {
      raw,
      issues: [`The answer is not valid JSON (${err instanceof Error ? err.message : String(err)}).`],
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new LlmError('invalid_output', 'The AI model did not answer in the expected format.', {
      raw,
      issues: issuesOf(parsed.error),
    });
  }
  return parsed.data;
}

/** A tool call's arguments as `schema` (the model may send anything): `invalid_output` otherwise. */
export function parseToolArguments<T>(call: { arguments: string }, schema: z.ZodType<T>): T {
  return parseStructured(call.arguments || '{}', schema);
}

export class LlmClient {
  private readonly options: typeof DEFAULTS & Omit<LlmClientOptions, keyof typeof DEFAULTS>;
  private readonly ctx: ErrorContext;

  constructor(
    readonly endpoint: LlmEndpoint,
    options: LlmClientOptions = {},
  ) {
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = { ...DEFAULTS, ...defined };
    const key = endpoint.apiKey;
    this.ctx = {
      model: endpoint.model,
      scrub: (text) => (key ? text.split(key).join('[redacted]') : text),
    };
  }

  get model(): string {
    return this.endpoint.model;
  }

  /** One chat completion; streamed when `onDelta` is given. */
  async chat(req: LlmChatRequest): Promise<LlmChatResult> {
    const started = performance.now();
    const body = JSON.stringify(this.body(req));
    const url = `${this.endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const host = new URL(url).host;
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    const doFetch = this.options.fetch ?? fetch;
    const sleep = this.options.sleep ?? abortableSleep;
    for (let attempt = 1; ; attempt++) {
      const ctl = new AbortController();
      let timedOut = false;
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut = true;
          ctl.abort();
        }, timeoutMs);
      };
      const onAbort = () => ctl.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      /** Once text reached the caller, another attempt would repeat it: none is made. */
      let delivered = false;
      arm();
      try {
        if (req.signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.');
        const res = await doFetch(url, {
          method: 'POST',
          headers: this.headers(req.onDelta ? 'text/event-stream' : 'application/json'),
          body,
          signal: ctl.signal,
          // A redirect could lead past the base URL's address check: it is an answer, not followed.
          redirect: 'manual',
        });
        if (!res.ok) {
          const text = await res.text().catch(() => '');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: the status speaks
          }
          throw httpError(res.status, parsed, this.ctx, retryAfterOf(res.headers));
        }
        const streamed =
          !!req.onDelta &&
          (res.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
        const answer = streamed
          ? await this.readStream(
              res,
              (text) => {
                delivered = true;
                req.onDelta!(text);
              },
              arm,
            )
          : await this.readWhole(res, req.onDelta);
        const durationMs = Math.round(performance.now() - started);
        return {
          content: answer.content,
          toolCalls: answer.toolCalls,
          message: {
            role: 'assistant',
            content: answer.content,
            ...(answer.toolCalls.length > 0
              ? {
                  tool_calls: answer.toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function' as const,
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          finishReason: answer.finishReason,
          usage: answer.usage,
          model: answer.model,
          durationMs,
          attempts: attempt,
        };
      } catch (raw) {
        const err =
          raw instanceof LlmError
            ? raw
            : req.signal?.aborted
              ? new LlmError('aborted', 'The call was cancelled.')
              : timedOut
                ? timeoutError(timeoutMs)
                : isAddressRefusal(raw)
                  ? blockedError()
                  : networkError();
        const wait = err.details.retryAfterMs ?? this.backoff(attempt);
        const again =
          isRetryable(err) &&
          !delivered &&
          attempt <= this.options.maxRetries &&
          wait <= this.options.maxRetryAfterMs &&
          !req.signal?.aborted;
        if (!again) {
          err.details.attempts = attempt;
          throw err;
        }
        this.options.logger?.warn(
          {
            llm_host: host,
            model: this.endpoint.model,
            attempt,
            kind: err.kind,
            status: err.details.status,
            wait_ms: wait,
          },
          'LLM call failed; trying again',
        );
        clearTimeout(timer);
        await sleep(wait, req.signal);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /**
   * Vectors for `texts` from the server's `/embeddings` (OpenAI's shape), in input order, by
   * `model` (an embedding model at the same server). One attempt per call; errors as chat's.
   */
  async embed(texts: string[], model: string): Promise<{ vectors: number[][]; promptTokens: number }> {
    const url = `${this.endpoint.baseUrl.replace(/\/+$/, '')}/embeddings`;
    const doFetch = this.options.fetch ?? fetch;
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, this.options.timeoutMs);
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: this.headers('application/json'),
        body: JSON.stringify({ model, input: texts, encoding_format: 'float' }),
        signal: ctl.signal,
        redirect: 'manual',
      });
      const text = await res.text().catch(() => '');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      if (!res.ok) throw httpError(res.status, parsed, { ...this.ctx, model }, retryAfterOf(res.headers));
      const body = parsed as {
        data?: { index?: number; embedding?: unknown }[];
        usage?: { prompt_tokens?: number };
      };
      const rows = Array.isArray(body?.data) ? [...body.data] : null;
      if (!rows || rows.length !== texts.length) throw unreadableError(res.status);
      rows.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      const vectors = rows.map((r) => r.embedding);
      if (!vectors.every((v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number')))
        throw unreadableError(res.status);
      return { vectors: vectors as number[][], promptTokens: body.usage?.prompt_tokens ?? 0 };
    } catch (raw) {
      if (raw instanceof LlmError) throw raw;
      throw timedOut
        ? timeoutError(this.options.timeoutMs)
        : isAddressRefusal(raw)
          ? blockedError()
          : networkError();
    } finally {
      clearTimeout(timer);
    }
  }

  /** A chat completion whose answer is JSON of `schema` (strict json_schema), parsed and checked. */
  async structured<T>(
    req: Omit<LlmChatRequest, 'responseFormat'> & { name: string; schema: z.ZodType<T> },
  ): Promise<LlmChatResult & { value: T }> {
    const { name, schema, ...rest } = req;
    const result = await this.chat({
      ...rest,
      responseFormat: { type: 'json_schema', name, schema: jsonSchemaOf(schema), strict: true },
    });
    return { ...result, value: parseStructured(result.content, schema) };
  }

  private headers(accept: string): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept,
      ...(this.endpoint.apiKey ? { authorization: `Bearer ${this.endpoint.apiKey}` } : {}),
    };
  }

  private body(req: LlmChatRequest): Record<string, unknown> {
    const format = req.responseFormat;
    const choice = req.toolChoice;
    return {
      model: this.endpoint.model,
      messages: req.messages,
      ...(req.tools?.length
        ? {
            tools: req.tools.map((t) => ({
              type: 'function',
              function: {
                name: t.name,
                ...(t.description ? { description: t.description } : {}),
                parameters: t.parameters,
                ...(t.strict !== undefined ? { strict: t.strict } : {}),
              },
            })),
          }
        : {}),
      ...(choice === undefined
        ? {}
        : {
            tool_choice:
              typeof choice === 'object' ? { type: 'function', function: { name: choice.name } } : choice,
          }),
      ...(format?.type === 'json_schema'
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: { name: format.name, schema: format.schema, strict: format.strict ?? true },
            },
          }
        : format
          ? { response_format: { type: 'json_object' } }
          : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.onDelta ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxBackoffMs, this.options.retryBaseMs * 2 ** (attempt - 1));
    const random = this.options.random ?? Math.random;
    // Jitter: between half and all of the ceiling, so clients that failed together spread out.
    return Math.round(ceiling * (0.5 + random() * 0.5));
  }

  private async readWhole(res: Response, onDelta?: (text: string) => void): Promise<Answer> {
    let json: unknown;
    try {
      json = await res.json();
    } catch (err) {
      if (err instanceof Error && err.name === 'AbortError') throw err;
      throw unreadableError(res.status);
    }
    const parsed = ZCompletion.safeParse(json);
    if (!parsed.success) throw unreadableError(res.status);
    const choice = parsed.data.choices[0]!;
    const content = choice.message.content ?? null;
    // A provider that ignored `stream`: the whole text is one piece.
    if (onDelta && content) onDelta(content);
    return this.finish({
      content,
      refusal: choice.message.refusal ?? null,
      toolCalls: (choice.message.tool_calls ?? []).map((c) => ({
        id: c.id,
        name: c.function.name,
        arguments: c.function.arguments,
      })),
      finishReason: choice.finish_reason ?? null,
      usage: usageOf(parsed.data.usage),
      model: parsed.data.model ?? this.endpoint.model,
    });
  }

  private async readStream(res: Response, onDelta: (text: string) => void, arm: () => void): Promise<Answer> {
    if (!res.body) throw unreadableError(res.status);
    let content: string | null = null;
    let refusal: string | null = null;
    let finishReason: string | null = null;
    let usage: LlmUsage | null = null;
    let model = this.endpoint.model;
    let done = false;
    const calls: { id: string; name: string; arguments: string }[] = [];
    for await (const event of readSse(res.body)) {
      arm();
      if (event.data === '[DONE]') {
        done = true;
        break;
      }
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        throw unreadableError(res.status);
      }
      const chunk = ZChunk.safeParse(json);
      if (!chunk.success) throw unreadableError(res.status);
      if (chunk.data.error !== undefined) throw httpError(500, { error: chunk.data.error }, this.ctx);
      if (chunk.data.model) model = chunk.data.model;
      if (chunk.data.usage) usage = usageOf(chunk.data.usage);
      for (const choice of chunk.data.choices ?? []) {
        const delta = choice.delta;
        if (delta?.content) {
          content = (content ?? '') + delta.content;
          onDelta(delta.content);
        }
        if (delta?.refusal) refusal = (refusal ?? '') + delta.refusal;
        for (const tc of delta?.tool_calls ?? []) {
          const call = (calls[tc.index] ??= { id: '', name: '', arguments: '' });
          if (tc.id) call.id = tc.id;
          if (tc.function?.name) call.name += tc.function.name;
          if (tc.function?.arguments) call.arguments += tc.function.arguments;
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    }
    // A stream cut before its end (no [DONE], no finish reason) lost part of the answer.
    if (!done && finishReason === null) throw networkError();
    return this.finish({ content, refusal, toolCalls: calls.filter(Boolean), finishReason, usage, model });
  }

  private finish(answer: Answer): Answer {
    if (answer.refusal && !answer.content && answer.toolCalls.length === 0) {
      throw new LlmError('invalid_output', 'The AI model refused to answer.', {
        raw: '',
        issues: [`The model refused: ${this.ctx.scrub(answer.refusal).slice(0, 300)}`],
      });
    }
    return answer;
  }
}
