// @titan/client: a typed client for the Titan API. The types (src/schema.ts) are generated from the
// server's OpenAPI document (openapi-typescript); requests go through openapi-fetch. On top:
// API-key (or bearer) auth and the business header, the `{status, message, result}` envelope
// unwrapped (errors thrown as TitanApiError with their field errors), and pagination as an async
// iterator over `next`. Webhook signature verification is in ./webhooks.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths, components, operations } from './schema';
export { verifyWebhook, WebhookVerificationError, type TitanWebhookEvent } from './webhooks';

export const BUSINESS_CODE_HEADER = 'x-business-code';

export type TitanClientOptions = {
  /** Where Titan answers, e.g. https://titan.example.com (no trailing /api). */
  baseUrl: string;
  /** An API key (Settings → API keys): it names its business, no business code needed. */
  apiKey?: string;
  /** Or a signed-in member's access token, with the business to act in. */
  accessToken?: string;
  businessCode?: string;
  fetch?: ClientOptions['fetch'];
  headers?: Record<string, string>;
};

export type TitanApi = Client<paths>;

/** A non-2xx answer: the envelope's message, and field errors for a 400. */
export class TitanApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The envelope's `result`: `{field: [messages]}` for a 400, else usually null. */
    readonly result: unknown,
  ) {
    super(`${status} ${message}`);
    this.name = 'TitanApiError';
  }

  /** The messages of one field (400 answers), or []. */
  fieldErrors(field: string): string[] {
    const r = this.result as Record<string, unknown> | null;
    const v = r && typeof r === 'object' ? r[field] : undefined;
    return Array.isArray(v) ? (v as string[]) : [];
  }
}

/** The authenticated openapi-fetch client: `api.GET('/api/business/roles/')` and so on, fully typed. */
export function createTitanClient(options: TitanClientOptions): TitanApi {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.apiKey) headers.authorization = `Api-Key ${options.apiKey}`;
  else if (options.accessToken) headers.authorization = `Bearer ${options.accessToken}`;
  if (options.businessCode) headers[BUSINESS_CODE_HEADER] = options.businessCode;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

type Envelope<T> = { status?: number; message?: string; result: T };
type Answer<D> = { data?: D; error?: unknown; response: Response };

/**
 * The `result` of an answer, or a thrown TitanApiError: `const roles = await unwrap(api.GET(…))`.
 * Answers without an envelope (CSV downloads) are refused here: read them from the raw answer.
 */
export async function unwrap<D extends Envelope<unknown>>(
  answer: Promise<Answer<D>> | Answer<D>,
): Promise<D['result']> {
  const { data, error, response } = await answer;
  if (!response.ok || data === undefined) {
    const body = (error ?? {}) as Partial<Envelope<unknown>>;
    throw new TitanApiError(response.status, body.message ?? response.statusText, body.result ?? null);
  }
  return data.result;
}

type Page<T> = { count: number; next: number | null; previous: number | null; results: T[] };

/**
 * Every item of a paged list, page after page (following `next`), as an async iterator:
 * `for await (const c of paginate((page) => api.GET('/api/business/customer-directory/', { params: { query: { page } } })))`.
 */
export async function* paginate<T, D extends Envelope<Page<T>>>(
  fetchPage: (page: number) => Promise<Answer<D>>,
  firstPage = 1,
): AsyncGenerator<T, void, undefined> {
  let page: number | null = firstPage;
  while (page !== null) {
    const result: Page<T> = await unwrap(fetchPage(page));
    for (const item of result.results) yield item;
    page = result.next !== null && result.next !== page ? result.next : null;
  }
}
