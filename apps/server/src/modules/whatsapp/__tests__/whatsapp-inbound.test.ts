// Receiving on WhatsApp end to end: the Cloud API simulator sends Meta-shaped, signed webhooks for
// every inbound type to Titan listening on a port; each lands in the customer's conversation with
// its payload kept and a summary a person can read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundSpec, WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TConversation, TMessage } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { as, type Session } from '../../../testing/identity';

const CUSTOMER = '4915700000001';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`, { headers: as(owner, business) });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { result: T }).result;
}

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Inbound Co' });
  ({ sim, rt, base, owner, business } = bench);
});
afterAll(() => bench?.close());

/** Sends one inbound message from the phone and answers it as the inbox shows it. */
async function receive(spec: Omit<InboundSpec, 'from'> & { from?: string }): Promise<TMessage> {
  const { wamid, status } = await sim.sendInbound({ from: CUSTOMER, name: 'Greta Green', ...spec });
  expect(status).toBe(200);
  let conversationId = 0;
  await expect
    .poll(
      async () => {
        const [row] = await rt.database.query<{ conversation_id: number }>(
          'select conversation_id from wa_messages where id = $1',
          [wamid],
        );
        conversationId = Number(row?.conversation_id ?? 0);
        return conversationId;
      },
      { timeout: 60_000, interval: 50 },
    )
    .toBeGreaterThan(0);
  const messages = await get<TMessage[]>(`/api/msg/conversations/${conversationId}/messages/?limit=200`);
  const found = messages.find((m) => m.id === wamid);
  expect(found, `message ${wamid} in the conversation's messages`).toBeDefined();
  return found!;
}

describe('every inbound type from the simulator', () => {
  const cases: [string, Omit<InboundSpec, 'from'>, string | RegExp][] = [
    [
      'text',
      { type: 'text', text: 'Hallo, ich habe eine Frage 🙂 / Frage' },
      'Hallo, ich habe eine Frage 🙂 / Frage',
    ],
    ['image', { type: 'image', text: 'My receipt' }, 'My receipt'],
    ['video', { type: 'video' }, '[video]'],
    [
      'audio (voice note)',
      { type: 'audio', media: { bytes: Buffer.from('OggS voice'), mime_type: 'audio/ogg', voice: true } },
      '[audio]',
    ],
    [
      'document',
      {
        type: 'document',
        media: { bytes: Buffer.from('%PDF-1.4 x'), mime_type: 'application/pdf', filename: 'invoice.pdf' },
      },
      'invoice.pdf',
    ],
    ['sticker', { type: 'sticker' }, '[sticker]'],
    [
      'location',
      { type: 'location', location: { latitude: 52.52, longitude: 13.4, name: 'Alexanderplatz' } },
      'Alexanderplatz',
    ],
    ['contacts', { type: 'contacts' }, /.+/],
    [
      'interactive button reply',
      { type: 'interactive', reply: { kind: 'button_reply', id: 'yes', title: 'Yes please' } },
      'Yes please',
    ],
    [
      'interactive list reply',
      { type: 'interactive', reply: { kind: 'list_reply', id: 'opt-2', title: 'Option two' } },
      'Option two',
    ],
    ['template quick-reply button', { type: 'button', text: 'Stop promotions' }, 'Stop promotions'],
    ['order', { type: 'order' }, '[order]'],
    ['unsupported', { type: 'unsupported' }, '[unsupported message]'],
  ];

  for (const [label, spec, summary] of cases) {
    it(`stores ${label} with its payload and a readable summary`, async () => {
      const message = await receive(spec);
      expect(message.sender_type).toBe('customer');
      expect(message.meta_data.type).toBe(spec.type);
      expect(message.content).toMatch(summary);
      const media = ['image', 'video', 'audio', 'document', 'sticker'].includes(spec.type);
      expect(message.message_type).toBe(media ? 'file' : 'text');
      expect(typeof message.timestamp).toBe('number');
      if (spec.type === 'unsupported') {
        expect((message.meta_data.errors as { code: number }[])[0]!.code).toBe(131051);
      }
    });
  }

  it('keeps the context of a reply and a reaction to an earlier message', async () => {
    const first = await receive({ type: 'text', text: 'First question' });
    const reply = await receive({
      type: 'text',
      text: 'Following up',
      context: { message_id: String(first.id) },
    });
    expect((reply.meta_data.context as { id?: string; message_id?: string }).id ?? '').toBe(first.id);
    const reaction = await receive({ type: 'reaction', text: '👍', reactTo: String(first.id) });
    expect(reaction.content).toBe('👍');
    expect((reaction.meta_data.reaction as { message_id: string }).message_id).toBe(first.id);
  });

  it('puts them all in the one conversation of that customer, recorded in the directory', async () => {
    const conversations = await get<{ results: TConversation[] }>(
      '/api/msg/conversations/?channel__in=whatsapp',
    );
    const mine = conversations.results.filter((c) => c.initiator?.name === 'Greta Green');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.is_read).toBe(false);
    expect(mine[0]!.business_replied).toBe(false);
  });

  it('finds the customer who typed the number elsewhere (E.164 = + wa_id) rather than making a second', async () => {
    const created = await fetch(`${base}/api/public/customers/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        business_code: business.unique_code,
        name: 'Typed on the site',
        phone: '+49 157 00000003',
      }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { result: { customer: { id: number } } }).result.customer.id;
    await receive({ from: '4915700000003', type: 'text', text: 'Hello from WhatsApp' });
    const rows = await rt.database.query<{ id: string | number; external_id: string | null }>(
      'select id, external_id from customers where business_id = $1 and phone = $2',
      [business.id, '+4915700000003'],
    );
    expect(rows.map((r) => [Number(r.id), r.external_id])).toEqual([[id, 'wa:4915700000003']]);
  });

  it('takes the newer payload shape without wa_id (business-scoped user ids)', async () => {
    const message = await receive({
      from: '4915700000002',
      type: 'text',
      text: 'No wa_id here',
      omitWaId: true,
    });
    expect(message.content).toBe('No wa_id here');
  });

  it('ignores a redelivery of the same message', async () => {
    const first = await receive({ type: 'text', text: 'Only once' });
    const again = await sim.sendInbound({
      from: CUSTOMER,
      type: 'text',
      text: 'Only once',
      id: String(first.id),
    });
    expect(again.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const [row] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from wa_messages where id = $1',
      [first.id],
    );
    expect(row!.n).toBe(1);
  });
});
