// The server: OpenAI's chat completions API (`/v1/models`, `/v1/chat/completions`, whole or streamed
// as server-sent events), bearer keys checked, requests validated as OpenAI does (model, messages,
// tool messages answering tool calls, strict json_schema rules), usage counted — and a control API
// under `/sim/` for tests to queue scripted answers (text, tool calls, JSON, errors, delays, dropped
// connections) taken in order before the default brain answers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { countTokens, defaultAnswer, promptTokens, stableId, type Answer, type ChatRequest } from './brain';
import { DEFAULT_SIM_EMBEDDING_MODEL, embedText, words } from './embeddings';
import { strictSchemaProblem } from './json-schema';

/** One queued answer. `delay_ms` waits before answering (a slow model, a timeout to provoke). */
export type ScriptStep = {
  delay_ms?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
} & (
  | { kind: 'text'; content: string; finish_reason?: 'stop' | 'length' }
  | { kind: 'json'; value: unknown }
  | {
      kind: 'tool_calls';
      calls: { name: string; arguments: unknown; id?: string }[];
      content?: string | null;
    }
  | {
      kind: 'error';
      status: number;
      message?: string;
      type?: string;
      code?: string | null;
      retry_after?: number;
    }
  /** Closes the connection without an answer: a network error for the client. */
  | { kind: 'drop' }
);

export type RecordedRequest = {
  path: string;
  /** Whether the bearer key was the simulator's (the key itself is never recorded). */
  authorized: boolean;
  body: ChatRequest | null;
  /** What answered: a scripted step's kind, `default`, or a refusal's HTTP status. */
  answeredBy: string;
};

export type LlmSimOptions = {
  port?: number;
  host?: string;
  /** The bearer key requests must carry; null accepts any (or none). Default `sim-llm-key`. */
  apiKey?: string | null;
  models?: string[];
  /** Pause between stream chunks, so a person can watch text arrive (the demo); 0 in tests. */
  chunkDelayMs?: number;
  /** Characters per streamed content chunk. */
  chunkChars?: number;
  /** The model `/v1/embeddings` answers for (default `sim-embed`). */
  embeddingModel?: string;
};

export type LlmSim = {
  /** `http://host:port` */
  url: string;
  /** `http://host:port/v1`: what LLM_BASE_URL takes. */
  baseUrl: string;
  apiKey: string | null;
  models: string[];
  /** Queues answers, taken one per chat completion request in order. */
  script(...steps: ScriptStep[]): void;
  queued(): number;
  /** Empties the queue and forgets recorded requests. */
  reset(): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

export const DEFAULT_SIM_KEY = 'sim-llm-key';
export const DEFAULT_SIM_MODEL = 'titan-sim-1';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type OpenAiError = {
  status: number;
  message: string;
  type: string;
  code: string | null;
  param?: string | null;
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, e: OpenAiError, headers: Record<string, string> = {}) {
  sendJson(
    res,
    e.status,
    { error: { message: e.message, type: e.type, param: e.param ?? null, code: e.code } },
    headers,
  );
}

const invalid = (message: string, param: string | null = null): OpenAiError => ({
  status: 400,
  message,
  type: 'invalid_request_error',
  code: null,
  param,
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The checks OpenAI makes before answering, worded as it words them. */
function validate(body: unknown, models: string[]): { req: ChatRequest } | { error: OpenAiError } {
  if (typeof body !== 'object' || body === null)
    return { error: invalid('We could not parse the JSON body of your request.') };
  const req = body as ChatRequest;
  if (typeof req.model !== 'string' || !req.model)
    return { error: invalid('you must provide a model parameter', 'model') };
  if (!models.includes(req.model)) {
    return {
      error: {
        status: 404,
        message: `The model \`${req.model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
        param: null,
      },
    };
  }
  if (!Array.isArray(req.messages) || req.messages.length === 0) {
    return { error: invalid("[] is too short - 'messages'", 'messages') };
  }
  const answered = new Set<string>();
  for (const [i, m] of req.messages.entries()) {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(m?.role)) {
      return {
        error: invalid(
          `Invalid value: '${String(m?.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool'.`,
          `messages[${i}].role`,
        ),
      };
    }
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) answered.add(c.id);
    if (m.role === 'tool' && (!m.tool_call_id || !answered.has(m.tool_call_id))) {
      return {
        error: invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        ),
      };
    }
  }
  for (const [i, t] of (req.tools ?? []).entries()) {
    if (t?.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.function?.name ?? '')) {
      return {
        error: invalid(
          `Invalid 'tools[${i}].function.name': string does not match pattern.`,
          `tools[${i}].function.name`,
        ),
      };
    }
  }
  const choice = req.tool_choice;
  if (
    typeof choice === 'object' &&
    !(req.tools ?? []).some((t) => t.function.name === choice.function?.name)
  ) {
    return {
      error: invalid(
        `Invalid value for 'tool_choice': tool '${choice.function?.name}' not found in 'tools'.`,
        'tool_choice',
      ),
    };
  }
  const format = req.response_format;
  if (format?.type === 'json_schema') {
    const js = format.json_schema;
    if (!js || !/^[a-zA-Z0-9_-]{1,64}$/.test(js.name ?? '')) {
      return {
        error: invalid(
          "Invalid 'response_format.json_schema.name': string does not match pattern.",
          'response_format.json_schema.name',
        ),
      };
    }
    if (js.strict) {
      const problem = js.schema ? strictSchemaProblem(js.schema) : 'schema is required in strict mode';
      if (problem)
        return {
          error: invalid(`Invalid schema for response_format '${js.name}': ${problem}`, 'response_format'),
        };
    }
  }
  return { req };
}

function answerOf(step: ScriptStep, seed: string): Answer {
  switch (step.kind) {
    case 'text':
      return { content: step.content, toolCalls: [], finishReason: step.finish_reason ?? 'stop' };
    case 'json':
      return { content: JSON.stringify(step.value), toolCalls: [], finishReason: 'stop' };
    case 'tool_calls':
      return {
        content: step.content ?? null,
        toolCalls: step.calls.map((c, i) => ({
          id: c.id ?? stableId('call', seed, i),
          name: c.name,
          arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
        })),
        finishReason: 'tool_calls',
      };
    default:
      throw new Error(`no answer for a ${step.kind} step`);
  }
}

function usageOf(req: ChatRequest, answer: Answer, given?: ScriptStep['usage']) {
  const prompt = given?.prompt_tokens ?? promptTokens(req);
  const completion =
    given?.completion_tokens ??
    countTokens(answer.content ?? '') +
      answer.toolCalls.reduce((n, c) => n + countTokens(c.name + c.arguments), 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export async function startLlmSim(options: LlmSimOptions = {}): Promise<LlmSim> {
  const host = options.host ?? '127.0.0.1';
  const apiKey = options.apiKey === undefined ? DEFAULT_SIM_KEY : options.apiKey;
  const models = options.models ?? [DEFAULT_SIM_MODEL];
  const embeddingModel = options.embeddingModel ?? DEFAULT_SIM_EMBEDDING_MODEL;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  const chunkChars = Math.max(1, options.chunkChars ?? 16);
  const queue: ScriptStep[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let created = 1_700_000_000;

  function authorized(req: IncomingMessage): boolean {
    if (apiKey === null) return true;
    const header = req.headers.authorization ?? '';
    return header === `Bearer ${apiKey}`;
  }

  function refuseKey(res: ServerResponse, req: IncomingMessage) {
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    sendError(res, {
      status: 401,
      message: given
        ? `Incorrect API key provided: ${given.slice(0, 3)}***${given.slice(-2)}. You can find your API key at the provider's dashboard.`
        : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
      type: 'invalid_request_error',
      code: given ? 'invalid_api_key' : null,
    });
  }

  function streamAnswer(
    res: ServerResponse,
    req: ChatRequest,
    answer: Answer,
    usage: ReturnType<typeof usageOf>,
    signal: AbortSignal,
  ): Promise<void> {
    const id = `chatcmpl-${stableId('sim', JSON.stringify(req.messages)).slice(4)}`;
    const base = {
      id,
      object: 'chat.completion.chunk',
      created: created++,
      model: req.model,
      system_fingerprint: 'titan-llm-sim',
    };
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const write = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      write({ ...base, choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finish }] });
    return (async () => {
      delta({ role: 'assistant', content: answer.content === null ? null : '' });
      const text = answer.content ?? '';
      for (let i = 0; i < text.length && !signal.aborted; i += chunkChars) {
        await sleep(chunkDelayMs, signal);
        delta({ content: text.slice(i, i + chunkChars) });
      }
      for (const [index, call] of answer.toolCalls.entries()) {
        await sleep(chunkDelayMs, signal);
        delta({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        });
        for (let i = 0; i < call.arguments.length && !signal.aborted; i += chunkChars) {
          delta({
            tool_calls: [{ index, function: { arguments: call.arguments.slice(i, i + chunkChars) } }],
          });
        }
      }
      if (signal.aborted) return;
      delta({}, answer.finishReason);
      if (req.stream_options?.include_usage) write({ ...base, choices: [], usage });
      res.end('data: [DONE]\n\n');
    })();
  }

  async function completions(httpReq: IncomingMessage, res: ServerResponse, signal: AbortSignal) {
    const record: RecordedRequest = {
      path: '/v1/chat/completions',
      authorized: authorized(httpReq),
      body: null,
      answeredBy: '',
    };
    requests.push(record);
    let raw: unknown;
    try {
      raw = JSON.parse(await readBody(httpReq));
    } catch {
      record.answeredBy = '400';
      return sendError(res, invalid('We could not parse the JSON body of your request.'));
    }
    record.body = raw as ChatRequest;
    if (!record.authorized) {
      record.answeredBy = '401';
      return refuseKey(res, httpReq);
    }
    const checked = validate(raw, models);
    if ('error' in checked) {
      record.answeredBy = String(checked.error.status);
      return sendError(res, checked.error);
    }
    const req = checked.req;
    const step = queue.shift();
    record.answeredBy = step?.kind ?? 'default';
    await sleep(step?.delay_ms ?? 0, signal);
    if (signal.aborted) return;
    if (step?.kind === 'drop') {
      httpReq.socket.destroy();
      return;
    }
    if (step?.kind === 'error') {
      const status = step.status;
      const headers: Record<string, string> =
        step.retry_after !== undefined ? { 'retry-after': String(step.retry_after) } : {};
      return sendError(
        res,
        {
          status,
          message:
            step.message ??
            (status === 429
              ? 'Rate limit reached for requests. Please try again later.'
              : status >= 500
                ? 'The server had an error while processing your request. Sorry about that!'
                : 'The request was refused.'),
          type:
            step.type ??
            (status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error'),
          code: step.code ?? (status === 429 ? 'rate_limit_exceeded' : null),
        },
        headers,
      );
    }
    const seed = JSON.stringify(req.messages);
    const answer = step ? answerOf(step, seed) : defaultAnswer(req);
    const usage = usageOf(req, answer, step?.usage);
    if (req.stream) return streamAnswer(res, req, answer, usage, signal);
    sendJson(res, 200, {
      id: `chatcmpl-${stableId('sim', seed).slice(4)}`,
      object: 'chat.completion',
      created: created++,
      model: req.model,
      system_fingerprint: 'titan-llm-sim',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: answer.content,
            refusal: null,
            ...(answer.toolCalls.length > 0
              ? {
                  tool_calls: answer.toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: answer.finishReason,
        },
      ],
      usage,
    });
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    if (path === '/sim/state' && req.method === 'GET') {
      return sendJson(res, 200, {
        models,
        queued: queue.length,
        requests: requests.length,
        key_required: apiKey !== null,
      });
    }
    if (path === '/sim/requests' && req.method === 'GET') return sendJson(res, 200, { requests });
    if (path === '/sim/script' && req.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return sendJson(res, 400, { error: 'expected JSON: {"steps": [...]} or one step' });
      }
      const steps = (
        Array.isArray((body as { steps?: unknown }).steps) ? (body as { steps: unknown[] }).steps : [body]
      ) as ScriptStep[];
      const kinds = ['text', 'json', 'tool_calls', 'error', 'drop'];
      const bad = steps.findIndex((s) => !s || !kinds.includes(s.kind));
      if (bad >= 0)
        return sendJson(res, 400, { error: `steps[${bad}].kind must be one of ${kinds.join(', ')}` });
      queue.push(...steps);
      return sendJson(res, 200, { queued: queue.length });
    }
    if (path === '/sim/script' && req.method === 'DELETE') {
      queue.length = 0;
      return sendJson(res, 200, { queued: 0 });
    }
    if (path === '/sim/reset' && req.method === 'POST') {
      queue.length = 0;
      requests.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: 'not found' });
  }

  /** OpenAI's embeddings API: `{model, input: string | string[]}` → one vector per input, in order. */
  async function embeddings(req: IncomingMessage, res: ServerResponse) {
    let body: { model?: unknown; input?: unknown } = {};
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      body = {};
    }
    requests.push({
      path: '/v1/embeddings',
      authorized: authorized(req),
      // The chat body only: an embeddings call records no conversation.
      body: null,
      answeredBy: authorized(req) ? 'embeddings' : '401',
    });
    if (!authorized(req)) return refuseKey(res, req);
    if (body.model !== embeddingModel)
      return sendError(res, {
        status: 404,
        message: `The model \`${String(body.model)}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
      });
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((i) => typeof i === 'string'))
      return sendError(res, {
        status: 400,
        message: "'input' must be a string or a non-empty array of strings",
        type: 'invalid_request_error',
        code: null,
      });
    const tokens = (inputs as string[]).reduce((n, t) => n + Math.max(1, words(t).length), 0);
    return sendJson(res, 200, {
      object: 'list',
      model: embeddingModel,
      data: (inputs as string[]).map((text, index) => ({
        object: 'embedding',
        index,
        embedding: embedText(text),
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sim').pathname.replace(/\/+$/, '') || '/';
    const aborter = new AbortController();
    res.on('close', () => aborter.abort());
    const handle = async () => {
      if (path.startsWith('/sim/')) return control(req, res, path);
      if (path === '/v1/models' && req.method === 'GET') {
        requests.push({
          path,
          authorized: authorized(req),
          body: null,
          answeredBy: authorized(req) ? 'models' : '401',
        });
        if (!authorized(req)) return refuseKey(res, req);
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({
            id,
            object: 'model',
            created: 1_700_000_000,
            owned_by: 'titan-llm-sim',
          })),
        });
      }
      if (path === '/v1/chat/completions' && req.method === 'POST')
        return completions(req, res, aborter.signal);
      if (path === '/v1/embeddings' && req.method === 'POST') return embeddings(req, res);
      return sendError(res, {
        status: 404,
        message: `Invalid URL (${req.method} ${req.url})`,
        type: 'invalid_request_error',
        code: null,
      });
    };
    handle().catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: String(err), type: 'server_error', code: null } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  return {
    url,
    baseUrl: `${url}/v1`,
    apiKey,
    models,
    script: (...steps) => void queue.push(...steps),
    queued: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
