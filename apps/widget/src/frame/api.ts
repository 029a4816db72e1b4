// The public chat API (api.md "Public chat"), called from Titan's own origin. Errors carry the
// server's message, which the chat shows as it is (rate limits, refused origins, field errors).
import type {
  TVisitor,
  TConversation,
  TCreateVisitorRequest,
  TEnvelope,
  TPublicChatInfo,
  TCsatSurvey,
  TPublicMessage,
  TUploadResult,
  TVisitorSession,
} from '@titan/contracts';
import { REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from '@titan/contracts/constants';
import type { TTranslator } from './i18n';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string[]> | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type RequestOptions = {
  token?: string;
  body?: unknown;
  form?: FormData;
  timeoutMs?: number;
  method?: 'PUT';
};

async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Visitor ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/public${path}`, {
      method: options.method ?? (options.body !== undefined || options.form ? 'POST' : 'GET'),
      headers,
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    // No answer: the message is the key of the visitor's words for it (errorText translates).
    throw new ApiError(0, timedOut ? 'timeout' : 'offline');
  }
  const json = (await res.json().catch(() => null)) as TEnvelope<unknown> | null;
  if (!res.ok) {
    const result = json?.result;
    const fields =
      res.status === 400 && result && typeof result === 'object'
        ? (result as Record<string, string[]>)
        : null;
    throw new ApiError(res.status, json?.message ?? '', fields);
  }
  return json?.result as T;
}

const part = encodeURIComponent;

export const publicApi = {
  info: (business: string, group: string | null) =>
    request<TPublicChatInfo>(
      group ? `/chat-groups/${part(business)}/${part(group)}/` : `/business/${part(business)}/`,
    ),
  createVisitor: (body: TCreateVisitorRequest) => request<TVisitorSession>('/customers/', { body }),
  me: (token: string) => request<TVisitor>('/customers/me/', { token }),
  leaveEmail: (token: string, email: string) =>
    request<TVisitor>('/customers/me/', { token, body: { email }, method: 'PUT' }),
  conversations: (token: string) => request<TConversation[]>('/conversations/', { token }),
  startConversation: (token: string, groupSlug: string | null) =>
    request<TConversation>('/conversations/', { token, body: groupSlug ? { group_slug: groupSlug } : {} }),
  messages: (token: string, conversationId: number) =>
    request<TPublicMessage[]>(`/conversations/${conversationId}/messages/`, { token }),
  send: (
    token: string,
    conversationId: number,
    message: { message_type: 'text' | 'file'; content: string },
  ) => request<TPublicMessage>(`/conversations/${conversationId}/messages/`, { token, body: message }),
  csat: (token: string) => request<TCsatSurvey>(`/csat/${part(token)}/`),
  rate: (token: string, answer: { rating: number; comment?: string }) =>
    request<TCsatSurvey>(`/csat/${part(token)}/`, { body: answer }),
  upload(token: string, conversationId: number, file: File) {
    const form = new FormData();
    form.append('conversation_id', String(conversationId));
    form.append('file', file, file.name);
    return request<TUploadResult>('/upload/', { token, form, timeoutMs: UPLOAD_TIMEOUT_MS });
  },
};

/**
 * What to tell the visitor: the server's own words for refusals it explains (4xx), the spec's
 * message for the action otherwise (network trouble, server errors).
 */
export function errorText(err: unknown, fallback: string, { t }: Pick<TTranslator, 't'>): string {
  if (!(err instanceof ApiError)) return fallback;
  if (err.status === 0) return t(err.message === 'timeout' ? 'timeout' : 'offline');
  if (err.status === 400 && err.fields) {
    const first = Object.values(err.fields).flat()[0];
    if (first) return first;
  }
  return err.status >= 400 && err.status < 500 && err.message ? err.message : fallback;
}
