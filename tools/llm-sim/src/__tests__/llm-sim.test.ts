// The simulator answers as OpenAI's chat completions API does: whole and streamed, tool calls,
// json_schema output satisfying the schema, usage, key checks — scripted answers first, in order.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIM_KEY,
  DEFAULT_SIM_MODEL,
  startLlmSim,
  violations,
  type JsonSchema,
  type LlmSim,
} from '../index';

let sim: LlmSim;

beforeAll(async () => {
  sim = await startLlmSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function chat(body: Record<string, unknown>, key: string | null = DEFAULT_SIM_KEY) {
  const res = await fetch(`${sim.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ model: DEFAULT_SIM_MODEL, ...body }),
  });
  return { status: res.status, headers: res.headers, body: (await res.text()) as string };
}

const user = (content: string) => [{ role: 'user', content }];

/** The `data:` payloads of an event stream, [DONE] included. */
function events(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

const TEMPLATE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    subject: { type: 'string' },
    preheader: { type: 'string' },
    mjml: { type: 'string' },
  },
  required: ['name', 'subject', 'preheader', 'mjml'],
  additionalProperties: false,
};

describe('llm-sim: the OpenAI API', () => {
  it('lists its models with the key, and refuses a wrong or missing key as OpenAI does', async () => {
    const ok = await fetch(`${sim.baseUrl}/models`, {
      headers: { authorization: `Bearer ${DEFAULT_SIM_KEY}` },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      object: 'list',
      data: [{ id: DEFAULT_SIM_MODEL, object: 'model' }],
    });

    const wrong = await chat({ messages: user('hi') }, 'sk-wrong-key-123');
    expect(wrong.status).toBe(401);
    const error = JSON.parse(wrong.body).error;
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).not.toContain('sk-wrong-key-123');
    expect((await chat({ messages: user('hi') }, null)).status).toBe(401);
    expect(sim.requests.map((r) => r.authorized)).toEqual([true, false, false]);
  });

  it('answers an unknown model with 404 model_not_found and bad input with 400', async () => {
    const missing = await chat({ model: 'gpt-nope', messages: user('hi') });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error).toMatchObject({ code: 'model_not_found' });
    expect(JSON.parse(missing.body).error.message).toContain('gpt-nope');
    expect((await chat({ messages: [] })).status).toBe(400);
    const orphan = await chat({ messages: [{ role: 'tool', tool_call_id: 'x', content: '1' }] });
    expect(orphan.status).toBe(400);
    expect(JSON.parse(orphan.body).error.message).toContain("role 'tool'");
  });

  it('by default echoes a summary, with usage, the same way every time', async () => {
    const a = await chat({ messages: user('Tell me about spring sales. And more.') });
    const b = await chat({ messages: user('Tell me about spring sales. And more.') });
    const body = JSON.parse(a.body);
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'You said: Tell me about spring sales.' },
    });
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(JSON.parse(b.body).choices).toEqual(body.choices);
  });

  it('builds a valid instance for a json_schema request, and a real MJML email for a template schema', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 20 },
        count: { type: 'integer', minimum: 3 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        kind: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['x'] }] },
      },
      required: ['title', 'count', 'tags', 'kind'],
      additionalProperties: false,
    };
    const generic = await chat({
      messages: user('Plan a party'),
      response_format: { type: 'json_schema', json_schema: { name: 'plan', schema, strict: true } },
    });
    const value = JSON.parse(JSON.parse(generic.body).choices[0].message.content);
    expect(violations(value, schema)).toEqual([]);

    const email = await chat({
      messages: user(
        'Brief: Spring sale on garden furniture, 20% off this weekend\nTone: playful\nAudience: loyal customers',
      ),
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'email_template', schema: TEMPLATE_SCHEMA, strict: true },
      },
    });
    const template = JSON.parse(JSON.parse(email.body).choices[0].message.content);
    expect(violations(template, TEMPLATE_SCHEMA)).toEqual([]);
    expect(template.name).toContain('Spring Sale Garden Furniture');
    expect(template.mjml).toMatch(/^<mjml>[\s\S]*<mj-body[\s\S]*<\/mjml>$/);
    expect(template.mjml).toContain('loyal customers');
    expect(template.mjml).toContain('{{ customer.name | default: "there" }}');
  });

  it('refuses a strict schema that OpenAI would refuse', async () => {
    const res = await chat({
      messages: user('x'),
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'loose',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' } } },
        },
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toContain('additionalProperties');
  });

  it('calls a tool the user names, with arguments from their words, then summarises its result', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'find_customer',
          parameters: {
            type: 'object',
            properties: { email: { type: 'string' } },
            required: ['email'],
            additionalProperties: false,
          },
        },
      },
      {
        type: 'function',
        function: { name: 'list_templates', parameters: { type: 'object', properties: {} } },
      },
    ];
    const first = JSON.parse(
      (await chat({ messages: user('Please find customer ada@example.com'), tools })).body,
    );
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'find_customer' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ email: 'ada@example.com' });

    const second = JSON.parse(
      (
        await chat({
          tools,
          messages: [
            ...user('Please find customer ada@example.com'),
            first.choices[0].message,
            { role: 'tool', tool_call_id: call.id, content: 'Ada Lovelace, customer since 2020.' },
          ],
        })
      ).body,
    );
    expect(second.choices[0].message.content).toBe(
      'find_customer answered: Ada Lovelace, customer since 2020.',
    );

    const none = JSON.parse((await chat({ messages: user('Hello there'), tools })).body);
    expect(none.choices[0].message.content).toBe('You said: Hello there');
    const forced = JSON.parse(
      (
        await chat({
          messages: user('Hello'),
          tools,
          tool_choice: { type: 'function', function: { name: 'list_templates' } },
        })
      ).body,
    );
    expect(forced.choices[0].message.tool_calls[0].function.name).toBe('list_templates');
  });

  it('streams content and tool calls as chat.completion.chunk events, usage last when asked, then [DONE]', async () => {
    sim.script({ kind: 'text', content: 'Hello streaming world, this arrives in pieces.' });
    const res = await chat({ messages: user('hi'), stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = events(res.body);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(
      'Hello streaming world, this arrives in pieces.',
    );
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 12 } });

    sim.script({
      kind: 'tool_calls',
      calls: [{ name: 'lookup', arguments: { q: 'a long query string here' } }],
    });
    const tc = events((await chat({ messages: user('hi'), stream: true })).body)
      .slice(0, -1)
      .map((d) => JSON.parse(d));
    const args = tc.map((c) => c.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ q: 'a long query string here' });
    expect(
      tc.find((c) => c.choices[0]?.delta?.tool_calls?.[0]?.id)?.choices[0].delta.tool_calls[0],
    ).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'lookup' },
    });
    expect(tc.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers scripted steps in order — errors with Retry-After, JSON, text — then its default brain', async () => {
    sim.script(
      { kind: 'error', status: 429, retry_after: 2 },
      { kind: 'error', status: 503 },
      { kind: 'json', value: { hello: 'world' } },
    );
    const limited = await chat({ messages: user('x') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(JSON.parse(limited.body).error.code).toBe('rate_limit_exceeded');
    expect((await chat({ messages: user('x') })).status).toBe(503);
    expect(
      JSON.parse(JSON.parse((await chat({ messages: user('x') })).body).choices[0].message.content),
    ).toEqual({
      hello: 'world',
    });
    expect(
      JSON.parse((await chat({ messages: user('Back to normal.') })).body).choices[0].message.content,
    ).toBe('You said: Back to normal.');
    expect(sim.requests.map((r) => r.answeredBy)).toEqual(['error', 'error', 'json', 'default']);
  });

  it('takes scripts over its control API, and a dropped connection is a network error', async () => {
    const queued = await fetch(`${sim.url}/sim/script`, {
      method: 'POST',
      body: JSON.stringify({ steps: [{ kind: 'drop' }, { kind: 'text', content: 'after the drop' }] }),
    });
    expect(await queued.json()).toEqual({ queued: 2 });
    await expect(chat({ messages: user('x') })).rejects.toThrow();
    expect(JSON.parse((await chat({ messages: user('x') })).body).choices[0].message.content).toBe(
      'after the drop',
    );
    const state = await (await fetch(`${sim.url}/sim/state`)).json();
    expect(state).toMatchObject({ queued: 0, requests: 2, models: [DEFAULT_SIM_MODEL] });
    const refused = await fetch(`${sim.url}/sim/script`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'nope' }),
    });
    expect(refused.status).toBe(400);
  });
});
