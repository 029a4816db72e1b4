// The LLM client against tools/llm-sim, a real OpenAI-compatible server over HTTP: tool calls,
// json_schema answers parsed with zod, streaming, retries (429 with Retry-After, 5xx, dropped
// connections), timeouts and clear errors — and the API key never in a log line or a message.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import { LLM_ERRORS, llmModelNotFoundMessage } from '@titan/contracts';
import { LlmClient, LlmError, parseToolArguments, retryAfterOf, type LlmClientOptions } from '../llm.client';

let sim: LlmSim;
let waits: number[];

beforeAll(async () => {
  sim = await startLlmSim();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  waits = [];
});

function client(
  options: LlmClientOptions = {},
  endpoint: Partial<{ apiKey: string | null; model: string }> = {},
) {
  return new LlmClient(
    { baseUrl: sim.baseUrl, apiKey: DEFAULT_SIM_KEY, model: DEFAULT_SIM_MODEL, ...endpoint },
    {
      // Waits are recorded, not slept: what the client would wait is the assertion.
      sleep: async (ms) => void waits.push(ms),
      random: () => 1,
      ...options,
    },
  );
}

const user = (content: string) => [{ role: 'user' as const, content }];

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

const ZTemplate = z.object({
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  mjml: z.string(),
});

describe('LLM client: answers', () => {
  it('answers text with usage and the model, in one attempt', async () => {
    const result = await client().chat({ messages: user('Hello there.') });
    expect(result).toMatchObject({
      content: 'You said: Hello there.',
      toolCalls: [],
      finishReason: 'stop',
      model: DEFAULT_SIM_MODEL,
      attempts: 1,
      message: { role: 'assistant', content: 'You said: Hello there.' },
    });
    expect(result.usage!.promptTokens).toBeGreaterThan(0);
    expect(result.usage!.totalTokens).toBe(result.usage!.promptTokens + result.usage!.completionTokens);
  });

  it('calls tools and continues the conversation with their results', async () => {
    const tools = [
      {
        name: 'find_customer',
        description: 'Look up a customer by email',
        parameters: {
          type: 'object',
          properties: { email: { type: 'string' } },
          required: ['email'],
          additionalProperties: false,
        },
        strict: true,
      },
    ];
    const llm = client();
    const messages = [...user('Please find customer grace@example.com')];
    const first = await llm.chat({ messages, tools, toolChoice: 'auto' });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]!.name).toBe('find_customer');
    expect(parseToolArguments(first.toolCalls[0]!, z.object({ email: z.string() }))).toEqual({
      email: 'grace@example.com',
    });
    const sent = sim.requests[0]!.body!;
    expect(sent.tools![0]).toMatchObject({
      type: 'function',
      function: { name: 'find_customer', strict: true },
    });
    expect(sent.tool_choice).toBe('auto');

    const second = await llm.chat({
      tools,
      messages: [
        ...messages,
        first.message,
        { role: 'tool', tool_call_id: first.toolCalls[0]!.id, content: 'Grace Hopper, 3 orders.' },
      ],
    });
    expect(second.content).toBe('find_customer answered: Grace Hopper, 3 orders.');

    const forced = await llm.chat({
      messages: user('Anything'),
      tools,
      toolChoice: { name: 'find_customer' },
    });
    expect(forced.toolCalls[0]!.name).toBe('find_customer');
    expect(sim.requests[2]!.body!.tool_choice).toEqual({
      type: 'function',
      function: { name: 'find_customer' },
    });
  });

  it('asks for json_schema output and answers it parsed with zod', async () => {
    const result = await client().structured({
      name: 'email_template',
      schema: ZTemplate,
      messages: user('Brief: Welcome to our bakery club'),
    });
    expect(result.value.name).toContain('Welcome Bakery Club');
    expect(result.value.mjml).toContain('<mjml>');
    expect(sim.requests[0]!.body!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'email_template',
        strict: true,
        schema: { type: 'object', additionalProperties: false },
      },
    });
  });

  it('answers a malformed or off-schema answer as invalid_output holding the text, for the caller to repair', async () => {
    sim.script(
      { kind: 'text', content: '{"name": "Half' },
      { kind: 'json', value: { name: 'x', subject: 3 } },
    );
    const notJson = await failure(client().structured({ name: 't', schema: ZTemplate, messages: user('x') }));
    expect(notJson.kind).toBe('invalid_output');
    expect(notJson.details.raw).toBe('{"name": "Half');
    expect(notJson.details.issues![0]).toMatch(/not valid JSON/);
    const offSchema = await failure(
      client().structured({ name: 't', schema: ZTemplate, messages: user('x') }),
    );
    expect(offSchema.kind).toBe('invalid_output');
    expect(offSchema.details.issues).toEqual(
      expect.arrayContaining([expect.stringMatching(/^subject: /), expect.stringMatching(/^preheader: /)]),
    );
  });

  it('streams text as it arrives, with usage at the end', async () => {
    sim.script({ kind: 'text', content: 'A stream of words arriving one piece at a time.' });
    const pieces: string[] = [];
    const result = await client().chat({ messages: user('x'), onDelta: (t) => pieces.push(t) });
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join('')).toBe('A stream of words arriving one piece at a time.');
    expect(result.content).toBe(pieces.join(''));
    expect(result.usage).toMatchObject({ completionTokens: 12 });
    expect(sim.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams tool calls and structured output', async () => {
    sim.script({
      kind: 'tool_calls',
      calls: [{ name: 'lookup', arguments: { q: 'spring sale customers' } }],
    });
    const tools = [{ name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } }];
    const streamed = await client().chat({ messages: user('x'), tools, onDelta: () => {} });
    expect(streamed.toolCalls).toEqual([
      { id: expect.any(String), name: 'lookup', arguments: '{"q":"spring sale customers"}' },
    ]);
    const pieces: string[] = [];
    const structured = await client().structured({
      name: 'email_template',
      schema: ZTemplate,
      messages: user('Brief: Autumn menu launch'),
      onDelta: (t) => pieces.push(t),
    });
    expect(JSON.parse(pieces.join(''))).toEqual(structured.value);
  });
});

describe('LLM client: retries, timeouts and errors', () => {
  it('waits what Retry-After says after a 429, then answers', async () => {
    sim.script({ kind: 'error', status: 429, retry_after: 3 });
    const result = await client().chat({ messages: user('Hi.') });
    expect(result.content).toBe('You said: Hi.');
    expect(result.attempts).toBe(2);
    expect(waits).toEqual([3000]);
  });

  it('backs off with jitter after a 500 and a dropped connection, then answers', async () => {
    sim.script({ kind: 'error', status: 500 }, { kind: 'drop' });
    const result = await client({ retryBaseMs: 400, random: () => 0 }).chat({ messages: user('Hi.') });
    expect(result.attempts).toBe(3);
    // Half of 400 ms, then half of 800 ms (the lowest jitter).
    expect(waits).toEqual([200, 400]);
  });

  it('gives up after its retries with a clear error naming the status', async () => {
    sim.script(
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 502 },
    );
    const err = await failure(client({ maxRetries: 2 }).chat({ messages: user('x') }));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toBe(
      'The AI provider is not answering properly (HTTP 502). Try again in a few minutes.',
    );
    expect(err.details.attempts).toBe(3);
  });

  it('does not wait a Retry-After longer than allowed, and does not retry a used-up quota', async () => {
    sim.script({ kind: 'error', status: 429, retry_after: 120 });
    const limited = await failure(client().chat({ messages: user('x') }));
    expect(limited).toMatchObject({ kind: 'rate_limited', message: LLM_ERRORS.rateLimited });
    expect(waits).toEqual([]);
    sim.script({ kind: 'error', status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    const quota = await failure(client().chat({ messages: user('x') }));
    expect(quota).toMatchObject({ kind: 'quota_exceeded', message: LLM_ERRORS.insufficientQuota });
    expect(sim.requests).toHaveLength(2);
  });

  it('times out a call that does not answer in time, without another attempt', async () => {
    sim.script({ kind: 'text', content: 'too late', delay_ms: 5_000 });
    const err = await failure(client({ timeoutMs: 1_000 }).chat({ messages: user('x') }));
    expect(err).toMatchObject({
      kind: 'timeout',
      message: 'The AI model did not answer within 1 seconds. Try again, or choose a faster model.',
    });
    expect(sim.requests).toHaveLength(1);
  });

  it('stops when the caller aborts', async () => {
    sim.script({ kind: 'text', content: 'never read', delay_ms: 5_000 });
    const aborter = new AbortController();
    const call = client().chat({ messages: user('x'), signal: aborter.signal, onDelta: () => {} });
    aborter.abort();
    expect((await failure(call)).kind).toBe('aborted');
  });

  it('says plainly when the key is refused or the model does not exist, and when the URL is not an LLM API', async () => {
    const refused = await failure(
      client({}, { apiKey: 'sk-live-very-secret-key-123456' }).chat({ messages: user('x') }),
    );
    expect(refused).toMatchObject({ kind: 'unauthorized', message: LLM_ERRORS.unauthorized });
    const missing = await failure(client({}, { model: 'gpt-imaginary' }).chat({ messages: user('x') }));
    expect(missing).toMatchObject({
      kind: 'model_not_found',
      message: llmModelNotFoundMessage('gpt-imaginary'),
    });
    const wrongUrl = new LlmClient({ baseUrl: sim.url, apiKey: DEFAULT_SIM_KEY, model: DEFAULT_SIM_MODEL });
    expect(await failure(wrongUrl.chat({ messages: user('x') }))).toMatchObject({
      kind: 'invalid_response',
      message: LLM_ERRORS.unreadable,
    });
    const nobody = new LlmClient(
      { baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, model: 'm' },
      { sleep: async () => {}, maxRetries: 1 },
    );
    expect(await failure(nobody.chat({ messages: user('x') }))).toMatchObject({
      kind: 'network',
      message: LLM_ERRORS.unreachable,
      details: { attempts: 2 },
    });
  });

  it('does not follow a redirect away from the base URL', async () => {
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: `${sim.baseUrl}/chat/completions` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirector.address() as AddressInfo).port;
      const llm = new LlmClient({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: DEFAULT_SIM_KEY,
        model: DEFAULT_SIM_MODEL,
      });
      expect(await failure(llm.chat({ messages: user('x') }))).toMatchObject({
        kind: 'invalid_response',
        message: LLM_ERRORS.unreadable,
      });
      expect(sim.requests).toHaveLength(0);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('never writes the API key into a log line or an error message', async () => {
    const secret = 'sk-proj-THIS-KEY-MUST-NOT-LEAK-42';
    const lines: string[] = [];
    const logger = pino(
      { level: 'trace' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const leaky = await startLlmSim({ apiKey: secret });
    try {
      leaky.script(
        { kind: 'error', status: 500, message: `upstream said: bad key ${secret}` },
        { kind: 'error', status: 400, message: `Invalid request for key ${secret}` },
      );
      const llm = new LlmClient(
        { baseUrl: leaky.baseUrl, apiKey: secret, model: DEFAULT_SIM_MODEL },
        { logger, sleep: async () => {} },
      );
      const err = await failure(llm.chat({ messages: user('x') }));
      expect(err.kind).toBe('bad_request');
      expect(err.message).toBe(
        'The AI provider refused the request (HTTP 400): Invalid request for key [redacted]',
      );
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).toContain('LLM call failed; trying again');
      expect(lines.join('\n')).not.toContain(secret);
      expect(JSON.stringify(err)).not.toContain(secret);
    } finally {
      await leaky.close();
    }
  });

  it('reads Retry-After in seconds, as a date, and OpenAI’s retry-after-ms', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterOf(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterOf(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterOf(new Headers({}), now)).toBeUndefined();
  });
});
