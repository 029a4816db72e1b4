// A WhatsApp conversation Titan opens itself — a template sent to a new number, a campaign's message
// to a customer who had none — is announced as one a customer opens: `conversation.opened` for the
// journeys that listen. A template Meta refuses opens (and announces) nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TEMPLATES, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TCampaign, TMessage } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import type { Session } from '../../../testing/identity';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { runCampaign } from '../../campaigns/campaigns.runner';
import { zoneAt } from '../../../testing/zones';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

const call = <T = unknown>(method: string, path: string, payload?: unknown) =>
  callAs<T>(base, method, path, owner, business, payload);

/** The `conversation.opened` events stored for the business: customer, conversation, channel. */
const opened = () =>
  rt.database
    .query<{
      customer_id: string;
      properties: { conversation_id: number; channel: string; reopened: boolean };
    }>(
      `select customer_id, properties from customer_events
       where business_id = $1 and name = 'conversation.opened' order by id`,
      [business.id],
    )
    .then((rows) => rows.map((r) => ({ customerId: Number(r.customer_id), ...r.properties })));

const customerOfConversation = async (id: number) => {
  const [row] = await rt.database.query<{ initiator_id: string }>(
    'select initiator_id from conversations where id = $1',
    [id],
  );
  return Number(row!.initiator_id);
};

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Opened Co', templates: SEED_TEMPLATES });
  ({ sim, rt, base, owner, business } = bench);
  expect((await call('POST', '/api/whatsapp/template/sync/')).status).toBe(200);
  const journey = await call<{ id: number }>('POST', '/api/journeys/', {
    name: 'On a new conversation',
    reentry: 'always',
    graph: {
      nodes: [
        { id: 'start', type: 'trigger', config: { kind: 'event', event: 'conversation.opened' } },
        { id: 'done', type: 'exit', config: {} },
      ],
      edges: [{ from: 'start', to: 'done' }],
    },
  });
  expect(journey.status, JSON.stringify(journey.body)).toBe(201);
  const live = await call('POST', `/api/journeys/${journey.body.result.id}/publish/`);
  expect(live.status, JSON.stringify(live.body)).toBe(200);
});

afterAll(() => bench?.close());

describe('conversation.opened for conversations Titan opens on WhatsApp', () => {
  it('is told once for a template to a new number, and not for one Meta refused', async () => {
    const first = await call<TMessage>('POST', '/api/whatsapp/message/send-template/', {
      to: '+44 7700 900200',
      name: 'hello_world',
      language: 'en_US',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const conversationId = first.body.result.conversation_id;
    const again = await call<TMessage>('POST', '/api/whatsapp/message/send-template/', {
      to: '447700900200',
      name: 'hello_world',
      language: 'en_US',
    });
    expect(again.body.result.conversation_id).toBe(conversationId);

    sim.failNextSends(132000);
    const refused = await call('POST', '/api/whatsapp/message/send-template/', {
      to: '+44 7700 900201',
      name: 'hello_world',
      language: 'en_US',
    });
    expect(refused.status).toBe(400);

    expect(await opened()).toEqual([
      {
        customerId: await customerOfConversation(conversationId),
        conversation_id: conversationId,
        channel: 'whatsapp',
        reopened: false,
      },
    ]);
  });

  it('is told for a campaign message that opens a customer’s first conversation', async () => {
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name, phone, whatsapp_status, fields)
       values ($1, 'Nia', '+4915112349001', 'subscribed', $2) returning id`,
      // Her clock at midday, whatever the hour the test runs: a campaign waits out quiet hours.
      [business.id, JSON.stringify({ timezone: zoneAt(12) })],
    );
    const nia = Number(row!.id);
    const list = (await call<{ id: number }>('POST', '/api/business/customer-lists/', { name: 'News' })).body
      .result.id;
    await call('POST', `/api/business/customer-lists/${list}/members/`, { customer_ids: [nia] });
    const created = await call<TCampaign>('POST', '/api/campaigns/', {
      name: 'Hello',
      channel: 'whatsapp',
      audience: { list_ids: [list] },
      content: { whatsapp_template: { name: 'hello_world', language: 'en_US', variables: {} } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.result.id;
    expect((await call('POST', `/api/campaigns/${id}/schedule/`)).status).toBe(200);
    await runCampaign({ ...rt.services.campaigns, clock: () => new Date() }, id);
    await sim.waitFor(() => sim.outbound.find((o) => o.to === '4915112349001'), 15_000);

    const [conversation] = await rt.database.query<{ id: string }>(
      `select id from conversations where business_id = $1 and initiator_id = $2 and channel = 'whatsapp'`,
      [business.id, nia],
    );
    expect(conversation).toBeDefined();
    const told = (await opened()).filter((e) => e.customerId === nia);
    expect(told).toEqual([
      { customerId: nia, conversation_id: Number(conversation!.id), channel: 'whatsapp', reopened: false },
    ]);
  });
});
