// The WhatsApp Cloud API (Graph) over HTTP: sends, mark-as-read, media and templates. Errors are
// branched on Meta's `code`, never on HTTP status or titles; a few codes are worth a retry.
import { WHATSAPP_TIMEOUT_MS } from '@titan/contracts/constants';

export type GraphCredentials = { phoneNumberId: string; wabaId: string; accessToken: string };

/** Meta's error body: `{error: {message, type, code, error_data: {details}, fbtrace_id}}`. */
export class GraphError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details: string | null,
    readonly httpStatus: number,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** Throughput, pair rate limit and Meta's "unknown, retry" are worth another try. */
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }
}

/** Codes that mean "not now": 130429 throughput, 131056 pair rate limit, 131000 unknown, 2 service down. */
export const RETRYABLE_CODES = new Set([130429, 131056, 131000, 2]);

// What staff read for a Graph error lives with the channel adapter; kept importable from here.
export { describeGraphError } from './whatsapp-cloud.errors';

export type SendResult = { wamid: string; waId: string | null; response: Record<string, unknown> };
export type MediaInfo = { url: string; mime_type: string; sha256: string | null; file_size: number | null };
export type GraphTemplate = {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  parameter_format?: string;
  components?: Record<string, unknown>[];
};

export type GraphClientOptions = {
  baseUrl: string;
  timeoutMs?: number;
  /** Waits before each retry of a retryable error, in ms (Meta: back off 4^n seconds for 131056). */
  retryDelaysMs?: number[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Where Meta answers media download URLs (`GET /{media-id}` → `url`, e.g.
 * https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=…): the only hosts, besides the
 * configured Graph origin (the simulator in development and tests), the bearer token goes to.
 */
export const META_MEDIA_HOSTS: ReadonlySet<string> = new Set(['lookaside.fbsbx.com']);

/** Redirects a media download follows, each checked like the first URL. */
const MEDIA_REDIRECTS = 3;

/** Whether the bearer token may go to `url`: https on Meta's media host, or the Graph origin itself. */
export function isTrustedMediaUrl(url: URL, graphOrigin: string): boolean {
  if (url.origin === graphOrigin) return true;
  return url.protocol === 'https:' && url.port === '' && META_MEDIA_HOSTS.has(url.hostname);
}

/** A media URL Titan will not send the token to: named by its host only (the rest may be signed). */
export class UntrustedMediaUrlError extends GraphError {
  constructor(readonly host: string) {
    super(
      100,
      `WhatsApp answered a media URL on a host that is not Meta's (${host}); not downloaded.`,
      host,
      0,
      null,
    );
    this.name = 'UntrustedMediaUrlError';
  }
}

export class GraphClient {
  private readonly timeoutMs: number;
  readonly retryDelaysMs: number[];

  private readonly graphOrigin: string;

  constructor(private readonly options: GraphClientOptions) {
    this.timeoutMs = options.timeoutMs ?? WHATSAPP_TIMEOUT_MS;
    this.retryDelaysMs = options.retryDelaysMs ?? [1_000, 4_000, 16_000];
    this.graphOrigin = new URL(options.baseUrl).origin;
  }

  private async call(
    creds: GraphCredentials,
    path: string,
    init: { method?: string; json?: unknown; form?: FormData } = {},
  ): Promise<Record<string, unknown>> {
    const url = /^https?:\/\//.test(path) ? path : `${this.options.baseUrl}/${path}`;
    // The bearer token only ever goes to the configured Graph host.
    if (new URL(url).origin !== this.graphOrigin)
      throw new GraphError(100, 'Refusing a Graph call to another host.', new URL(url).host, 0, null);
    let res: Response;
    try {
      res = await fetch(url, {
        method: init.method ?? (init.json || init.form ? 'POST' : 'GET'),
        headers: {
          authorization: `Bearer ${creds.accessToken}`,
          ...(init.json ? { 'content-type': 'application/json' } : {}),
        },
        body: init.json ? JSON.stringify(init.json) : init.form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new GraphError(131000, 'WhatsApp could not be reached.', (err as Error).message, 0, null);
    }
    const text = await res.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = null;
    }
    if (res.ok && body && !body.error) return body;
    const error = (body?.error ?? {}) as {
      code?: number;
      message?: string;
      error_data?: { details?: string };
    };
    throw new GraphError(
      typeof error.code === 'number' ? error.code : res.status >= 500 ? 131000 : 100,
      error.message ?? `HTTP ${res.status}`,
      error.error_data?.details ?? null,
      res.status,
      body,
    );
  }

  /** Runs a call again after each delay while Meta answers a retryable code. */
  async withRetry<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        if (!(err instanceof GraphError) || !err.retryable || delay === undefined) throw err;
        await sleep(delay);
      }
    }
  }

  async sendMessage(creds: GraphCredentials, payload: Record<string, unknown>): Promise<SendResult> {
    const response = await this.withRetry(() =>
      this.call(creds, `${creds.phoneNumberId}/messages`, {
        json: { messaging_product: 'whatsapp', recipient_type: 'individual', ...payload },
      }),
    );
    const wamid = (response.messages as { id?: string }[] | undefined)?.[0]?.id;
    if (!wamid) throw new GraphError(131000, 'WhatsApp answered without a message id.', null, 200, response);
    const waId = (response.contacts as { wa_id?: string }[] | undefined)?.[0]?.wa_id ?? null;
    return { wamid, waId, response };
  }

  async markRead(creds: GraphCredentials, messageId: string): Promise<void> {
    await this.call(creds, `${creds.phoneNumberId}/messages`, {
      json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId },
    });
  }

  async uploadMedia(
    creds: GraphCredentials,
    file: { bytes: Buffer; mimeType: string; fileName: string },
  ): Promise<string> {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', file.mimeType);
    form.set('file', new Blob([file.bytes], { type: file.mimeType }), file.fileName);
    const body = await this.withRetry(() => this.call(creds, `${creds.phoneNumberId}/media`, { form }));
    if (typeof body.id !== 'string')
      throw new GraphError(131000, 'WhatsApp answered without a media id.', null, 200, body);
    return body.id;
  }

  async getMedia(creds: GraphCredentials, mediaId: string): Promise<MediaInfo> {
    const body = await this.call(creds, encodeURIComponent(mediaId));
    if (typeof body.url !== 'string')
      throw new GraphError(131000, 'WhatsApp answered without a media URL.', null, 200, body);
    return {
      url: body.url,
      mime_type: typeof body.mime_type === 'string' ? body.mime_type : 'application/octet-stream',
      sha256: typeof body.sha256 === 'string' ? body.sha256 : null,
      file_size: typeof body.file_size === 'number' ? body.file_size : null,
    };
  }

  /**
   * The media URL's bytes; the download needs the bearer token too, so it is only sent to Meta's
   * media host or the Graph origin (isTrustedMediaUrl), redirects included: any other URL is refused
   * before a request is made.
   */
  async download(creds: GraphCredentials, url: string): Promise<Buffer> {
    let res: Response;
    let target = url;
    for (let hop = 0; ; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(target);
      } catch {
        throw new UntrustedMediaUrlError('(not a URL)');
      }
      if (!isTrustedMediaUrl(parsed, this.graphOrigin)) throw new UntrustedMediaUrlError(parsed.host);
      try {
        res = await fetch(parsed, {
          headers: { authorization: `Bearer ${creds.accessToken}` },
          redirect: 'manual',
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        throw new GraphError(131000, 'WhatsApp media could not be reached.', (err as Error).message, 0, null);
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) break;
      await res.body?.cancel();
      if (hop >= MEDIA_REDIRECTS)
        throw new GraphError(131000, 'Media download redirected too often.', null, res.status, null);
      target = new URL(location, parsed).href;
    }
    if (!res.ok)
      throw new GraphError(
        res.status === 404 ? 100 : 131000,
        `Media download answered ${res.status}.`,
        null,
        res.status,
        null,
      );
    return Buffer.from(await res.arrayBuffer());
  }

  /** Every template of the account, following `paging.next` to the end. */
  async listTemplates(creds: GraphCredentials): Promise<GraphTemplate[]> {
    const all: GraphTemplate[] = [];
    let next: string | undefined =
      `${creds.wabaId}/message_templates?limit=100&fields=id,name,language,status,category,parameter_format,components`;
    for (let page = 0; next && page < 1000; page++) {
      const body = await this.call(creds, next);
      all.push(...((body.data as GraphTemplate[] | undefined) ?? []));
      next = (body.paging as { next?: string } | undefined)?.next;
      // The bearer token only ever goes to the configured Graph host.
      if (next && new URL(next).origin !== new URL(this.options.baseUrl).origin) {
        throw new GraphError(100, 'WhatsApp answered a paging link to another host.', next, 200, body);
      }
    }
    return all;
  }
}
