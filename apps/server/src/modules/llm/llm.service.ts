// The LLM for a business (engage.md §6): its own OpenAI-compatible model from Settings (the key
// sealed at rest, never answered), else the server's (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL), else
// none — then every AI feature answers 409 saying so. `openLlm` gives a feature (templates, agents)
// a session on the model in use whose every call is recorded in llm_usage: business, purpose, ref,
// model, tokens, duration, outcome.
import type { z } from 'zod';
import {
  LLM_ERRORS,
  type TLlmSettings,
  type TLlmSource,
  type TLlmTestResult,
  type TSaveLlmSettingsRequest,
} from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import {
  LlmClient,
  LlmError,
  parseStructured,
  jsonSchemaOf,
  type LlmChatRequest,
  type LlmChatResult,
  type LlmClientOptions,
  type LlmLogger,
} from '../../platform/llm/llm.client';
import { guardedFetch, hostAddressProblem, outboundGuarded } from '../../platform/safe-fetch';
import * as repo from './llm.repository';

export { LlmError } from '../../platform/llm/llm.client';

/** OpenAI's API: the server's base URL when only LLM_MODEL is set. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export type LlmDeps = {
  db: Db;
  secrets: SecretBox;
  config: Pick<
    Config,
    'NODE_ENV' | 'HOST' | 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL' | 'LLM_TIMEOUT_MS' | 'LLM_MAX_RETRIES'
  > &
    Partial<Pick<Config, 'LLM_EMBEDDING_MODEL'>>;
  logger: LlmLogger;
  /** Tests: recorded waits instead of sleeps, a fixed jitter. */
  clientOptions?: Partial<LlmClientOptions>;
  /** Resolves a host name to its addresses, at check and at connect time (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
};

export type ResolvedLlm = {
  source: Exclude<TLlmSource, 'none'>;
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** The model for `/embeddings` at the same server; null: none (full-text search alone). */
  embeddingModel: string | null;
};

/** What a call is for: recorded with its usage (`ref`: e.g. an agent run's id). */
export type LlmCallContext = {
  businessId: number;
  purpose: string;
  ref?: string | null;
  userId?: number | null;
  /** Another model at the same provider (an agent's own `model`); default: the configured one. */
  model?: string;
};

/** A feature's handle on the model in use; every call records its usage. */
export type LlmSession = {
  source: ResolvedLlm['source'];
  model: string;
  chat(req: LlmChatRequest): Promise<LlmChatResult>;
  /** The embedding model in use, or null when none is set. */
  embeddingModel: string | null;
  /** Vectors of `texts` by the embedding model (recorded like chats); throws when none is set. */
  embed(texts: string[]): Promise<number[][]>;
  /** JSON of `schema` (strict json_schema); `invalid_output` (with the text) when the answer is not. */
  structured<T>(
    req: Omit<LlmChatRequest, 'responseFormat'> & { name: string; schema: z.ZodType<T> },
  ): Promise<LlmChatResult & { value: T }>;
};

const guarded = (deps: LlmDeps) => outboundGuarded(deps.config);

/**
 * Where a business may point Titan: when guarded (production, or HOST not loopback) https only and
 * never a private or local address — the server would otherwise call into its own network for
 * whoever sets the URL. Answers why not, or null. Unguarded anything http(s) goes (local models,
 * tools/llm-sim). The address is checked again at connect time (`clientFor`).
 */
export async function baseUrlProblem(deps: LlmDeps, baseUrl: string): Promise<string | null> {
  if (!guarded(deps)) return null;
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') return LLM_ERRORS.httpsRequired;
  const problem = await hostAddressProblem(deps, url.hostname.replace(/^\[|\]$/g, ''));
  return problem ? LLM_ERRORS[problem] : null;
}

/** The model a business's AI features use: its own, else the server's, else null. */
export async function resolveLlm(deps: LlmDeps, businessId: number): Promise<ResolvedLlm | null> {
  const own = await repo.findSettings(deps.db, businessId);
  if (own) {
    return {
      source: 'business',
      baseUrl: own.baseUrl,
      apiKey: own.apiKeySealed ? deps.secrets.open(own.apiKeySealed) : null,
      model: own.model,
      embeddingModel: own.embeddingModel,
    };
  }
  const { LLM_BASE_URL, LLM_API_KEY, LLM_MODEL } = deps.config;
  if (!LLM_MODEL) return null;
  return {
    source: 'server',
    baseUrl: LLM_BASE_URL ?? OPENAI_BASE_URL,
    apiKey: LLM_API_KEY ?? null,
    model: LLM_MODEL,
    embeddingModel: deps.config.LLM_EMBEDDING_MODEL ?? null,
  };
}

/**
 * The HTTP answer for a failed call: the provider's troubles are a bad gateway (502) or its
 * timeout (504), its rate limit a 503 with Retry-After — never 401/404, which the app would read as
 * its own session or resource.
 */
export function llmAppError(err: LlmError): AppError {
  switch (err.kind) {
    case 'timeout':
      return new AppError('gateway_timeout', err.message);
    case 'rate_limited': {
      const seconds = Math.max(1, Math.ceil((err.details.retryAfterMs ?? 60_000) / 1000));
      return new AppError('unavailable', err.message, null, { 'retry-after': String(seconds) });
    }
    case 'invalid_output':
      return new AppError('unprocessable', LLM_ERRORS.invalidOutput, {
        non_field_errors: err.details.issues ?? [],
      });
    case 'aborted':
      return new AppError('bad_request', err.message);
    case 'blocked':
      return new AppError('conflict', err.message);
    case 'unauthorized':
    case 'forbidden':
    case 'model_not_found':
    case 'quota_exceeded':
    case 'unavailable':
    case 'network':
    case 'bad_request':
    case 'invalid_response':
      return new AppError('bad_gateway', err.message);
    default: {
      const unreachable: never = err.kind;
      throw new Error(`unmapped LLM error ${String(unreachable)}`);
    }
  }
}

function clientFor(deps: LlmDeps, llm: ResolvedLlm): LlmClient {
  // A business's model is reached only through the guarded dispatcher: its name may resolve to an
  // inside address by the time the call connects. The server's own (LLM_*) is the operator's choice.
  const business = llm.source === 'business' && guarded(deps);
  return new LlmClient(
    { baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model },
    {
      timeoutMs: deps.config.LLM_TIMEOUT_MS,
      maxRetries: deps.config.LLM_MAX_RETRIES,
      logger: deps.logger,
      ...deps.clientOptions,
      ...(business ? { fetch: guardedFetch({ guarded: true, resolveHost: deps.resolveHost }) } : {}),
    },
  );
}

function sessionFor(deps: LlmDeps, ctx: LlmCallContext, llm: ResolvedLlm): LlmSession {
  const client = clientFor(deps, llm);
  const record = (values: {
    status: 'ok' | 'error';
    durationMs: number;
    attempts: number;
    usage?: LlmChatResult['usage'];
    errorKind?: string;
  }) =>
    repo.insertUsage(deps.db, {
      businessId: ctx.businessId,
      purpose: ctx.purpose,
      ref: ctx.ref ?? null,
      source: llm.source,
      model: llm.model,
      promptTokens: values.usage?.promptTokens ?? 0,
      completionTokens: values.usage?.completionTokens ?? 0,
      totalTokens: values.usage?.totalTokens ?? 0,
      durationMs: values.durationMs,
      attempts: values.attempts,
      status: values.status,
      errorKind: values.errorKind ?? null,
      createdBy: ctx.userId ?? null,
    });
  const chat = async (req: LlmChatRequest): Promise<LlmChatResult> => {
    const started = performance.now();
    try {
      const result = await client.chat(req);
      await record({
        status: 'ok',
        durationMs: result.durationMs,
        attempts: result.attempts,
        usage: result.usage,
      });
      return result;
    } catch (err) {
      if (err instanceof LlmError) {
        await record({
          status: 'error',
          durationMs: Math.round(performance.now() - started),
          attempts: err.details.attempts ?? 1,
          errorKind: err.kind,
        });
      }
      throw err;
    }
  };
  const embed = async (texts: string[]): Promise<number[][]> => {
    if (!llm.embeddingModel) throw new AppError('conflict', 'No embedding model is set.');
    const started = performance.now();
    const model = llm.embeddingModel;
    const usageRow = (status: 'ok' | 'error', tokens: number, errorKind: string | null) =>
      repo.insertUsage(deps.db, {
        businessId: ctx.businessId,
        purpose: ctx.purpose,
        ref: ctx.ref ?? null,
        source: llm.source,
        model,
        promptTokens: tokens,
        completionTokens: 0,
        totalTokens: tokens,
        durationMs: Math.round(performance.now() - started),
        attempts: 1,
        status,
        errorKind,
        createdBy: ctx.userId ?? null,
      });
    try {
      const result = await client.embed(texts, model);
      await usageRow('ok', result.promptTokens, null);
      return result.vectors;
    } catch (err) {
      if (err instanceof LlmError) await usageRow('error', 0, err.kind);
      throw err;
    }
  };
  return {
    source: llm.source,
    model: llm.model,
    embeddingModel: llm.embeddingModel,
    embed,
    chat,
    async structured(req) {
      const { name, schema, ...rest } = req;
      const result = await chat({
        ...rest,
        responseFormat: { type: 'json_schema', name, schema: jsonSchemaOf(schema), strict: true },
      });
      return { ...result, value: parseStructured(result.content, schema) };
    },
  };
}

/** A session on the business's model; 409 with a plain message when none is configured. */
export async function openLlm(deps: LlmDeps, ctx: LlmCallContext): Promise<LlmSession> {
  const llm = await resolveLlm(deps, ctx.businessId);
  if (!llm) throw new AppError('conflict', LLM_ERRORS.notConfigured);
  if (ctx.model) llm.model = ctx.model;
  if (llm.source === 'business') {
    // Checked again per use: a name may resolve elsewhere now than when it was saved.
    const problem = await baseUrlProblem(deps, llm.baseUrl);
    if (problem) throw new AppError('conflict', problem);
  }
  return sessionFor(deps, ctx, llm);
}

/** The calls a business made, oldest first: of one purpose, and of one `ref` (e.g. an agent run's tokens). */
export async function findLlmUsage(
  deps: Pick<LlmDeps, 'db'>,
  businessId: number,
  filter: { purpose?: string; ref?: string } = {},
): Promise<repo.LlmUsageRow[]> {
  return repo.listUsage(deps.db, businessId, filter);
}

// ---- Settings: GET, PUT, DELETE /api/config/llm/, POST /api/config/llm/test/ ----

const DAY_MS = 24 * 60 * 60 * 1000;

export async function findLlmSettings(deps: LlmDeps, businessId: number): Promise<TLlmSettings> {
  const own = await repo.findSettings(deps.db, businessId);
  const effective = await resolveLlm(deps, businessId);
  const usage = await repo.sumUsage(deps.db, businessId, new Date(Date.now() - 30 * DAY_MS));
  return {
    base_url: own?.baseUrl ?? null,
    model: own?.model ?? null,
    has_api_key: !!own?.apiKeySealed,
    source: effective?.source ?? 'none',
    effective_model: effective?.model ?? null,
    embedding_model: effective?.embeddingModel ?? null,
    configured: effective !== null,
    updated_at: own?.updatedAt.toISOString() ?? null,
    usage_30d: {
      calls: usage.calls,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
    },
  };
}

export async function saveLlmSettings(
  deps: LlmDeps,
  businessId: number,
  userId: number | null,
  input: TSaveLlmSettingsRequest,
): Promise<TLlmSettings> {
  const baseUrl = input.base_url.trim().replace(/\/+$/, '');
  const problem = await baseUrlProblem(deps, baseUrl);
  if (problem) throw AppError.fields({ base_url: [problem] });
  await repo.upsertSettings(deps.db, {
    businessId,
    baseUrl,
    model: input.model.trim(),
    embeddingModel: input.embedding_model?.trim() || null,
    apiKeySealed:
      input.api_key === undefined
        ? undefined
        : input.api_key === null
          ? null
          : deps.secrets.seal(input.api_key),
    updatedBy: userId,
  });
  return findLlmSettings(deps, businessId);
}

/** Back to the server's model (or none). */
export async function deleteLlmSettings(deps: LlmDeps, businessId: number): Promise<TLlmSettings> {
  await repo.deleteSettings(deps.db, businessId);
  return findLlmSettings(deps, businessId);
}

/** One short call to the model in use: whether it answers, and what it says or why not. */
export async function testLlm(
  deps: LlmDeps,
  businessId: number,
  userId: number | null,
): Promise<TLlmTestResult> {
  const llm = await openLlm(deps, { businessId, purpose: 'connection_test', userId });
  const started = performance.now();
  try {
    const result = await llm.chat({
      messages: [{ role: 'user', content: 'This is a connection test. Reply with the single word OK.' }],
      maxTokens: 16,
    });
    return {
      ok: true,
      source: llm.source,
      model: llm.model,
      message: (result.content ?? '').trim().slice(0, 200) || '(an empty answer)',
      duration_ms: result.durationMs,
    };
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return {
      ok: false,
      source: llm.source,
      model: llm.model,
      message: err.message,
      duration_ms: Math.round(performance.now() - started),
    };
  }
}
