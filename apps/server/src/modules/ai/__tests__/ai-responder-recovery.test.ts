// The first responder when things go wrong, and staff's verdict on it, against tools/llm-sim:
// - a run whose process was killed (claimed, its lease run out) is resolved on the next pass: tried
//   again when nothing reached the customer; left to its recorded send when the answer was already
//   recorded (the customer gets it once, the model is not asked again); handed to a person when it
//   was interrupted twice;
// - a conversation handed off, resolved and reopened by the customer is the AI's again, its turn
//   limit counted from the reopening;
// - staff rate an answer good or bad with a reason (the inbox reads it on the run), the report
//   counts outcomes, handoff reasons and ratings; bad input is a 400 per field, another business's
//   run is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import type {
  TAiReport,
  TAiRun,
  TBusiness,
  TChatGroupSettings,
  TConversation,
  TPublicMessage,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { findAiHeldConversation, sendAiReply } from '../../conversations';
import { respondPending } from '..';
import { RESPONDER_TEXT } from '../ai.responder';
import * as repo from '../ai.repository';

let rt: TestRuntime;
let app: FastifyInstance;
let sim: LlmSim;
let boss: Session;
let shop: TBusiness;
let rival: { who: Session; business: TBusiness };
let refunds: number;

type Who = { who: Session; business: TBusiness };
const me = (): Who => ({ who: boss, business: shop });

async function call(method: 'GET' | 'POST' | 'PUT', url: string, t: Who, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: as(t.who, t.business),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function visitor(business: TBusiness, slug: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: business.unique_code, name: 'Rita Restart' },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { group_slug: slug },
  });
  expect(started.statusCode, started.body).toBe(201);
  return { token, id: (started.json().result as TConversation).id };
}

type Visitor = Awaited<ReturnType<typeof visitor>>;

async function ask(v: Visitor, content: string): Promise<number> {
  const sent = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${v.id}/messages/`,
    headers: { authorization: `Visitor ${v.token}` },
    payload: { content, message_type: 'text' },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  return Number(sent.json().result.id);
}

async function widget(v: Visitor) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/public/conversations/${v.id}/messages/`,
    headers: { authorization: `Visitor ${v.token}` },
  });
  return (res.json().result as TPublicMessage[]).sort((a, b) => Number(a.id) - Number(b.id));
}

const agentMessages = async (v: Visitor) => (await widget(v)).filter((m) => m.sender_type === 'agent');

async function runsOf(id: number) {
  return (await call('GET', `/api/ai/runs/?conversation_id=${id}`, me())).body.result.results as TAiRun[];
}

const chatCalls = () => sim.requests.filter((r) => r.path === '/v1/chat/completions').length;

const grounded = (answer: string) =>
  sim.script({
    kind: 'json',
    value: { answer, confidence: 0.9, used_article_ids: [refunds], handoff: false },
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  });

/** What a process killed mid-run leaves: the run claimed, its lease run out. */
async function killedRun(v: Visitor, messageId: number) {
  const row = await repo.claimResponderRun(rt.services.db, {
    businessId: shop.id,
    conversationId: v.id,
    trigger: { kind: 'message', id: messageId },
  });
  expect(row).not.toBeNull();
  return row!;
}
const expire = (runId: string, attempts = 1) =>
  rt.database.query(
    `update ai_runs set locked_until = now() - interval '1 second', attempts = $2 where id = $1`,
    [runId, attempts],
  );

beforeAll(async () => {
  sim = await startLlmSim();
  rt = await createTestRuntime({ env: { LLM_TIMEOUT_MS: '3000', LLM_MAX_RETRIES: '0' } });
  app = rt.app!;
  await app.ready();
  boss = await signUp(app, rt.mailer);
  shop = await createBusiness(app, boss, 'Restart Umbrellas');
  const group = await call('POST', '/api/msg/chat-groups/', me(), {
    name: 'Support',
    slug: 'support',
    ai_responder: {
      mode: 'always',
      channels: ['widget'],
      handoff: { max_turns: 1, human_only_topics: [], min_confidence: 0.6 },
      monthly_token_budget: 0,
    },
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  expect((group.body.result as TChatGroupSettings).ai_responder.mode).toBe('always');
  expect(
    (
      await call('PUT', '/api/config/llm/', me(), {
        base_url: sim.baseUrl,
        model: DEFAULT_SIM_MODEL,
        api_key: DEFAULT_SIM_KEY,
      })
    ).status,
  ).toBe(200);
  const article = await call('POST', '/api/kb/articles/', me(), {
    title: 'Refunds',
    body_markdown: 'We refund damaged umbrellas within 5 working days.',
    status: 'published',
  });
  refunds = article.body.result.id;
  const rivalBoss = await signUp(app, rt.mailer);
  rival = { who: rivalBoss, business: await createBusiness(app, rivalBoss, 'Rival Restart') };
});
afterAll(async () => {
  await rt.destroy();
  await sim.close();
});

describe('a killed run', () => {
  it('is left alone while its lease holds, then tried again: the customer is answered once', async () => {
    const v = await visitor(shop, 'support');
    const question = await ask(v, 'My umbrella arrived damaged, can I get a refund?');
    const row = await killedRun(v, question);
    // Still leased (its process may be working): nothing happens, and the message is not claimed twice.
    expect(await respondPending(rt.services.ai)).toBe(0);
    expect(await agentMessages(v)).toEqual([]);
    await expire(row.id);
    grounded('We refund damaged umbrellas within 5 working days.');
    expect(await respondPending(rt.services.ai)).toBe(1);
    const answers = await agentMessages(v);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.content).toContain('We refund damaged umbrellas within 5 working days.');
    expect(answers[0]!.meta_data.run_id).toBe(row.id);
    const [run] = await runsOf(v.id);
    expect(run).toMatchObject({ id: row.id, status: 'answered', attempts: 2 });
    expect(run!.steps.map((st) => st.summary)).toContain(
      'The run was interrupted (its process stopped): trying again',
    );
    // A later pass has nothing left to do.
    expect(await respondPending(rt.services.ai)).toBe(0);
    expect(await agentMessages(v)).toHaveLength(1);
  });

  it('after its answer was recorded: the answer is delivered as recorded, never sent again', async () => {
    const v = await visitor(shop, 'support');
    const question = await ask(v, 'How long do refunds take?');
    const row = await killedRun(v, question);
    // The process recorded the answer (message and send, under the run's key), then died.
    const held = (await findAiHeldConversation(rt.services.db, shop.id, v.id))!;
    await sendAiReply(rt.services.inbox, held, {
      content: 'Refunds take 5 working days.',
      metaData: { run_id: row.id, sources: [] },
      idempotencyKey: `ai-responder:${row.id}:answer`,
    });
    // Recorded twice under the same key: refused, nothing more reaches the customer.
    await expect(
      sendAiReply(rt.services.inbox, held, {
        content: 'Refunds take 5 working days.',
        metaData: { run_id: row.id, sources: [] },
        idempotencyKey: `ai-responder:${row.id}:answer`,
      }),
    ).rejects.toThrow();
    await expire(row.id);
    const before = chatCalls();
    expect(await respondPending(rt.services.ai)).toBe(1);
    expect(chatCalls()).toBe(before);
    expect((await agentMessages(v)).map((m) => m.content)).toEqual(['Refunds take 5 working days.']);
    const [run] = await runsOf(v.id);
    expect(run).toMatchObject({ status: 'answered', attempts: 2 });
  });

  it('interrupted twice: handed to a person, saying why', async () => {
    const v = await visitor(shop, 'support');
    const question = await ask(v, 'Is my refund on its way?');
    const row = await killedRun(v, question);
    await expire(row.id, 2);
    const before = chatCalls();
    expect(await respondPending(rt.services.ai)).toBe(1);
    expect(chatCalls()).toBe(before);
    expect((await agentMessages(v)).map((m) => m.content)).toEqual([RESPONDER_TEXT.handoff]);
    const [run] = await runsOf(v.id);
    expect(run).toMatchObject({ status: 'handed_off', outcome: 'interrupted', attempts: 3 });
    const notes = (await call('GET', `/api/msg/conversations/${v.id}/messages/`, me())).body.result.filter(
      (m: { message_type: string }) => m.message_type === 'note',
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].content).toContain('interrupted');
  });
});

describe('a reopened conversation', () => {
  it('is the AI’s again after it was handed off and resolved; its turns count from the reopening', async () => {
    const v = await visitor(shop, 'support');
    await ask(v, 'Can I get a refund?');
    grounded('We refund damaged umbrellas within 5 working days.');
    expect(await respondPending(rt.services.ai)).toBe(1);
    // max_turns is 1: the next question is handed off.
    await ask(v, 'And for a broken handle?');
    expect(await respondPending(rt.services.ai)).toBe(1);
    expect((await runsOf(v.id))[0]).toMatchObject({ status: 'handed_off', outcome: 'max_turns' });
    const resolved = await call('PUT', `/api/msg/conversations/${v.id}/`, me(), { status: 'resolved' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    // Weeks later the customer writes again: the conversation reopens and the AI answers it.
    await ask(v, 'Do you refund damaged umbrellas?');
    grounded('Yes: we refund damaged umbrellas within 5 working days.');
    expect(await respondPending(rt.services.ai)).toBe(1);
    const [latest] = await runsOf(v.id);
    expect(latest).toMatchObject({ status: 'answered' });
    expect((await agentMessages(v)).at(-1)!.content).toContain('Yes: we refund damaged umbrellas');
  });
});

describe('rating the AI’s answers', () => {
  let runId: string;
  let conversationId: number;

  it('staff rate an answer with a reason; the run carries it; null takes it back', async () => {
    const v = await visitor(shop, 'support');
    conversationId = v.id;
    await ask(v, 'Refund for a damaged umbrella?');
    grounded('We refund damaged umbrellas within 5 working days.');
    expect(await respondPending(rt.services.ai)).toBe(1);
    runId = (await runsOf(v.id))[0]!.id;
    const rated = await call('PUT', `/api/ai/runs/${runId}/rating/`, me(), {
      rating: 'bad',
      reason: 'It should ask for a photo first.',
    });
    expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    expect(rated.body.result).toMatchObject({
      rating: 'bad',
      rating_reason: 'It should ask for a photo first.',
      rated_by: boss.user.pk,
    });
    expect((await call('GET', `/api/ai/runs/${runId}/`, me())).body.result.rating).toBe('bad');
    const back = await call('PUT', `/api/ai/runs/${runId}/rating/`, me(), { rating: null });
    expect(back.body.result).toMatchObject({ rating: null, rating_reason: null, rated_at: null });
    await call('PUT', `/api/ai/runs/${runId}/rating/`, me(), {
      rating: 'bad',
      reason: 'It should ask for a photo first.',
    });
  });

  it('refuses bad input per field, a copilot run, and another business’s run', async () => {
    const bad = await call('PUT', `/api/ai/runs/${runId}/rating/`, me(), {
      rating: 'meh',
      reason: 'x'.repeat(1001),
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.result).sort()).toEqual(['rating', 'reason']);
    const foreign = await call('PUT', `/api/ai/runs/${runId}/rating/`, rival, { rating: 'good' });
    expect(foreign.status).toBe(404);
    expect((await call('GET', `/api/ai/runs/${runId}/`, me())).body.result.rating).toBe('bad');
    sim.script({ kind: 'text', content: 'The customer wants a refund.' });
    const summary = await call('POST', '/api/ai/summarize/', me(), { conversation_id: conversationId });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    const copilot = await call('PUT', `/api/ai/runs/${summary.body.result.run_id}/rating/`, me(), {
      rating: 'good',
    });
    expect(copilot.status).toBe(409);
  });

  it('the report counts outcomes, handoff reasons and ratings, with the newest bad answers', async () => {
    const res = await call('GET', '/api/ai/report/', me());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = res.body.result as TAiReport;
    expect(report).toMatchObject({ rated_good: 0, rated_bad: 1, good_rate: 0 });
    expect(report.answered).toBeGreaterThanOrEqual(4);
    expect(report.handed_off).toBe(2);
    expect(report.handoff_reasons).toEqual(
      expect.arrayContaining([
        { reason: 'interrupted', count: 1 },
        { reason: 'max_turns', count: 1 },
      ]),
    );
    expect(report.recent_bad).toEqual([
      expect.objectContaining({
        run_id: runId,
        conversation_id: conversationId,
        reason: 'It should ask for a photo first.',
      }),
    ]);
    // Another business's report holds none of it.
    const theirs = (await call('GET', '/api/ai/report/', rival)).body.result as TAiReport;
    expect(theirs).toMatchObject({ runs: 0, rated_bad: 0, recent_bad: [] });
    const backwards = await call(
      'GET',
      '/api/ai/report/?from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z',
      me(),
    );
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.body.result)).toEqual(['from']);
  });
});
