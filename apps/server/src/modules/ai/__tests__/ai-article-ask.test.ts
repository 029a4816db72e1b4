// Two staff tools of the copilot against tools/llm-sim: a staff reply turned into a draft
// help-centre article (written by the model from the question and the reply; without a model, the
// reply as written under the customer's question, said plainly), and the "Ask" box (a staff
// question answered from the published articles and the conversation, with its sources; without a
// model, no answer, said plainly, and the matching articles). Drafts and another business's
// articles are never sources; an agent outside the group, another business, or a member without
// engage.write cannot use them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import {
  AI_ERRORS,
  type TAiArticleDraft,
  type TAiAskAnswer,
  type TAiRun,
  type TMessage,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';

let rt: TestRuntime;
let app: FastifyInstance;
let sim: LlmSim;
/** With the simulated model. */
let s: ScopedBusiness;
/** Without a model. */
let plain: ScopedBusiness;
const ids = {} as Record<
  'support' | 'sales' | 'plainConversation' | 'refunds' | 'draft' | 'plainRefunds',
  number
>;
const replies = {} as Record<'support' | 'plain', TMessage['id']>;
let customerMessage: TMessage['id'];

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  who: Session,
  biz: ScopedBusiness,
  payload?: object,
) {
  const res = await app.inject({ method, url, headers: as(who, biz.shop), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function article(b: ScopedBusiness, title: string, body: string, status = 'published') {
  const res = await call('POST', '/api/kb/articles/', b.boss, b, { title, body_markdown: body, status });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result.id as number;
}

/** A visitor's conversation in a group of `b`, with the question asked and staff's reply. */
async function askedAndAnswered(b: ScopedBusiness, slug: string, question: string, answer?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.shop.unique_code, name: 'Vera Visitor' },
  });
  const { token } = res.json().result;
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { group_slug: slug },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().result.id as number;
  const sent = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${id}/messages/`,
    headers: { authorization: `Visitor ${token}` },
    payload: { content: question, message_type: 'text' },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  let reply: TMessage['id'] | null = null;
  if (answer) {
    const r = await call('POST', `/api/msg/conversations/${id}/messages/`, b.boss, b, {
      message_type: 'text',
      content: answer,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    reply = (r.body.result as TMessage).id;
  }
  return { id, reply, question: (sent.json().result as TMessage).id };
}

beforeAll(async () => {
  sim = await startLlmSim();
  rt = await createTestRuntime({ env: { LLM_TIMEOUT_MS: '3000', LLM_MAX_RETRIES: '0' } });
  app = rt.app!;
  await app.ready();
  s = await scopedBusiness(app, rt.mailer, 'Draft Umbrellas');
  plain = await scopedBusiness(app, rt.mailer, 'Plain Umbrellas');
  const saved = await call('PUT', '/api/config/llm/', s.boss, s, {
    base_url: sim.baseUrl,
    model: DEFAULT_SIM_MODEL,
    api_key: DEFAULT_SIM_KEY,
  });
  expect(saved.status).toBe(200);
  ids.refunds = await article(s, 'Refunds', 'We refund damaged umbrellas within five working days.');
  ids.draft = await article(s, 'Refund secrets', 'Refund damaged umbrellas twice.', 'draft');
  ids.plainRefunds = await article(plain, 'Refunds', 'Plain refunds damaged umbrellas within ten days.');
  const support = await askedAndAnswered(
    s,
    'support',
    'My umbrella arrived damaged, can I get a refund? My order is 4411.',
    'Sorry Vera! Damaged umbrellas are refunded within five working days: reply with a photo of the damage.',
  );
  ids.support = support.id;
  replies.support = support.reply!;
  customerMessage = support.question;
  ids.sales = (await askedAndAnswered(s, 'sales', 'Do you sell golf umbrellas?', 'Yes, in three sizes.')).id;
  const p = await askedAndAnswered(
    plain,
    'support',
    'How do I get a refund for a damaged umbrella?',
    'Send us a photo of the damage.\nWe refund within ten days.',
  );
  ids.plainConversation = p.id;
  replies.plain = p.reply!;
});
afterAll(async () => {
  await rt.destroy();
  await sim.close();
});

describe('a staff reply turned into an article', () => {
  it('has the model write a draft article from the question and the reply', async () => {
    sim.script({
      kind: 'json',
      value: {
        title: 'Can I get a refund for a damaged umbrella?',
        body_markdown:
          'Damaged umbrellas are refunded within five working days.\n\n## How\n\nReply with a photo of the damage.',
      },
      usage: { prompt_tokens: 300, completion_tokens: 60 },
    });
    const before = sim.requests.length;
    const res = await call('POST', '/api/ai/article-drafts/', s.boss, s, {
      conversation_id: ids.support,
      message_id: replies.support,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const draft = res.body.result as TAiArticleDraft;
    expect(draft).toMatchObject({ written_by_model: true, notice: null });
    expect(draft.article).toMatchObject({
      title: 'Can I get a refund for a damaged umbrella?',
      status: 'draft',
      body_markdown:
        'Damaged umbrellas are refunded within five working days.\n\n## How\n\nReply with a photo of the damage.',
    });
    // The model read the question and the reply as data, told to keep this customer's details out.
    const sent = sim.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body!;
    const system = String(sent.messages[0]!.content);
    const user = String(sent.messages[1]!.content);
    expect(system).toContain('never instructions');
    expect(system).toContain('order numbers');
    expect(user).toContain('QUESTION:\nMy umbrella arrived damaged, can I get a refund?');
    expect(user).toContain('REPLY:\nSorry Vera! Damaged umbrellas are refunded');

    // A draft in the knowledge base, not in the help centre.
    const stored = await call('GET', `/api/kb/articles/${draft.article.id}/`, s.boss, s);
    expect(stored.body.result.status).toBe('draft');
    const hc = await app.inject({
      method: 'GET',
      url: `/api/public/kb/${s.shop.unique_code}/search/?q=damaged`,
    });
    expect(hc.json().result.results.map((h: { article_id: number }) => h.article_id)).not.toContain(
      draft.article.id,
    );
    const run = (await call('GET', `/api/ai/runs/${draft.run_id}/`, s.boss, s)).body.result as TAiRun;
    expect(run).toMatchObject({ kind: 'article_draft', status: 'done', prompt_tokens: 300 });
  });

  it('without a model, drafts the reply as written under the question and says so', async () => {
    const before = sim.requests.length;
    const res = await call('POST', '/api/ai/article-drafts/', plain.boss, plain, {
      conversation_id: ids.plainConversation,
      message_id: replies.plain,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const draft = res.body.result as TAiArticleDraft;
    expect(draft).toMatchObject({
      written_by_model: false,
      notice: AI_ERRORS.noModelDraft,
      run_id: null,
      article: {
        title: 'How do I get a refund for a damaged umbrella?',
        body_markdown: 'Send us a photo of the damage.\nWe refund within ten days.',
        status: 'draft',
      },
    });
    expect(sim.requests.length).toBe(before);
  });

  it('takes only a staff reply, of a conversation the caller may see, from a member who may write', async () => {
    const customer = await call('POST', '/api/ai/article-drafts/', s.boss, s, {
      conversation_id: ids.support,
      message_id: customerMessage,
    });
    expect(customer.status).toBe(409);
    expect(customer.body.message).toBe(AI_ERRORS.notAStaffReply);
    const missing = await call('POST', '/api/ai/article-drafts/', s.boss, s, {
      conversation_id: ids.support,
      message_id: 99_999_999,
    });
    expect(missing.status).toBe(404);
    // Another business's conversation is not found; an agent may not write the knowledge base.
    const foreign = await call('POST', '/api/ai/article-drafts/', plain.boss, plain, {
      conversation_id: ids.support,
      message_id: replies.support,
    });
    expect(foreign.status).toBe(404);
    const agent = await call('POST', '/api/ai/article-drafts/', s.agent, s, {
      conversation_id: ids.support,
      message_id: replies.support,
    });
    expect(agent.status).toBe(403);
  });
});

describe('the copilot Ask box', () => {
  it('answers a staff question from the published articles and the conversation, with its sources', async () => {
    sim.script({
      kind: 'json',
      value: {
        answer: 'Yes: damaged umbrellas are refunded within five working days once she sends a photo.',
        used_article_ids: [ids.refunds, ids.draft, ids.plainRefunds, 424242],
      },
      usage: { prompt_tokens: 250, completion_tokens: 30 },
    });
    const before = sim.requests.length;
    const res = await call('POST', '/api/ai/ask/', s.agent, s, {
      conversation_id: ids.support,
      question: 'Can we refund a damaged umbrella, and how fast?',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = res.body.result as TAiAskAnswer;
    expect(answer.answer).toBe(
      'Yes: damaged umbrellas are refunded within five working days once she sends a photo.',
    );
    expect(answer.notice).toBeNull();
    // Only the published article it was given is a source: not the draft, the other business's, an invented id.
    expect(answer.sources).toEqual([
      {
        article_id: ids.refunds,
        title: 'Refunds',
        url: `${rt.config.PUBLIC_URL}/hc/${s.shop.unique_code}/articles/${ids.refunds}-refunds`,
      },
    ]);
    const sent = sim.requests.slice(before).find((r) => r.path === '/v1/chat/completions')!.body!;
    const user = String(sent.messages[1]!.content);
    expect(user).toContain('QUESTION:\nCan we refund a damaged umbrella, and how fast?');
    expect(user).toContain(`[${ids.refunds}] Refunds`);
    expect(user).not.toContain('Refund secrets');
    expect(user).not.toContain('Plain refunds');
    expect(user).toContain('Customer: My umbrella arrived damaged');
    const run = (await call('GET', `/api/ai/runs/${answer.run_id}/`, s.agent, s)).body.result as TAiRun;
    expect(run).toMatchObject({ kind: 'ask', status: 'done', conversation_id: ids.support });
    expect(run.steps.map((x) => x.type)).toEqual(['retrieval', 'model']);
  });

  it('without a model, says so plainly and gives the matching published articles', async () => {
    const before = sim.requests.length;
    const res = await call('POST', '/api/ai/ask/', plain.boss, plain, {
      conversation_id: ids.plainConversation,
      question: 'How long do damaged umbrella refunds take?',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({
      answer: null,
      notice: AI_ERRORS.noModelAsk,
      run_id: null,
      sources: [
        {
          article_id: ids.plainRefunds,
          title: 'Refunds',
          url: `${rt.config.PUBLIC_URL}/hc/${plain.shop.unique_code}/articles/${ids.plainRefunds}-refunds`,
        },
      ],
    });
    expect(sim.requests.length).toBe(before);
  });

  it('refuses an empty question, and conversations outside the caller’s groups or business', async () => {
    const empty = await call('POST', '/api/ai/ask/', s.boss, s, {
      conversation_id: ids.support,
      question: ' ',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.result).toEqual({ question: ['Write a question first.'] });
    const outside = await call('POST', '/api/ai/ask/', s.agent, s, {
      conversation_id: ids.sales,
      question: 'Golf umbrellas?',
    });
    expect(outside.status).toBe(404);
    const foreign = await call('POST', '/api/ai/ask/', plain.boss, plain, {
      conversation_id: ids.support,
      question: 'Refunds?',
    });
    expect(foreign.status).toBe(404);
  });
});
