import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TEMPLATES, type SimTemplate, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type {
  TBusiness,
  TConversation,
  TMessage,
  TWhatsappMediaUpload,
  TWhatsappTemplate,
} from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { optOut } from '../../consent/consent.service';
import { TEMPLATE_ERRORS } from '../templates/whatsapp.templates';

/** Enough extra templates that Meta's list (100 a page) takes three pages. */
const EXTRA: SimTemplate[] = Array.from({ length: 250 }, (_, i) => ({
  name: `bulk_notice_${String(i).padStart(3, '0')}`,
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: `Notice ${i} for {{1}}.` }],
}));
const ALL = [...SEED_TEMPLATES, ...EXTRA];

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let agent: Session;
let business: TBusiness;
let stranger: Session;
let strangerBusiness: TBusiness;

const call = <T = unknown>(
  method: string,
  path: string,
  who: Session,
  inBusiness: TBusiness,
  payload?: unknown,
) => callAs<T>(base, method, path, who, inBusiness, payload);

const sendTemplate = (payload: object, who: Session = owner) =>
  call<TMessage>('POST', '/api/whatsapp/message/send-template/', who, business, payload);

/** The WhatsApp conversation whose customer is called `name`, once the webhook job made it. */
async function conversationOf(name: string): Promise<TConversation> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await call<{ results: TConversation[] }>(
      'GET',
      '/api/msg/conversations/?channel__in=whatsapp&page_size=100',
      owner,
      business,
    );
    const found = list.body.result.results.find((c) => c.initiator?.name === name);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no conversation with ${name}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A customer who wrote in (optionally long ago), and the conversation it opened. */
async function customerWrites(from: string, name: string, secondsAgo = 0): Promise<TConversation> {
  const { status } = await sim.sendInbound({
    from,
    name,
    type: 'text',
    text: 'Hello there',
    timestamp: Math.floor(Date.now() / 1000) - secondsAgo,
  });
  expect(status).toBe(200);
  return conversationOf(name);
}

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Templates Co', templates: ALL });
  ({ sim, rt, base, owner, business } = bench);
  agent = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
  stranger = await signUp(rt.app!, rt.mailer);
  strangerBusiness = await createBusiness(rt.app!, stranger, 'Elsewhere');
});

afterAll(() => bench?.close());

describe('sync', () => {
  it('follows every page of Meta’s list and removes templates Meta no longer has', async () => {
    const before = sim.requests.filter((r) => r.path.endsWith('/message_templates')).length;
    const first = await call('POST', '/api/whatsapp/template/sync/', owner, business);
    expect(first.status).toBe(200);
    expect(first.body.result).toEqual({ synced: ALL.length, removed: 0 });
    const pages = sim.requests.filter((r) => r.path.endsWith('/message_templates')).length - before;
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(sim.requests.filter((r) => r.path.endsWith('/message_templates')).every((r) => r.authorized)).toBe(
      true,
    );

    // A template deleted at Meta since the last sync.
    await rt.database.query(
      `insert into whatsapp_templates (business_id, meta_id, name, language, status, category, components)
       values ($1, '999', 'deleted_at_meta', 'en_US', 'APPROVED', 'UTILITY', '[]')`,
      [business.id],
    );
    const again = await call('POST', '/api/whatsapp/template/sync/', owner, business);
    expect(again.body.result).toEqual({ synced: ALL.length, removed: 1 });
    const list = await call<TWhatsappTemplate[]>('GET', '/api/whatsapp/template/', owner, business);
    expect(list.body.result).toHaveLength(ALL.length);
    expect(list.body.result.some((t) => t.name === 'deleted_at_meta')).toBe(false);
  });

  it('needs engage.write and a connected number', async () => {
    expect((await call('POST', '/api/whatsapp/template/sync/', agent, business)).status).toBe(403);
    const unconnected = await call('POST', '/api/whatsapp/template/sync/', stranger, strangerBusiness);
    expect(unconnected.status).toBe(409);
    expect(unconnected.body.message).toBe('Connect a WhatsApp number in Settings → WhatsApp first.');
  });
});

describe('listing and reading templates', () => {
  it('filters by status and search, and says which parameters each takes', async () => {
    const pending = await call<TWhatsappTemplate[]>(
      'GET',
      '/api/whatsapp/template/?status=PENDING',
      agent,
      business,
    );
    expect(pending.status).toBe(200);
    expect(pending.body.result.map((t) => t.name)).toEqual(['new_feature_pending']);

    const found = await call<TWhatsappTemplate[]>(
      'GET',
      '/api/whatsapp/template/?search=order_',
      agent,
      business,
    );
    expect(found.body.result.map((t) => t.name)).toEqual(['order_update']);
    expect(found.body.result[0]).toMatchObject({
      status: 'APPROVED',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      header_format: 'TEXT',
      header_parameters: 1,
      body_parameters: 2,
      body_parameter_names: ['1', '2'],
      button_parameters: [{ index: 1, type: 'URL', text: 'Track order' }],
    });
    // "_" is a LIKE wildcard: taken literally, "bulk_notice_00" matches ten templates, not more.
    const literal = await call<TWhatsappTemplate[]>(
      'GET',
      '/api/whatsapp/template/?search=bulk_notice_00',
      agent,
      business,
    );
    expect(literal.body.result).toHaveLength(10);
    const bad = await call('GET', '/api/whatsapp/template/?status=NOPE', agent, business);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.result as object)).toEqual(['status']);
  });

  it('reads one by name (and language), 404 when unknown', async () => {
    const named = await call<TWhatsappTemplate>(
      'GET',
      '/api/whatsapp/template/appointment_reminder/?language=es',
      agent,
      business,
    );
    expect(named.status).toBe(200);
    expect(named.body.result).toMatchObject({
      language: 'es',
      parameter_format: 'NAMED',
      header_format: null,
      header_parameters: 0,
      body_parameters: 2,
      body_parameter_names: ['first_name', 'date'],
    });
    const invoice = await call<TWhatsappTemplate>(
      'GET',
      '/api/whatsapp/template/invoice_ready/',
      agent,
      business,
    );
    expect(invoice.body.result).toMatchObject({ header_format: 'DOCUMENT', header_parameters: 1 });
    expect((await call('GET', '/api/whatsapp/template/nope/', agent, business)).status).toBe(404);
    expect(
      (await call('GET', '/api/whatsapp/template/appointment_reminder/?language=fr', agent, business)).status,
    ).toBe(404);
  });

  it('shows another business nothing', async () => {
    const list = await call<TWhatsappTemplate[]>(
      'GET',
      '/api/whatsapp/template/',
      stranger,
      strangerBusiness,
    );
    expect(list.body.result).toEqual([]);
    expect(
      (await call('GET', '/api/whatsapp/template/order_update/', stranger, strangerBusiness)).status,
    ).toBe(404);
  });
});

describe('sending a template', () => {
  const orderUpdate = [
    { type: 'header', parameters: [{ type: 'text', text: '#1042' }] },
    {
      type: 'body',
      parameters: [
        { type: 'text', text: 'Ada' },
        { type: 'text', text: 'on its way' },
      ],
    },
    { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: '1042' }] },
  ];

  it('sends the exact Graph body in a conversation and stores the rendered template for the inbox', async () => {
    const conversation = await customerWrites('15550001001', 'Ada Byron');
    const res = await sendTemplate({
      conversation_id: conversation.id,
      name: 'order_update',
      language: 'en_US',
      components: orderUpdate,
    });
    expect(res.status).toBe(201);
    const message = res.body.result;
    const sent = sim.outbound.find((o) => o.wamid === message.id)!;
    expect(sent.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550001001',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#1042' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'on its way' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: '1042' }] },
        ],
      },
    });
    expect(message).toMatchObject({
      conversation_id: conversation.id,
      content: 'Hi Ada, your order is now on its way. Reply if you need anything.',
      sender_type: 'staff',
      sender_id: owner.user.pk,
      status: expect.stringMatching(/^(accepted|sent|delivered|read)$/),
    });
    expect(message.meta_data).toEqual({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Order #1042' },
          { type: 'BODY', text: 'Hi Ada, your order is now on its way. Reply if you need anything.' },
          { type: 'FOOTER', text: 'Titan Shop' },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'QUICK_REPLY', text: 'Talk to us' },
              { type: 'URL', text: 'Track order', url: 'https://shop.example.com/track/1042' },
              { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100200' },
            ],
          },
        ],
      },
    });
    // The inbox reads it back the same way, and the conversation counts as replied.
    const messages = await call<TMessage[]>(
      'GET',
      `/api/msg/conversations/${conversation.id}/messages/`,
      owner,
      business,
    );
    expect(messages.body.result.at(-1)!.meta_data).toEqual(message.meta_data);
    const after = await call<TConversation>(
      'GET',
      `/api/msg/conversations/${conversation.id}/`,
      owner,
      business,
    );
    expect(after.body.result.business_replied).toBe(true);
  });

  it('renders named parameters and document headers', async () => {
    const conversation = await customerWrites('15550001002', 'Ana Named');
    const named = await sendTemplate({
      conversation_id: conversation.id,
      name: 'appointment_reminder',
      language: 'es',
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', parameter_name: 'date', text: 'lunes' },
            { type: 'text', parameter_name: 'first_name', text: 'Ana' },
          ],
        },
      ],
    });
    expect(named.status).toBe(201);
    expect(named.body.result.content).toBe('Hola Ana, te esperamos el lunes.');

    const doc = await sendTemplate({
      conversation_id: conversation.id,
      name: 'invoice_ready',
      language: 'en_US',
      components: [
        {
          type: 'header',
          parameters: [
            {
              type: 'document',
              document: { link: 'https://files.example.com/inv-7.pdf', filename: 'inv-7.pdf' },
            },
          ],
        },
        { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
      ],
    });
    expect(doc.status).toBe(201);
    expect((doc.body.result.meta_data.template as { components: unknown[] }).components).toEqual([
      {
        type: 'HEADER',
        format: 'DOCUMENT',
        document: { link: 'https://files.example.com/inv-7.pdf', filename: 'inv-7.pdf' },
      },
      { type: 'BODY', text: 'Hello Ana, your invoice is attached.' },
    ]);
  });

  it('is allowed outside the 24-hour window', async () => {
    const conversation = await customerWrites('15550001003', 'Old Friend', 3 * 24 * 3600);
    const res = await sendTemplate({
      conversation_id: conversation.id,
      name: 'hello_world',
      language: 'en_US',
    });
    expect(res.status).toBe(201);
    const delivered = await sim.waitFor(() => {
      const o = sim.outbound.find((r) => r.wamid === res.body.result.id);
      return o && o.statuses.includes('delivered') ? o : undefined;
    });
    expect(delivered.statuses).not.toContain('failed');
    expect(delivered.body).not.toHaveProperty('template.components');
  });

  it('refuses templates that are not approved, with nothing sent', async () => {
    const conversation = await customerWrites('15550001004', 'Pending Pat');
    const sends = sim.outbound.length;
    const res = await sendTemplate({
      conversation_id: conversation.id,
      name: 'new_feature_pending',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Pat' }] }],
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only approved templates can be sent; this one is PENDING.');
    const unknown = await sendTemplate({
      conversation_id: conversation.id,
      name: 'order_update',
      language: 'fr',
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.result as object)).toEqual(['name']);
    expect(sim.outbound.length).toBe(sends);
  });

  it('checks parameter counts, kinds and names against the template (400 on components)', async () => {
    const conversation = await customerWrites('15550001005', 'Count Carla');
    const sends = sim.outbound.length;
    const cases: [string, string, object[], string][] = [
      [
        'order_update',
        'en_US',
        [orderUpdate[0]!, { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }, orderUpdate[2]!],
        'The body takes 2 parameters; 1 given.',
      ],
      ['order_update', 'en_US', [orderUpdate[1]!, orderUpdate[2]!], 'The header takes 1 parameter; 0 given.'],
      [
        'order_update',
        'en_US',
        [orderUpdate[0]!, orderUpdate[1]!],
        'The "Track order" button takes one text parameter.',
      ],
      [
        'hello_world',
        'en_US',
        [{ type: 'body', parameters: [{ type: 'text', text: 'x' }] }],
        'The body takes 0 parameters; 1 given.',
      ],
      [
        'invoice_ready',
        'en_US',
        [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://x.example.com/a.png' } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
        ],
        'The header takes one document.',
      ],
      [
        'appointment_reminder',
        'es',
        [
          {
            type: 'body',
            parameters: [
              { type: 'text', parameter_name: 'first_name', text: 'Ana' },
              { type: 'text', parameter_name: 'day', text: 'lunes' },
            ],
          },
        ],
        'Name each body parameter (parameter_name): first_name, date.',
      ],
    ];
    for (const [name, language, components, error] of cases) {
      const res = await sendTemplate({ conversation_id: conversation.id, name, language, components });
      expect(res.status, `${name}: ${error}`).toBe(400);
      expect((res.body.result as unknown as { components: string[] }).components).toContain(error);
    }
    expect(sim.outbound.length).toBe(sends);
  });

  it('sends to a new number: creates the customer and the conversation, and keeps using it', async () => {
    const res = await sendTemplate({
      to: '+44 7700 900123',
      name: 'spring_sale',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: '20%' }] }],
    });
    expect(res.status).toBe(201);
    expect(sim.outbound.find((o) => o.wamid === res.body.result.id)!.to).toBe('447700900123');
    const conversation = await call<TConversation>(
      'GET',
      `/api/msg/conversations/${res.body.result.conversation_id}/`,
      owner,
      business,
    );
    expect(conversation.body.result).toMatchObject({ title: 'WhatsApp +447700900123', channel: 'whatsapp' });
    const [customer] = await rt.database.query<{ phone: string; external_id: string }>(
      'select phone, external_id from customers where id = $1',
      [conversation.body.result.initiator!.id],
    );
    expect(customer).toEqual({ phone: '+447700900123', external_id: 'wa:447700900123' });

    const again = await sendTemplate({ to: '447700900123', name: 'hello_world', language: 'en_US' });
    expect(again.body.result.conversation_id).toBe(res.body.result.conversation_id);
    // The customer's reply lands in the same conversation.
    await sim.sendInbound({ from: '447700900123', name: 'Brit', type: 'text', text: 'Thanks!' });
    await expect
      .poll(
        async () =>
          (
            await call<TMessage[]>(
              'GET',
              `/api/msg/conversations/${res.body.result.conversation_id}/messages/`,
              owner,
              business,
            )
          ).body.result.length,
        { timeout: 15_000 },
      )
      .toBe(3);
  });

  it('sends no template to a number that opted out, and opens nothing for it', async () => {
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'whatsapp',
      address: '+447700900124',
      reason: 'unsubscribed',
    });
    const sentBefore = sim.outbound.length;
    const res = await sendTemplate({ to: '+44 7700 900124', name: 'hello_world', language: 'en_US' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(TEMPLATE_ERRORS.optedOut);
    expect(sim.outbound.length).toBe(sentBefore);
    const rows = await rt.database.query('select id from customers where business_id = $1 and phone = $2', [
      business.id,
      '+447700900124',
    ]);
    expect(rows).toEqual([]);
  });

  it('maps a template error from WhatsApp to a 4xx, logs it, and opens no conversation', async () => {
    const conversation = await customerWrites('15550001006', 'Erin Error');
    sim.failNextSends(132001);
    const res = await sendTemplate({
      conversation_id: conversation.id,
      name: 'hello_world',
      language: 'en_US',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'This template does not exist in that language at WhatsApp. Sync templates and try again.',
    );
    const [log] = await rt.database.query<{ status: string; error_code: number; template_name: string }>(
      `select (case when status = 'failed' and provider_message_id is null then 'error' else status end) as status, error_code::int as error_code, template_name from sends
       where business_id = $1 and conversation_id = $2 order by created_at desc limit 1`,
      [business.id, conversation.id],
    );
    expect(log).toEqual({ status: 'error', error_code: 132001, template_name: 'hello_world' });

    sim.failNextSends(132000);
    const fresh = await sendTemplate({ to: '+1 555 000 9999', name: 'hello_world', language: 'en_US' });
    expect(fresh.status).toBe(400);
    const [opened] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from conversations where business_id = $1 and title = 'WhatsApp +15550009999'`,
      [business.id],
    );
    expect(opened!.n).toBe(0);
    const [logged] = await rt.database.query<{ status: string; conversation_id: number | null }>(
      `select (case when status = 'failed' and provider_message_id is null then 'error' else status end) as status, conversation_id from sends where recipient = '15550009999'`,
    );
    expect(logged).toEqual({ status: 'error', conversation_id: null });
  });

  it('lets agents send into conversations they see, but only engage.send may write to a number', async () => {
    const conversation = await customerWrites('15550001007', 'Agent Alma');
    const inConversation = await sendTemplate(
      { conversation_id: conversation.id, name: 'hello_world', language: 'en_US' },
      agent,
    );
    expect(inConversation.status).toBe(201);
    const sends = sim.outbound.length;
    const toNumber = await sendTemplate(
      { to: '+15550001999', name: 'hello_world', language: 'en_US' },
      agent,
    );
    expect(toNumber.status).toBe(403);
    expect(sim.outbound.length).toBe(sends);
  });

  it('serves a document header sent by id to who sees the conversation; agents send none they may not see', async () => {
    const form = new FormData();
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    );
    form.append('file', new Blob([new Uint8Array(pdf)]), 'inv-9.pdf');
    const uploaded = await fetch(`${base}/api/whatsapp/media/`, {
      method: 'POST',
      headers: as(owner, business),
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const media = ((await uploaded.json()) as { result: TWhatsappMediaUpload }).result;
    const fetchAs = async (who: Session) =>
      (await fetch(`${base}/api/whatsapp/media/${media.id}/`, { headers: as(who, business) })).status;
    const invoice = (conversationId: number) => ({
      conversation_id: conversationId,
      name: 'invoice_ready',
      language: 'en_US',
      components: [
        { type: 'header', parameters: [{ type: 'document', document: { id: media.id } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Gus' }] },
      ],
    });

    // A conversation of a chat group the agent is not in.
    const grouped = await customerWrites('15550001010', 'Grouped Gus');
    const [group] = await rt.database.query<{ id: number }>(
      "insert into chat_groups (business_id, name, slug) values ($1, 'Billing', 'billing') returning id",
      [business.id],
    );
    await rt.database.query('update conversations set assigned_chat_group_id = $1 where id = $2', [
      group!.id,
      grouped.id,
    ]);
    const sent = await sendTemplate(invoice(grouped.id));
    expect(sent.status).toBe(201);
    expect((sent.body.result.meta_data.template as { components: unknown[] }).components[0]).toEqual({
      type: 'HEADER',
      format: 'DOCUMENT',
      document: { id: media.id },
    });
    expect(await fetchAs(owner)).toBe(200);
    expect(await fetchAs(agent)).toBe(404);

    // Sending it where the agent may look would hand it over: refused, nothing sent.
    const open = await customerWrites('15550001011', 'Open Olga');
    const sends = sim.outbound.length;
    const refused = await sendTemplate(invoice(open.id), agent);
    expect(refused.status).toBe(400);
    expect(refused.body.result).toEqual({ components: [TEMPLATE_ERRORS.headerMediaUnknown] });
    expect(sim.outbound.length).toBe(sends);
    expect(await fetchAs(agent)).toBe(404);

    // Out of the group, the conversation (and its header) is the agent's to see.
    await rt.database.query('update conversations set assigned_chat_group_id = null where id = $1', [
      grouped.id,
    ]);
    expect(await fetchAs(agent)).toBe(200);
  });

  it('gives another business nothing: not the conversation, not the number', async () => {
    const conversation = await customerWrites('15550001008', 'Private Pia');
    const sends = sim.outbound.length;
    const res = await call('POST', '/api/whatsapp/message/send-template/', stranger, strangerBusiness, {
      conversation_id: conversation.id,
      name: 'hello_world',
      language: 'en_US',
    });
    expect(res.status).toBe(404);
    expect(sim.outbound.length).toBe(sends);
  });

  it('asks for exactly one of conversation_id and to', async () => {
    const res = await sendTemplate({ name: 'hello_world', language: 'en_US' });
    expect(res.status).toBe(400);
    expect(res.body.result).toEqual({ to: ['Give either a conversation or a phone number.'] });
  });
});
