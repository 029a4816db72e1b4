// gpt-prompt-email: the business's model (tools/llm-sim here) writes a template that is compiled
// before it is answered — repaired once when it does not compile, a 422 when it still does not —
// whole or streamed as server-sent events; 409 without a model; saving is the ordinary create.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import {
  LLM_ERRORS,
  ZEmailTemplateStreamEvent,
  type TBusiness,
  type TEmailTemplateStreamEvent,
  type TGeneratedEmailTemplate,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { findLlmUsage } from '../../llm/llm.service';

let sim: LlmSim;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

const URL_ = '/api/template/gpt-prompt-email/';
const BRIEF = {
  prompt: 'Spring sale on garden furniture, 20% off this weekend',
  tone: 'playful',
  audience: 'loyal customers',
};

/** MJML that does not compile: text straight in the body. */
const BROKEN = {
  name: 'Broken',
  subject: 'Hello',
  preheader: 'x',
  mjml: '<mjml>\n  <mj-body>\n    <mj-text>Hi</mj-text>\n  </mj-body>\n</mjml>',
};

beforeAll(async () => {
  sim = await startLlmSim();
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Garden Goods');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Garden') };
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/config/llm/',
    headers: as(owner, business),
    payload: { base_url: sim.baseUrl, model: DEFAULT_SIM_MODEL, api_key: DEFAULT_SIM_KEY },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
});
beforeEach(async () => {
  sim.reset();
  // Each test starts with the business's generation allowance whole (the last test uses it up).
  await rt.database.query(`delete from rate_limits where key like 'llm:email-template:%'`);
});

async function generate(body: object = BRIEF, s = owner, b = business, query = '', headers = {}) {
  return app.inject({
    method: 'POST',
    url: `${URL_}${query}`,
    headers: { ...as(s, b), ...headers },
    payload: body,
  });
}

/** The events of a streamed answer, checked against the contract. */
function eventsOf(body: string): TEmailTemplateStreamEvent[] {
  return body
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const name = /^event: (.+)$/m.exec(block)![1];
      const event = ZEmailTemplateStreamEvent.parse(JSON.parse(/^data: (.+)$/m.exec(block)![1]!));
      expect(event.type).toBe(name);
      return event;
    });
}

describe('gpt-prompt-email', () => {
  it('answers a template made from the prompt that compiles, and it saves as a template', async () => {
    const res = await generate();
    expect(res.statusCode, res.body).toBe(200);
    const t: TGeneratedEmailTemplate = res.json().result;
    expect(t.format).toBe('mjml');
    expect(t.name).toContain('Spring Sale Garden Furniture');
    expect(t.content).toContain('<mj-body');
    expect(t.content).toContain('loyal customers');
    expect(sim.requests).toHaveLength(1);
    // The model was asked for the template as strict JSON, with the brief, tone and audience.
    const asked = sim.requests[0]!.body!;
    expect(asked.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'email_template', strict: true },
    });
    expect(asked.messages.at(-1)!.content).toBe(
      'Brief: Spring sale on garden furniture, 20% off this weekend\nTone: playful\nAudience: loyal customers',
    );

    // Nothing is saved until the user saves; then the ordinary create route (and its analytics event).
    expect(
      (await app.inject({ method: 'GET', url: '/api/template/', headers: as(owner, business) })).json()
        .result,
    ).toEqual([]);
    const saved = await app.inject({
      method: 'POST',
      url: '/api/template/',
      headers: as(owner, business),
      payload: t,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().result.variables).toEqual(['business.name', 'customer.name']);
    const events = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from analytics_events where event = 'user_created_template' and business_id = $1`,
      [business.id],
    );
    expect(events[0]!.n).toBe(1);

    const usage = await findLlmUsage(rt.services.llm, business.id, { purpose: 'email_template' });
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({
      status: 'ok',
      model: DEFAULT_SIM_MODEL,
      source: 'business',
      createdBy: owner.user.pk,
    });
    expect(usage[0]!.completionTokens).toBeGreaterThan(100);
  });

  it('sends a template that does not compile back once with its errors, and answers the repaired one', async () => {
    sim.script({ kind: 'json', value: BROKEN });
    const res = await generate();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.content).toContain('<mj-section');
    expect(sim.requests).toHaveLength(2);
    const repair = sim.requests[1]!.body!.messages;
    expect(repair.at(-2)).toEqual({ role: 'assistant', content: JSON.stringify(BROKEN) });
    expect(repair.at(-1)!.content).toMatch(/^The template you wrote does not compile\./);
    expect(repair.at(-1)!.content).toMatch(/- mjml: Line 3: /);
  });

  it('repairs an answer that is not JSON of the template too', async () => {
    sim.script({ kind: 'text', content: 'Sure! Here is your email: <mjml>…' });
    const res = await generate();
    expect(res.statusCode, res.body).toBe(200);
    expect(sim.requests[1]!.body!.messages.at(-1)!.content).toContain('not valid JSON');
  });

  it('answers 422 with the compile errors when the repair does not compile either', async () => {
    sim.script({ kind: 'json', value: BROKEN }, { kind: 'json', value: BROKEN });
    const res = await generate();
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(LLM_ERRORS.templateDidNotCompile);
    expect(res.json().result.content[0]).toMatch(/^Line 3: /);
    expect(sim.requests).toHaveLength(2);
  });

  it('streams the text as it arrives, what is happening, and the compiled result', async () => {
    for (const [query, headers] of [
      ['', { accept: 'text/event-stream' }],
      ['?stream=true', {}],
    ] as const) {
      sim.reset();
      const res = await generate(BRIEF, owner, business, query, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      const events = eventsOf(res.body);
      expect(events[0]).toEqual({ type: 'status', stage: 'generating', attempt: 1 });
      const deltas = events.filter((e) => e.type === 'delta');
      expect(deltas.length).toBeGreaterThan(10);
      const text = deltas.map((e) => e.text).join('');
      const result = events.at(-1)!;
      expect(result.type).toBe('result');
      if (result.type !== 'result') throw new Error('no result');
      expect(JSON.parse(text).mjml).toBe(result.template.content);
      expect(events.at(-2)).toEqual({ type: 'status', stage: 'compiling', attempt: 1 });
    }
  });

  it('streams a repair, and a final failure as an error event with the errors', async () => {
    sim.script({ kind: 'json', value: BROKEN });
    const repaired = eventsOf((await generate(BRIEF, owner, business, '?stream=true')).body);
    expect(repaired.filter((e) => e.type === 'status')).toEqual([
      { type: 'status', stage: 'generating', attempt: 1 },
      { type: 'status', stage: 'compiling', attempt: 1 },
      { type: 'status', stage: 'repairing', attempt: 2 },
      { type: 'status', stage: 'compiling', attempt: 2 },
    ]);
    expect(repaired.at(-1)!.type).toBe('result');

    sim.script({ kind: 'json', value: BROKEN }, { kind: 'json', value: BROKEN });
    const failed = eventsOf((await generate(BRIEF, owner, business, '?stream=true')).body);
    expect(failed.at(-1)).toMatchObject({
      type: 'error',
      status: 422,
      message: LLM_ERRORS.templateDidNotCompile,
      errors: { content: [expect.stringMatching(/^Line 3: /)] },
    });
  });

  it('stops the model call when the person leaves a streamed generation', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    sim.script({ kind: 'text', content: 'never finished', delay_ms: 60_000 });
    const aborter = new AbortController();
    const res = await fetch(`${base}${URL_}`, {
      method: 'POST',
      headers: { ...as(owner, business), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(BRIEF),
      signal: aborter.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: status');
    aborter.abort();
    // The call to the model is cancelled, and recorded as such.
    await expect
      .poll(
        async () =>
          (await findLlmUsage(rt.services.llm, business.id, { purpose: 'email_template' })).at(-1)?.errorKind,
        {
          timeout: 20_000,
        },
      )
      .toBe('aborted');
  });

  it('says plainly when the provider refuses the key (502), never as the app’s own 401', async () => {
    await app.inject({
      method: 'PUT',
      url: '/api/config/llm/',
      headers: as(owner, business),
      payload: { base_url: sim.baseUrl, model: DEFAULT_SIM_MODEL, api_key: 'sk-revoked' },
    });
    try {
      const res = await generate();
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(LLM_ERRORS.unauthorized);
      const streamed = eventsOf((await generate(BRIEF, owner, business, '?stream=true')).body);
      expect(streamed.at(-1)).toEqual({ type: 'error', status: 502, message: LLM_ERRORS.unauthorized });
    } finally {
      await app.inject({
        method: 'PUT',
        url: '/api/config/llm/',
        headers: as(owner, business),
        payload: { base_url: sim.baseUrl, model: DEFAULT_SIM_MODEL, api_key: DEFAULT_SIM_KEY },
      });
    }
  });

  it('answers 409 without a model, whole or streamed, and leaves the other business untouched', async () => {
    const before = (
      await app.inject({ method: 'GET', url: '/api/template/', headers: as(owner, business) })
    ).json();
    for (const query of ['', '?stream=true']) {
      const res = await generate(BRIEF, other.owner, other.business, query);
      expect(res.statusCode).toBe(409);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().message).toBe(LLM_ERRORS.notConfigured);
    }
    // Their owner with this business's code is refused, and never uses this business's model.
    expect((await generate(BRIEF, other.owner, business)).statusCode).toBe(403);
    expect(sim.requests).toHaveLength(0);
    expect(
      (await app.inject({ method: 'GET', url: '/api/template/', headers: as(owner, business) })).json(),
    ).toEqual(before);
    expect(await findLlmUsage(rt.services.llm, other.business.id)).toEqual([]);
  });

  it('validates the prompt', async () => {
    const res = await generate({ prompt: ' x ', tone: 'a'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().result).sort()).toEqual(['prompt', 'tone']);
  });

  it('limits generations per business, with Retry-After', async () => {
    // Ten a minute: the eleventh is refused (a window that turns mid-way gives at most one more).
    const statuses: number[] = [];
    let last;
    while (statuses.at(-1) !== 429 && statuses.length < 21) {
      last = await generate({ prompt: 'A short note' });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
  });
});
