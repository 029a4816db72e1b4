// What can go wrong calling a model, each with the message a person reads (contracts' LLM_ERRORS)
// and whether another attempt may help. Messages never hold the API key: provider text is scrubbed.
import {
  LLM_ERRORS,
  llmModelNotFoundMessage,
  llmProviderDownMessage,
  llmRefusedMessage,
  llmTimeoutMessage,
} from '@titan/contracts';

export type LlmErrorKind =
  /** The provider refused the key (401). */
  | 'unauthorized'
  /** The key may not use the model (403). */
  | 'forbidden'
  | 'model_not_found'
  /** 429, after the retries (or with a wait longer than allowed). */
  | 'rate_limited'
  /** 429 insufficient_quota: retrying cannot help. */
  | 'quota_exceeded'
  /** 5xx, after the retries. */
  | 'unavailable'
  /** No connection (refused, reset, DNS), after the retries. */
  | 'network'
  /** The address the call would connect to is not public (SSRF rules): retrying cannot help. */
  | 'blocked'
  | 'timeout'
  /** 4xx other than the above: the provider did not accept the request. */
  | 'bad_request'
  /** Not an OpenAI chat completion (wrong base URL, HTML error page…). */
  | 'invalid_response'
  /** A structured answer that is not JSON or not of the schema: the caller may ask for a repair. */
  | 'invalid_output'
  /** The caller gave up (the user left). */
  | 'aborted';

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly details: {
      status?: number;
      retryAfterMs?: number;
      /** invalid_output: the model's answer as it came, to send back with a repair request. */
      raw?: string;
      /** invalid_output: what is wrong with it. */
      issues?: string[];
      attempts?: number;
    } = {},
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

/** OpenAI's error body: `{error: {message, type, code}}` (other providers: a string, or `{message}`). */
export function providerErrorOf(body: unknown): { message: string; code: string | null } {
  if (typeof body !== 'object' || body === null) return { message: '', code: null };
  const e = (body as { error?: unknown }).error ?? body;
  if (typeof e === 'string') return { message: e, code: null };
  if (typeof e !== 'object' || e === null) return { message: '', code: null };
  const { message, code, type } = e as { message?: unknown; code?: unknown; type?: unknown };
  return {
    message: typeof message === 'string' ? message : '',
    code: typeof code === 'string' ? code : typeof type === 'string' ? type : null,
  };
}

const DETAIL_MAX = 300;

export type ErrorContext = { model: string; scrub: (text: string) => string };

/** The error for an HTTP answer that is not a success. */
export function httpError(status: number, body: unknown, ctx: ErrorContext, retryAfterMs?: number): LlmError {
  const { message, code } = providerErrorOf(body);
  const detail = ctx.scrub(message).slice(0, DETAIL_MAX);
  if (status >= 300 && status < 400)
    return new LlmError('invalid_response', LLM_ERRORS.unreadable, { status });
  if (status === 401) return new LlmError('unauthorized', LLM_ERRORS.unauthorized, { status });
  if (status === 403) return new LlmError('forbidden', LLM_ERRORS.forbidden, { status });
  if (status === 404) {
    // A 404 naming the model is the model; any other is the URL (no chat completions there).
    return code === 'model_not_found' || /model/i.test(message)
      ? new LlmError('model_not_found', llmModelNotFoundMessage(ctx.model), { status })
      : new LlmError('invalid_response', LLM_ERRORS.unreadable, { status });
  }
  if (status === 429) {
    return code === 'insufficient_quota'
      ? new LlmError('quota_exceeded', LLM_ERRORS.insufficientQuota, { status })
      : new LlmError('rate_limited', LLM_ERRORS.rateLimited, { status, retryAfterMs });
  }
  if (status >= 500 || status === 408) {
    return new LlmError('unavailable', llmProviderDownMessage(status), { status, retryAfterMs });
  }
  return new LlmError('bad_request', llmRefusedMessage(status, detail), { status });
}

export function timeoutError(timeoutMs: number): LlmError {
  return new LlmError('timeout', llmTimeoutMessage(Math.round(timeoutMs / 1000)));
}

export function networkError(): LlmError {
  return new LlmError('network', LLM_ERRORS.unreachable);
}

export function blockedError(): LlmError {
  return new LlmError('blocked', LLM_ERRORS.privateAddress);
}

export function unreadableError(status?: number): LlmError {
  return new LlmError('invalid_response', LLM_ERRORS.unreadable, status ? { status } : {});
}

/** Whether another attempt may get a different answer. */
export function isRetryable(err: LlmError): boolean {
  return err.kind === 'rate_limited' || err.kind === 'unavailable' || err.kind === 'network';
}
