// An agent on WhatsApp against the Cloud API simulator and tools/llm-sim: a free-form text inside
// the customer's 24-hour window, only a template outside it (the window guardrail), and a template
// to a customer who never wrote — each through the send spine under the delivery's idempotency key.
// At the frequency cap's edge, a delivery racing another sender that holds the customer's cap lock
// waits for its commit and is stopped (on PostgreSQL it is seen waiting on the lock first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import {
  FREQUENCY_CAP_WORDS,
  type TAgentRun,
  type TBusiness,
  type TConversation,
  type TWhatsappTemplate,
} from '@titan/contracts';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { insertCustomer } from '../../directory/directory.service';
import { processRun } from '../runs/lifecycle';
import { insertRun } from '../agents.runs.repository';
import { frequencyCapForRecording } from '../../sends';

let llm: LlmSim;
let bench: WhatsappBench;
let business: TBusiness;

const call = <T = unknown>(method: string, path: string, payload?: unknown) =>
  callAs<T>(bench.base, method, path, bench.owner, business, payload);

async function conversationOf(name: string): Promise<TConversation> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await call<{ results: TConversation[] }>(
      'GET',
      '/api/msg/conversations/?channel__in=whatsapp&page_size=100',
    );
    const found = list.body.result.results.find((c) => c.initiator?.name === name);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no conversation with ${name}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  llm = await startLlmSim();
  bench = await startWhatsappBench({ businessName: 'WhatsApp Agents Co' });
  business = bench.business;
  expect(
    (
      await call('PUT', '/api/config/llm/', {
        base_url: llm.baseUrl,
        model: DEFAULT_SIM_MODEL,
        api_key: DEFAULT_SIM_KEY,
      })
    ).status,
  ).toBe(200);
  expect((await call('POST', '/api/whatsapp/template/sync/')).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await bench?.close();
  await llm?.close();
});

describe('an agent on WhatsApp', () => {
  it('writes free-form inside the 24-hour window, only templates outside it', async () => {
    const { sim, rt } = bench;
    await sim.sendInbound({
      from: '15550004001',
      name: 'Ana',
      type: 'text',
      text: 'Do you have it in blue?',
    });
    await sim.sendInbound({
      from: '15550004002',
      name: 'Bo',
      type: 'text',
      text: 'Thanks!',
      timestamp: Math.floor(Date.now() / 1000) - 2 * 24 * 60 * 60,
    });
    const ana = (await conversationOf('Ana')).initiator!.id;
    const bo = (await conversationOf('Bo')).initiator!.id;
    const cy = (
      await insertCustomer(rt.services.db, { businessId: business.id, name: 'Cy', phone: '+15550004003' })
    ).id;
    const dee = (
      await insertCustomer(rt.services.db, { businessId: business.id, name: 'Dee', phone: '+15550004004' })
    ).id;
    // Everyone opted in on WhatsApp but Dee.
    await rt.database.query(
      `update customers set whatsapp_status = 'subscribed' where business_id = $1 and id <> $2`,
      [business.id, dee],
    );
    const templates = await call<TWhatsappTemplate[]>('GET', '/api/whatsapp/template/');
    const hello = templates.body.result.find((t) => t.name === 'hello_world')!;

    const list = await call<{ id: number }>('POST', '/api/business/customer-lists/', {
      name: 'WhatsApp people',
    });
    await call('POST', `/api/business/customer-lists/${list.body.result.id}/members/`, {
      customer_ids: [ana, bo, cy, dee],
    });
    const created = await call<{ id: number }>('POST', '/api/agents/', {
      name: 'Follow-up',
      status: 'active',
      config: {
        instructions: 'Answer open questions; otherwise say hello with the template.',
        goal: 'Follow up',
        audience: { list_ids: [list.body.result.id] },
        channels: [{ channel: 'whatsapp' }],
        send_mode: 'auto',
        limits: { max_sends_per_run: 10, per_recipient_per_week: 2, max_steps: 4, max_tokens: 4000 },
      },
    });
    expect(created.status).toBe(201);
    const agentId = created.body.result.id;
    const decision = (over: Record<string, unknown>) => ({
      kind: 'json' as const,
      value: {
        send: true,
        channel: 'whatsapp',
        template_id: null,
        variables: [],
        subject: null,
        body: null,
        reason: 'Follow up.',
        ...over,
      },
    });
    // Ana and Bo came from two webhook deliveries, processed in either order: the run takes its
    // recipients in id order, so the script follows their ids.
    const toAna = decision({ body: 'Yes, we have it in blue! Shall I keep one for you?' });
    const toBo = decision({ body: 'Hi Bo, anything else?' });
    llm.script(...(ana < bo ? [toAna, toBo] : [toBo, toAna]), decision({ template_id: hello.id }));
    // The run as the job would work it, one recipient at a time (the script's order).
    const run = (await insertRun(rt.services.db, {
      agentId,
      businessId: business.id,
      channel: 'whatsapp',
      slot: new Date(),
      trigger: 'manual',
      configVersion: 1,
      sendMode: 'auto',
    }))!;
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, run.id);
    const detail = (await call<TAgentRun>('GET', `/api/agents/${agentId}/runs/${run.id}/`)).body.result;
    const of = new Map(detail.deliveries.map((d) => [d.customer!.id, d]));
    expect(of.get(ana), of.get(ana)?.reason).toMatchObject({ status: 'sent' });
    expect(of.get(bo)).toMatchObject({ status: 'suppressed', guardrail: 'whatsapp_window' });
    expect(of.get(cy)).toMatchObject({ status: 'sent', template_id: hello.id });
    expect(of.get(dee)).toMatchObject({ status: 'suppressed', guardrail: 'consent' });

    // Meta got a text for Ana and the template for Cy; nothing for Bo or Dee.
    const to = (n: string) => sim.outbound.filter((o) => o.to === n);
    expect(to('15550004001').map((o) => o.body.type)).toEqual(['text']);
    expect((to('15550004001')[0]!.body.text as { body: string }).body).toBe(
      'Yes, we have it in blue! Shall I keep one for you?',
    );
    expect(to('15550004003').map((o) => (o.body.template as { name: string } | undefined)?.name)).toEqual([
      'hello_world',
    ]);
    expect(to('15550004002')).toHaveLength(0);
    expect(to('15550004004')).toHaveLength(0);
    const sent = await rt.database.query<{ cause: string; idempotency_key: string; customer_id: number }>(
      `select cause, idempotency_key, customer_id::int as customer_id from sends where cause_id = $1 order by customer_id`,
      [run.id],
    );
    expect(sent.map((s) => s.customer_id).sort()).toEqual([ana, cy].sort());
    expect(
      sent.every((s) => s.cause === 'agent' && s.idempotency_key.startsWith(`agent:${agentId}:whatsapp:`)),
    ).toBe(true);
    // The inbox shows the agent's message in Ana's conversation.
    const messages = await call<{ content: string; sender_type: string }[]>(
      'GET',
      `/api/msg/conversations/${(await conversationOf('Ana')).id}/messages/`,
    );
    expect(messages.body.result.some((m) => m.sender_type === 'agent' && m.content.includes('in blue'))).toBe(
      true,
    );

    // Run again over the same slot: nothing is sent twice.
    const before = sim.outbound.length;
    await rt.database.query(
      `update agent_runs set status = 'running', cursor = 0, locked_until = null where id = $1`,
      [run.id],
    );
    await processRun({ ...rt.services.agentRuns, concurrency: 1 }, run.id);
    expect(sim.outbound.length).toBe(before);
  });

  it("at the cap's edge, waits on the customer's cap lock for another sender and is stopped", async () => {
    const { sim, rt } = bench;
    const cap = { enabled: true, max_messages: 1, period_days: 7 };
    expect((await call('PUT', '/api/business/frequency-cap/', cap)).status).toBe(200);
    try {
      const eve = (
        await insertCustomer(rt.services.db, { businessId: business.id, name: 'Eve', phone: '+15550004005' })
      ).id;
      await rt.database.query(`update customers set whatsapp_status = 'subscribed' where id = $1`, [eve]);
      const hello = (await call<TWhatsappTemplate[]>('GET', '/api/whatsapp/template/')).body.result.find(
        (t) => t.name === 'hello_world',
      )!;
      const list = await call<{ id: number }>('POST', '/api/business/customer-lists/', { name: 'Eve only' });
      await call('POST', `/api/business/customer-lists/${list.body.result.id}/members/`, {
        customer_ids: [eve],
      });
      const created = await call<{ id: number }>('POST', '/api/agents/', {
        name: 'Edge',
        status: 'active',
        config: {
          instructions: 'Say hello with the template.',
          goal: 'Hello',
          audience: { list_ids: [list.body.result.id] },
          channels: [{ channel: 'whatsapp' }],
          send_mode: 'auto',
          limits: { max_sends_per_run: 10, per_recipient_per_week: 2, max_steps: 4, max_tokens: 4000 },
        },
      });
      expect(created.status).toBe(201);
      llm.script({
        kind: 'json',
        value: {
          send: true,
          channel: 'whatsapp',
          template_id: hello.id,
          variables: [],
          subject: null,
          body: null,
          reason: 'Hello.',
        },
      });
      const run = (await insertRun(rt.services.db, {
        agentId: created.body.result.id,
        businessId: business.id,
        channel: 'whatsapp',
        slot: new Date(),
        trigger: 'manual',
        configVersion: 1,
        sendMode: 'auto',
      }))!;

      // Sender 1 (a journey's step, say) counts under the cap's lock and records Eve's one marketing
      // message of the week, then is slow to commit.
      let counted!: () => void;
      const firstCounted = new Promise<void>((resolve) => (counted = resolve));
      let letGo!: () => void;
      const release = new Promise<void>((resolve) => (letGo = resolve));
      const first = rt.services.db.transaction(async (tx) => {
        const { capped } = await frequencyCapForRecording(tx, business.id, [eve], new Date());
        expect(capped.has(eve)).toBe(false);
        await tx.execute(
          sql`insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
              values (${business.id}, 'whatsapp', 'journey', ${eve}, '15550004005', 'queued', '{}')`,
        );
        counted();
        await release;
      });
      await firstCounted;
      // Sender 2: the agent's run, deciding and delivering at the same moment (its guardrail reads
      // the cap before the first commits, so only the lock at recording can stop it).
      const second = processRun({ ...rt.services.agentRuns, concurrency: 1 }, run.id);
      if (rt.database.kind === 'postgres') {
        // Seen waiting on an advisory lock before the first commits (without the lock it would have
        // counted 0 and recorded a second message by now).
        const deadline = Date.now() + 20_000;
        for (;;) {
          const [row] = await rt.database.query<{ n: number }>(
            `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
          );
          if (row!.n > 0 || Date.now() > deadline) break;
          await new Promise((r) => setTimeout(r, 25));
        }
      } else {
        // PGlite has one connection: the run's statements wait for the first transaction anyway.
        await new Promise((r) => setTimeout(r, 50));
      }
      letGo();
      await Promise.all([first, second]);

      const [{ n }] = (await rt.database.query<{ n: number }>(
        `select count(*)::int as n from sends where business_id = $1 and customer_id = $2`,
        [business.id, eve],
      )) as [{ n: number }];
      expect(n).toBe(1);
      expect(sim.outbound.filter((o) => o.to === '15550004005')).toHaveLength(0);
      const detail = (await call<TAgentRun>('GET', `/api/agents/${created.body.result.id}/runs/${run.id}/`))
        .body.result;
      expect(detail.deliveries.find((d) => d.customer?.id === eve)).toMatchObject({
        status: 'suppressed',
        reason: FREQUENCY_CAP_WORDS.reason(1, cap),
      });
    } finally {
      await call('PUT', '/api/business/frequency-cap/', { enabled: false, max_messages: 3, period_days: 7 });
    }
  });
});
