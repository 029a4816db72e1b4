// The AI first responder on WhatsApp, end to end: the Cloud API simulator plays the customer's phone
// and Meta, tools/llm-sim the model, Titan listens on a port with its workers running (the
// responder's loop woken by the WhatsApp message). A question answered from the knowledge base
// reaches the phone once, through WhatsApp's own send (recorded on the spine under the run's key
// before Meta is called), with its source link, and shows in the inbox as the AI's message; "talk
// to a human" hands off with the same rules as on the widget: the customer told on WhatsApp, a
// private note for staff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import type { TAiRun, TChatGroupSettings, TMessage } from '@titan/contracts';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { RESPONDER_TEXT } from '../ai.responder';

const CUSTOMER = '4915700000777';

let bench: WhatsappBench;
let llm: LlmSim;
let support: number;
let refunds: number;

const call = <T>(method: string, path: string, payload?: unknown) =>
  callAs<T>(bench.base, method, path, bench.owner, bench.business, payload);

async function conversationOf(wamid: string): Promise<number> {
  let id = 0;
  await expect
    .poll(
      async () => {
        const [row] = await bench.rt.database.query<{ conversation_id: number }>(
          'select conversation_id from wa_messages where id = $1',
          [wamid],
        );
        id = Number(row?.conversation_id ?? 0);
        return id;
      },
      { timeout: 60_000, interval: 50 },
    )
    .toBeGreaterThan(0);
  return id;
}

async function timeline(id: number): Promise<TMessage[]> {
  const res = await call<TMessage[]>('GET', `/api/msg/conversations/${id}/messages/?limit=200`);
  expect(res.status).toBe(200);
  return res.body.result;
}

const textsTo = (to: string) =>
  bench.sim.outbound
    .filter((o) => o.to === to && o.body.type === 'text')
    .map((o) => (o.body.text as { body: string }).body);

beforeAll(async () => {
  llm = await startLlmSim();
  bench = await startWhatsappBench({
    businessName: 'Responder on WhatsApp',
    env: { LLM_TIMEOUT_MS: '3000', LLM_MAX_RETRIES: '0' },
  });
  const group = await call<TChatGroupSettings>('POST', '/api/msg/chat-groups/', {
    name: 'Support',
    slug: 'support',
  });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  support = group.body.result.id;
  expect(
    (
      await call('PUT', '/api/config/llm/', {
        base_url: llm.baseUrl,
        model: DEFAULT_SIM_MODEL,
        api_key: DEFAULT_SIM_KEY,
      })
    ).status,
  ).toBe(200);
  const article = await call<{ id: number }>('POST', '/api/kb/articles/', {
    title: 'Refunds',
    body_markdown: 'We refund damaged umbrellas within 5 working days. Send us a photo of the damage.',
    status: 'published',
  });
  expect(article.status).toBe(201);
  refunds = article.body.result.id;
  const saved = await call('PUT', `/api/msg/chat-groups/${support}/`, {
    ai_responder: {
      mode: 'always',
      channels: ['whatsapp'],
      handoff: { max_turns: 3, human_only_topics: [], min_confidence: 0.6 },
      monthly_token_budget: 0,
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});

afterAll(async () => {
  await bench?.close();
  await llm?.close();
});

describe('the first responder on WhatsApp', () => {
  let conversationId: number;

  it('answers the customer on WhatsApp from the article, once, through the channel’s own send', async () => {
    llm.script({
      kind: 'json',
      value: {
        answer: 'Sorry to hear that! We refund damaged umbrellas within 5 working days.',
        confidence: 0.92,
        used_article_ids: [refunds],
        handoff: false,
      },
      usage: { prompt_tokens: 300, completion_tokens: 40 },
    });
    // The conversation opens outside any group; the business routes WhatsApp to Support.
    const { wamid } = await bench.sim.sendInbound({
      from: CUSTOMER,
      name: 'Wanda Waters',
      type: 'text',
      text: 'My umbrella arrived broken, can I get a refund?',
    });
    conversationId = await conversationOf(wamid);
    await bench.rt.database.query('update conversations set assigned_chat_group_id = $1 where id = $2', [
      support,
      conversationId,
    ]);
    const answers = await bench.sim.waitFor(() => {
      const texts = textsTo(CUSTOMER);
      return texts.length > 0 && texts;
    }, 90_000);
    const url = `${bench.rt.config.PUBLIC_URL}/hc/${bench.business.unique_code}/articles/${refunds}-refunds`;
    expect(answers).toEqual([
      `Sorry to hear that! We refund damaged umbrellas within 5 working days.\n\nSource:\n- Refunds: ${url}`,
    ]);
    // The inbox shows it as the AI's message, with its sources and run.
    // The provider may answer before the send's own bookkeeping commits: wait for the row.
    let answer: TMessage | undefined;
    await expect
      .poll(
        async () => {
          answer = (await timeline(conversationId)).find((m) => m.sender_type === 'agent');
          return answer?.content;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(answers[0]);
    if (!answer) throw new Error('no AI message in the timeline');
    expect(answer.meta_data.sources).toEqual([{ article_id: refunds, title: 'Refunds', url }]);
    const runId = answer.meta_data.run_id as string;
    await expect
      .poll(async () => (await call<TAiRun>('GET', `/api/ai/runs/${runId}/`)).body.result, {
        timeout: 10_000,
      })
      .toMatchObject({ kind: 'responder', status: 'answered', attempts: 1 });
    // One send on the spine: the AI's, recorded under the run's key; a second pass sends nothing.
    const sends = await bench.rt.database.query<{ cause: string; idempotency_key: string; status: string }>(
      `select cause, idempotency_key, status from sends where conversation_id = $1 and channel = 'whatsapp'`,
      [conversationId],
    );
    expect(sends.map((r) => [r.cause, r.idempotency_key])).toEqual([
      ['agent', `ai-responder:${runId}:answer`],
    ]);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(textsTo(CUSTOMER)).toHaveLength(1);
  });

  it('hands off on WhatsApp when the customer asks for a person: told there, a note for staff', async () => {
    const chats = llm.requests.filter((r) => r.path === '/v1/chat/completions').length;
    await bench.sim.sendInbound({
      from: CUSTOMER,
      type: 'text',
      text: 'Can I talk to a real person please?',
    });
    const texts = await bench.sim.waitFor(() => {
      const all = textsTo(CUSTOMER);
      return all.length > 1 && all;
    }, 90_000);
    expect(texts.at(-1)).toBe(RESPONDER_TEXT.asked);
    // Decided in code: no model call.
    expect(llm.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(chats);
    await expect
      .poll(async () => (await timeline(conversationId)).filter((m) => m.message_type === 'note').length, {
        timeout: 10_000,
      })
      .toBe(1);
    const note = (await timeline(conversationId)).find((m) => m.message_type === 'note')!;
    expect(note.content).toContain('AI handoff: the customer asked for a person.');
    expect(note.content).toContain('Can I talk to a real person please?');
    const runs = await call<{ results: TAiRun[] }>('GET', `/api/ai/runs/?conversation_id=${conversationId}`);
    expect(runs.body.result.results.map((r) => [r.status, r.outcome])).toEqual([
      ['handed_off', 'customer_asked'],
      ['answered', null],
    ]);
    // Handed off: a later message is the team's to answer, not the AI's.
    await bench.sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'Hello?' });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(textsTo(CUSTOMER)).toHaveLength(2);
  });
});
