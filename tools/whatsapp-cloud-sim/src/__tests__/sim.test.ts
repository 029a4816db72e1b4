// The simulator over real HTTP: Graph calls as Titan makes them, webhooks as a receiver sees them.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWhatsappCloudSim, type InboundSpec, type SimOptions, type WhatsappCloudSim } from '../index';

/** Parsed JSON as the tests read it: shapes are asserted, not declared. */
type Json = ReturnType<typeof JSON.parse>;

const TOKEN = 'test-access-token';
const SECRET = 'test-app-secret';
const PHONE_ID = '106540352242922';
const WABA_ID = '102290129340398';
const DISPLAY = '15550001111';
const CUSTOMER = '4915112345678';

type Delivery = { headers: IncomingHttpHeaders; raw: Buffer; json: Record<string, Json> };
type Receiver = { url: string; received: Delivery[]; answer: number; close(): Promise<void> };

async function startReceiver(): Promise<Receiver> {
  const received: Delivery[] = [];
  const receiver: Receiver = { url: '', received, answer: 200, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) });
      res.writeHead(receiver.answer);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/whatsapp/webhook/`;
  receiver.close = () => new Promise((r) => server.close(() => r()));
  return receiver;
}

const expectedSignature = (raw: Buffer) => `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
const valueOf = (d: Delivery) => d.json.entry[0].changes[0].value;
const statusesOf = (deliveries: Delivery[]) => deliveries.flatMap((d) => valueOf(d).statuses ?? []);

let hook: Receiver;
let sim: WhatsappCloudSim;

async function start(extra: Partial<SimOptions> = {}) {
  return startWhatsappCloudSim({
    accessToken: TOKEN,
    appSecret: SECRET,
    phoneNumberId: PHONE_ID,
    wabaId: WABA_ID,
    displayPhoneNumber: DISPLAY,
    webhookUrl: hook.url,
    statusDelayMs: 5,
    ...extra,
  });
}

beforeEach(async () => {
  hook = await startReceiver();
  sim = await start();
});

afterEach(async () => {
  await sim.close();
  await hook.close();
});

async function graph(path: string, init: RequestInit & { json?: unknown; token?: string | null } = {}) {
  const { json, token = TOKEN, ...rest } = init;
  const res = await fetch(`${sim.graphUrl}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    ...rest,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(rest.headers as Record<string, string> | undefined),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, Json> };
}

const sendText = (to = CUSTOMER, body = 'Hello from Titan') =>
  graph(`/${PHONE_ID}/messages`, {
    json: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body } },
  });

/** Opens the 24 h window the way a customer does: by writing first. */
async function customerWrites(text = 'Hi') {
  const { wamid } = await sim.sendInbound({ from: CUSTOMER, name: 'Ada', type: 'text', text });
  return wamid;
}

async function statusesFor(wamid: string, count: number) {
  return sim.waitFor(() => {
    const list = statusesOf(hook.received).filter((s) => s.id === wamid);
    return list.length >= count && list;
  });
}

const settle = (ms = 60) => new Promise((r) => setTimeout(r, ms));

describe('authentication', () => {
  it('answers 401 with code 190 without or with a wrong bearer token, and records every call', async () => {
    const none = await graph(`/${WABA_ID}/message_templates`, { token: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ type: 'OAuthException', code: 190 });
    expect(typeof none.body.error.fbtrace_id).toBe('string');
    const wrong = await graph(`/${PHONE_ID}/messages`, {
      token: 'nope',
      json: { messaging_product: 'whatsapp' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe(190);
    const ok = await graph(`/${WABA_ID}/message_templates`);
    expect(ok.status).toBe(200);
    expect(sim.requests.map((r) => r.authorized)).toEqual([false, false, true]);
    expect(sim.requests[2]).toMatchObject({ method: 'GET', path: `/v21.0/${WABA_ID}/message_templates` });
    expect(sim.outbound).toHaveLength(0);
  });

  it('accepts any version prefix and rejects ids that are not this account', async () => {
    const res = await fetch(`${sim.url}/v19.0/${WABA_ID}/message_templates`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    const wrongPhone = await graph('/123456789/messages', {
      json: { messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: 'x' } },
    });
    expect(wrongPhone.status).toBe(400);
    expect(wrongPhone.body.error.code).toBe(100);
    expect(wrongPhone.body.error.message).toContain(
      "Unsupported post request. Object with ID '123456789' does not exist",
    );
    const wrongWaba = await graph('/987/message_templates');
    expect(wrongWaba.body.error.message).toContain(
      "Unsupported get request. Object with ID '987' does not exist",
    );
  });
});

describe('sending and statuses', () => {
  it('accepts a text send, records it and posts signed sent → delivered → read statuses in order', async () => {
    await customerWrites();
    const res = await sendText();
    expect(res.status).toBe(200);
    const wamid = res.body.messages[0].id as string;
    expect(res.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: CUSTOMER, wa_id: CUSTOMER }],
      messages: [{ id: wamid }],
    });
    expect(wamid).toMatch(/^wamid\.[A-Za-z0-9+/=]+$/);
    expect(sim.outbound).toHaveLength(1);
    expect(sim.outbound[0]).toMatchObject({
      wamid,
      to: CUSTOMER,
      body: { type: 'text', text: { body: 'Hello from Titan' } },
    });

    const statuses = await statusesFor(wamid, 3);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(sim.outbound[0]?.statuses).toEqual(['sent', 'delivered', 'read']);
    const [sent] = statuses;
    expect(sent).toMatchObject({
      recipient_id: CUSTOMER,
      conversation: { origin: { type: 'service' } },
      pricing: { billable: false, pricing_model: 'PMP', category: 'service' },
    });
    expect(sent.timestamp).toMatch(/^\d{10}$/);

    const statusDeliveries = hook.received.filter((d) => valueOf(d).statuses);
    for (const d of statusDeliveries) {
      expect(d.headers['x-hub-signature-256']).toBe(expectedSignature(d.raw));
      expect(d.json).toMatchObject({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: WABA_ID,
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: DISPLAY, phone_number_id: PHONE_ID },
                },
              },
            ],
          },
        ],
      });
    }
  });

  it('writes webhook bodies like Meta: non-ASCII as lowercase \\u escapes, "/" as "\\/", signed over those bytes', async () => {
    await sim.sendInbound({ from: CUSTOMER, name: 'Zoë', type: 'text', text: 'Grüße 👋 a/b' });
    const [d] = hook.received;
    const raw = d!.raw.toString('latin1');
    expect(raw).toContain('"body":"Gr\\u00fc\\u00dfe \\ud83d\\udc4b a\\/b"');
    expect(raw).toContain('"name":"Zo\\u00eb"');
    expect(/[^\x20-\x7e]/.test(raw)).toBe(false);
    expect(JSON.stringify(d!.json)).not.toBe(raw);
    expect(d!.headers['x-hub-signature-256']).toBe(expectedSignature(d!.raw));
    expect(d!.json.entry[0].changes[0].value.messages[0].text.body).toBe('Grüße 👋 a/b');
  });

  it('posts the statuses in reverse order when outOfOrder is on', async () => {
    await customerWrites();
    sim.set({ outOfOrder: true });
    const wamid = (await sendText()).body.messages[0].id;
    expect((await statusesFor(wamid, 3)).map((s) => s.status)).toEqual(['read', 'delivered', 'sent']);
  });

  it('posts every webhook twice when duplicate is on', async () => {
    sim.set({ duplicate: true });
    await customerWrites();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[0]!.raw.equals(hook.received[1]!.raw)).toBe(true);
    const wamid = (await sendText()).body.messages[0].id;
    const statuses = await statusesFor(wamid, 6);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'sent', 'delivered', 'delivered', 'read', 'read']);
  });

  it('posts sent then failed with errors[] when failDeliveries is set', async () => {
    await customerWrites();
    sim.set({
      failDeliveries: {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        details: 'Receiver is incapable of receiving this message',
      },
    });
    const wamid = (await sendText()).body.messages[0].id;
    const statuses = await statusesFor(wamid, 2);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'failed']);
    expect(statuses[1].errors).toEqual([
      expect.objectContaining({
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        error_data: { details: 'Receiver is incapable of receiving this message' },
      }),
    ]);
    await settle();
    expect(statusesOf(hook.received).filter((s) => s.id === wamid)).toHaveLength(2);
  });

  it('skips delivered, stops before read without autoRead, and reads on readMessage()', async () => {
    await customerWrites();
    sim.set({ skipDelivered: true });
    const first = (await sendText()).body.messages[0].id;
    expect((await statusesFor(first, 2)).map((s) => s.status)).toEqual(['sent', 'read']);

    sim.reset();
    sim.set({ autoRead: false });
    const second = (await sendText()).body.messages[0].id;
    expect((await statusesFor(second, 2)).map((s) => s.status)).toEqual(['sent', 'delivered']);
    await settle();
    expect(statusesOf(hook.received).filter((s) => s.id === second)).toHaveLength(2);
    await sim.readMessage(second);
    expect((await statusesFor(second, 3)).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(sim.outbound[1]?.statuses).toEqual(['sent', 'delivered', 'read']);
  });

  it('posts nothing when autoStatuses is off', async () => {
    await customerWrites();
    sim.set({ autoStatuses: false });
    const wamid = (await sendText()).body.messages[0].id;
    await settle();
    expect(statusesOf(hook.received).filter((s) => s.id === wamid)).toHaveLength(0);
  });

  it('accepts a free-form send outside the 24 h window and then posts failed 131047', async () => {
    const fresh = await sendText('4915199999999');
    expect(fresh.status).toBe(200);
    const statuses = await statusesFor(fresh.body.messages[0].id, 1);
    expect(statuses[0]).toMatchObject({
      status: 'failed',
      recipient_id: '4915199999999',
      errors: [{ code: 131047, title: 'Re-engagement message' }],
    });

    // A customer message older than 24 h does not open the window either.
    await sim.sendInbound({
      from: CUSTOMER,
      type: 'text',
      text: 'old',
      timestamp: Math.floor(Date.now() / 1000) - 25 * 3600,
    });
    const stale = (await sendText()).body.messages[0].id;
    expect((await statusesFor(stale, 1))[0].errors[0].code).toBe(131047);
    await settle();
    expect(statusesOf(hook.received).filter((s) => s.id === stale)).toHaveLength(1);
  });

  it('answers queued Graph errors for the next sends, then accepts again', async () => {
    await customerWrites();
    sim.failNextSends(130429, 2);
    const a = await sendText();
    const b = await sendText();
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(a.body.error).toMatchObject({
      code: 130429,
      type: 'OAuthException',
      error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
    });
    expect((await sendText()).status).toBe(200);

    sim.failNextSends(131000);
    const unknown = await sendText();
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe(131000);
    sim.failNextSends(190);
    expect((await sendText()).status).toBe(401);
    sim.failNextSends(131056);
    sim.reset();
    expect((await sendText()).status).toBe(200);
    expect(sim.outbound).toHaveLength(2);
  });

  it('rejects invalid sends with code 100 naming the field', async () => {
    const send = (json: Record<string, unknown>) => graph(`/${PHONE_ID}/messages`, { json });
    const cases: [Record<string, unknown>, string][] = [
      [{ to: CUSTOMER, type: 'text', text: { body: 'x' } }, 'messaging_product'],
      [{ messaging_product: 'whatsapp', to: 'abc', type: 'text', text: { body: 'x' } }, 'to'],
      [{ messaging_product: 'whatsapp', to: CUSTOMER, type: 'gif', gif: {} }, 'type'],
      [{ messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: '' } }, "text['body']"],
      [
        { messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: 'x'.repeat(4097) } },
        "text['body']",
      ],
      [{ messaging_product: 'whatsapp', to: CUSTOMER, type: 'image', image: { id: '1234' } }, "image['id']"],
      [{ messaging_product: 'whatsapp', to: CUSTOMER, type: 'image', image: {} }, 'image'],
      [
        {
          messaging_product: 'whatsapp',
          to: CUSTOMER,
          type: 'interactive',
          interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: [] } },
        },
        'buttons',
      ],
      [
        { messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: 'x' }, context: {} },
        'context',
      ],
    ];
    for (const [json, field] of cases) {
      const res = await send(json);
      expect(res.status, field).toBe(400);
      expect(res.body.error.code, field).toBe(100);
      expect(res.body.error.error_data.details, field).toContain(field);
    }
    expect(
      (
        await send({
          messaging_product: 'whatsapp',
          to: CUSTOMER,
          type: 'text',
          text: { body: 'x'.repeat(4096) },
        })
      ).status,
    ).toBe(200);
    expect(sim.outbound).toHaveLength(1);
  });

  it('accepts media by link and by uploaded id, documents with filename, replies with context', async () => {
    await customerWrites();
    const id = await upload(pngBytes(), 'image/png', 'a.png');
    const base = { messaging_product: 'whatsapp', to: CUSTOMER };
    const sends = [
      { ...base, type: 'image', image: { id, caption: 'Look' } },
      { ...base, type: 'document', document: { link: 'https://example.com/a.pdf', filename: 'a.pdf' } },
      { ...base, type: 'text', text: { body: 'reply' }, context: { message_id: 'wamid.X' } },
      { ...base, type: 'reaction', reaction: { message_id: 'wamid.X', emoji: '👍' } },
      { ...base, type: 'location', location: { latitude: 1.5, longitude: 2.5, name: 'Here' } },
      { ...base, type: 'contacts', contacts: [{ name: { formatted_name: 'Grace Hopper' } }] },
      {
        ...base,
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Pick' },
          action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Yes' } }] },
        },
      },
      {
        ...base,
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Pick' },
          action: { button: 'Options', sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Row' }] }] },
        },
      },
    ];
    for (const json of sends)
      expect((await graph(`/${PHONE_ID}/messages`, { json })).status, String(json.type)).toBe(200);
    expect(sim.outbound.map((s) => s.body.type)).toEqual(sends.map((s) => s.type));
  });
});

describe('templates', () => {
  const sendTemplate = (template: Record<string, unknown>, to = '4915100000001') =>
    graph(`/${PHONE_ID}/messages`, {
      json: { messaging_product: 'whatsapp', to, type: 'template', template },
    });

  it('accepts an approved template with matching parameters, outside the window, priced by its category', async () => {
    const res = await sendTemplate({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: '#77' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ada' },
            { type: 'text', text: 'shipped' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: '77' }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.messages[0]).toMatchObject({ message_status: 'accepted' });
    const statuses = await statusesFor(res.body.messages[0].id, 3);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses[0].pricing).toMatchObject({ billable: true, category: 'utility', pricing_model: 'PMP' });
    expect(statuses[0].conversation.origin.type).toBe('utility');
  });

  it('rejects unknown, wrong-language, pending and rejected templates with 132001', async () => {
    for (const t of [
      { name: 'nope', language: { code: 'en_US' } },
      {
        name: 'spring_sale',
        language: { code: 'de' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: '1' }] }],
      },
      {
        name: 'new_feature_pending',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: '1' }] }],
      },
      { name: 'rejected_promo', language: { code: 'en_US' } },
    ]) {
      const res = await sendTemplate(t);
      expect(res.status, t.name).toBe(400);
      expect(res.body.error.code, t.name).toBe(132001);
      expect(res.body.error.message).toContain('Template name does not exist in the translation');
    }
    expect(sim.outbound).toHaveLength(0);
  });

  it('rejects a wrong number of body parameters with 132000', async () => {
    const res = await sendTemplate({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: '#1' }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      ],
    });
    expect(res.body.error.code).toBe(132000);
    expect(res.body.error.message).toContain(
      'Number of parameters does not match the expected number of params',
    );
    const none = await sendTemplate({ name: 'spring_sale', language: { code: 'en_US' } });
    expect(none.body.error.code).toBe(132000);
    const named = await sendTemplate({
      name: 'appointment_reminder',
      language: { code: 'es' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', parameter_name: 'first_name', text: 'Ana' },
            { type: 'text', parameter_name: 'date', text: 'lunes' },
          ],
        },
      ],
    });
    expect(named.status).toBe(200);
  });

  it('takes a media header by link or uploaded id, and rejects a missing, doubled or unknown one', async () => {
    const invoice = (header: Record<string, unknown>[]) => ({
      name: 'invoice_ready',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: header },
        { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      ],
    });
    const byLink = await sendTemplate(
      invoice([
        { type: 'document', document: { link: 'https://files.example.com/a.pdf', filename: 'a.pdf' } },
      ]),
    );
    expect(byLink.status).toBe(200);
    const id = await upload(Buffer.from('%PDF-1.4 test'), 'application/pdf', 'b.pdf');
    expect((await sendTemplate(invoice([{ type: 'document', document: { id } }]))).status).toBe(200);
    for (const [header, words] of [
      [[{ type: 'document' }], "['document'] is required"],
      [[{ type: 'document', document: { id, link: 'https://x.example/a.pdf' } }], 'exactly one of'],
      [[{ type: 'document', document: { id: '999999' } }], 'media attachment ID'],
      [[{ type: 'document', document: { link: 'ftp://x/a.pdf' } }], 'valid URL'],
    ] as const) {
      const res = await sendTemplate(invoice([...header]));
      expect(res.status, words).toBe(400);
      expect(res.body.error.code, words).toBe(100);
      expect(JSON.stringify(res.body.error), words).toContain(words);
    }
    const wrong = await sendTemplate(
      invoice([{ type: 'image', image: { link: 'https://x.example/a.png' } }]),
    );
    expect(wrong.body.error.code).toBe(132012);
    expect(sim.outbound).toHaveLength(2);
  });

  it('lists templates in pages: following paging.next reaches every template and the last page has no next', async () => {
    const names: string[] = [];
    let url: string | undefined =
      `${sim.graphUrl}/${WABA_ID}/message_templates?limit=3&fields=name,status,language`;
    let pages = 0;
    while (url) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      const page = (await res.json()) as {
        data: Record<string, unknown>[];
        paging: { cursors: { before: string; after: string }; next?: string };
      };
      expect(page.data.length).toBeLessThanOrEqual(3);
      for (const t of page.data) expect(Object.keys(t).sort()).toEqual(['id', 'language', 'name', 'status']);
      expect(page.paging.cursors.after).toEqual(expect.any(String));
      names.push(...page.data.map((t) => String(t.name)));
      url = page.paging.next;
      if (url) expect(url.startsWith(`${sim.graphUrl}/${WABA_ID}/message_templates?`)).toBe(true);
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(8);

    const all = await graph(`/${WABA_ID}/message_templates`);
    expect(all.body.data).toHaveLength(8);
    expect(all.body.paging.next).toBeUndefined();
    const statuses = all.body.data.map((t: { status: string }) => t.status);
    expect(statuses).toEqual(expect.arrayContaining(['APPROVED', 'PENDING', 'REJECTED']));
    const orderUpdate = all.body.data.find((t: { name: string }) => t.name === 'order_update');
    expect(orderUpdate).toMatchObject({
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      id: expect.stringMatching(/^\d+$/),
    });
    expect(orderUpdate.components.map((c: { type: string }) => c.type)).toEqual([
      'HEADER',
      'BODY',
      'FOOTER',
      'BUTTONS',
    ]);
    expect(
      all.body.data.some((t: { components: { format?: string }[] }) =>
        t.components.some((c) => c.format === 'DOCUMENT'),
      ),
    ).toBe(true);
  });
});

function pngBytes(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
}

async function uploadRaw(bytes: Buffer, mime: string, filename = 'file') {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', mime);
  form.set('file', new Blob([bytes], { type: mime }), filename);
  const res = await fetch(`${sim.graphUrl}/${PHONE_ID}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, Json> };
}

async function upload(bytes: Buffer, mime: string, filename?: string): Promise<string> {
  const res = await uploadRaw(bytes, mime, filename);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('media', () => {
  it('uploads, describes and serves media; the download needs the bearer token', async () => {
    const bytes = pngBytes();
    const id = await upload(bytes, 'image/png', 'dot.png');
    expect(id).toMatch(/^\d+$/);
    expect(sim.uploads.get(id)).toMatchObject({
      mime_type: 'image/png',
      filename: 'dot.png',
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });

    const info = await graph(`/${id}`);
    expect(info.body).toEqual({
      messaging_product: 'whatsapp',
      url: expect.stringContaining(`${sim.url}/media-download/${id}?`),
      mime_type: 'image/png',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      file_size: bytes.length,
      id,
    });
    expect(info.text).toContain('http:\\/\\/');

    expect((await fetch(info.body.url)).status).toBe(401);
    const download = await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    sim.failNextMediaDownloads(1);
    expect((await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(500);
    expect((await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

    // A different first character of the signature (replacing it with a fixed one left the URL
    // unchanged whenever the signature already started with it).
    const tampered = info.body.url.replace(
      /sig=(\w)/,
      (_: string, c: string) => `sig=${c === '0' ? '1' : '0'}`,
    );
    expect((await fetch(tampered, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

    expect((await graph(`/${id}`, { method: 'DELETE' })).body).toEqual({ success: true });
    expect((await graph(`/${id}`)).body.error.code).toBe(100);
  });

  it('expires media urls after mediaUrlTtlMs; a fresh GET gives a working url', async () => {
    await sim.close();
    sim = await start({ mediaUrlTtlMs: 80 });
    const id = await upload(pngBytes(), 'image/png');
    const first = (await graph(`/${id}`)).body.url as string;
    await settle(120);
    expect((await fetch(first, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const second = (await graph(`/${id}`)).body.url as string;
    expect((await fetch(second, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it("enforces Meta's types and size limits with 131053", async () => {
    const big = await uploadRaw(Buffer.alloc(5 * 1024 * 1024 + 1, 1), 'image/jpeg');
    expect(big.status).toBe(400);
    expect(big.body.error).toMatchObject({
      code: 131053,
      message: expect.stringContaining('Media upload error'),
    });
    expect(big.body.error.error_data.details).toContain('exceeds');
    const gif = await uploadRaw(Buffer.from('GIF89a'), 'image/gif');
    expect(gif.body.error.code).toBe(131053);
    expect(gif.body.error.error_data.details).toContain('image/gif');
    const staticSticker = await uploadRaw(Buffer.alloc(150 * 1024, 1), 'image/webp');
    expect(staticSticker.body.error.code).toBe(131053);
    const animated = Buffer.alloc(150 * 1024, 1);
    animated.write('ANIM', 30);
    expect((await uploadRaw(animated, 'image/webp')).status).toBe(200);
    expect((await uploadRaw(Buffer.alloc(6 * 1024 * 1024, 1), 'application/pdf')).status).toBe(200);
    expect((await uploadRaw(Buffer.from('ogg'), 'audio/ogg')).status).toBe(200);
    const missing = await fetch(`${sim.graphUrl}/${PHONE_ID}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: (() => {
        const f = new FormData();
        f.set('messaging_product', 'whatsapp');
        return f;
      })(),
    });
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(100);
  });
});

describe('mark as read', () => {
  it('marks an inbound message read and rejects unknown ids with 100', async () => {
    const wamid = await customerWrites();
    const res = await graph(`/${PHONE_ID}/messages`, {
      json: { messaging_product: 'whatsapp', status: 'read', message_id: wamid },
    });
    expect(res.body).toEqual({ success: true });
    expect(sim.markedRead).toEqual([wamid]);
    const typing = await graph(`/${PHONE_ID}/messages`, {
      json: {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: wamid,
        typing_indicator: { type: 'text' },
      },
    });
    expect(typing.body).toEqual({ success: true });
    const unknown = await graph(`/${PHONE_ID}/messages`, {
      json: { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.nope' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe(100);
    expect(sim.outbound).toHaveLength(0);
  });
});

describe('inbound webhooks', () => {
  async function inbound(spec: Omit<InboundSpec, 'from'> & { from?: string }) {
    const before = hook.received.length;
    const result = await sim.sendInbound({ from: CUSTOMER, name: 'Ada', ...spec });
    const delivery = hook.received[before]!;
    expect(delivery.headers['x-hub-signature-256']).toBe(expectedSignature(delivery.raw));
    expect(result.status).toBe(200);
    const value = valueOf(delivery);
    expect(value.messaging_product).toBe('whatsapp');
    expect(value.metadata).toEqual({ display_phone_number: DISPLAY, phone_number_id: PHONE_ID });
    const message = value.messages[0];
    expect(message.id).toBe(result.wamid);
    expect(message.timestamp).toMatch(/^\d+$/);
    return { value, message };
  }

  it('builds Meta-shaped payloads for every inbound type', async () => {
    const text = await inbound({ type: 'text', text: 'Hi there' });
    expect(text.value.contacts).toEqual([{ profile: { name: 'Ada' }, wa_id: CUSTOMER }]);
    expect(text.message).toMatchObject({ from: CUSTOMER, type: 'text', text: { body: 'Hi there' } });

    const image = await inbound({ type: 'image', text: 'A photo' });
    expect(image.message.image).toEqual({
      caption: 'A photo',
      mime_type: 'image/png',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      id: expect.stringMatching(/^\d+$/),
    });
    const stored = sim.uploads.get(image.message.image.id)!;
    expect(
      stored.bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    ).toBe(true);
    const url = (await graph(`/${image.message.image.id}`)).body.url;
    const fetched = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(Buffer.from(await fetched.arrayBuffer()).equals(stored.bytes)).toBe(true);

    const own = await inbound({
      type: 'document',
      media: { bytes: Buffer.from('hello'), mime_type: 'text/plain', filename: 'note.txt' },
    });
    expect(own.message.document).toMatchObject({ filename: 'note.txt', mime_type: 'text/plain' });
    expect(sim.uploads.get(own.message.document.id)?.bytes.toString()).toBe('hello');
    const doc = await inbound({ type: 'document' });
    expect(doc.message.document).toMatchObject({ filename: 'sample.pdf', mime_type: 'application/pdf' });
    expect(sim.uploads.get(doc.message.document.id)?.bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const voice = await inbound({
      type: 'audio',
      media: { bytes: Buffer.from('OggS....'), mime_type: 'audio/ogg; codecs=opus', voice: true },
    });
    expect(voice.message.audio).toMatchObject({ mime_type: 'audio/ogg; codecs=opus', voice: true });
    expect((await inbound({ type: 'audio' })).message.audio).toMatchObject({
      mime_type: 'audio/mpeg',
      voice: false,
    });
    expect((await inbound({ type: 'video' })).message.video).toMatchObject({ mime_type: 'video/mp4' });
    expect((await inbound({ type: 'sticker' })).message.sticker).toMatchObject({
      mime_type: 'image/webp',
      animated: false,
    });

    const location = await inbound({
      type: 'location',
      location: { latitude: 1.25, longitude: 2.5, name: 'Café', address: 'Main St 1' },
    });
    expect(location.message.location).toEqual({
      latitude: 1.25,
      longitude: 2.5,
      name: 'Café',
      address: 'Main St 1',
    });

    const contacts = await inbound({ type: 'contacts' });
    expect(contacts.message.contacts[0]).toMatchObject({
      name: { formatted_name: expect.any(String) },
      phones: [expect.objectContaining({ wa_id: expect.any(String) })],
    });

    const button = await inbound({
      type: 'interactive',
      reply: { kind: 'button_reply', id: 'yes', title: 'Yes' },
      context: { message_id: 'wamid.OUT' },
    });
    expect(button.message).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
      context: { from: DISPLAY, id: 'wamid.OUT' },
    });
    const list = await inbound({
      type: 'interactive',
      reply: { kind: 'list_reply', id: 'r1', title: 'Row', description: 'More' },
    });
    expect(list.message.interactive).toEqual({
      type: 'list_reply',
      list_reply: { id: 'r1', title: 'Row', description: 'More' },
    });

    const quick = await inbound({ type: 'button', text: 'Talk to us', context: { message_id: 'wamid.TPL' } });
    expect(quick.message.button).toEqual({ payload: 'Talk to us', text: 'Talk to us' });

    const reaction = await inbound({ type: 'reaction', text: '❤️', reactTo: 'wamid.OUT' });
    expect(reaction.message.reaction).toEqual({ message_id: 'wamid.OUT', emoji: '❤️' });
    const removed = await inbound({ type: 'reaction', reactTo: 'wamid.OUT' });
    expect(removed.message.reaction).toEqual({ message_id: 'wamid.OUT' });

    const order = await inbound({ type: 'order' });
    expect(order.message.order).toMatchObject({
      catalog_id: expect.any(String),
      product_items: [
        expect.objectContaining({ product_retailer_id: expect.any(String), quantity: expect.any(Number) }),
      ],
    });

    const unsupported = await inbound({ type: 'unsupported' });
    expect(unsupported.message.errors).toEqual([
      expect.objectContaining({
        code: 131051,
        title: 'Message type unknown',
        error_data: { details: expect.any(String) },
      }),
    ]);

    const forwarded = await inbound({
      type: 'text',
      text: 'fwd',
      context: { message_id: '', forwarded: true },
    });
    expect(forwarded.message.context).toEqual({ forwarded: true });
  });

  it("supports the newer user_id shape, fixed ids for dedupe tests, and reports Titan's answer", async () => {
    const bsuid = await inbound({ type: 'text', text: 'x', omitWaId: true });
    expect(bsuid.value.contacts[0]).toEqual({
      profile: { name: 'Ada' },
      user_id: expect.stringMatching(/^US\.\d+$/),
    });
    expect(bsuid.message.from).toBeUndefined();
    expect(bsuid.message.from_user_id).toBe(bsuid.value.contacts[0].user_id);

    const a = await sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'dup', id: 'wamid.FIXED' });
    const b = await sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'dup', id: 'wamid.FIXED' });
    expect([a.wamid, b.wamid]).toEqual(['wamid.FIXED', 'wamid.FIXED']);

    hook.answer = 401;
    expect((await sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'x' })).status).toBe(401);
  });

  it('sends raw payloads with a chosen, a missing or the right signature', async () => {
    const raw = '{"object":"whatsapp_business_account","entry":[]}';
    expect((await sim.sendRaw(undefined, { rawBody: raw })).status).toBe(200);
    expect(hook.received.at(-1)!.raw.toString()).toBe(raw);
    expect(hook.received.at(-1)!.headers['x-hub-signature-256']).toBe(expectedSignature(Buffer.from(raw)));
    await sim.sendRaw({ object: 'whatsapp_business_account', entry: [] }, { signature: null });
    expect(hook.received.at(-1)!.headers['x-hub-signature-256']).toBeUndefined();
    await sim.sendRaw({ a: 'é/' }, { signature: 'sha256=bad' });
    expect(hook.received.at(-1)!.headers['x-hub-signature-256']).toBe('sha256=bad');
    expect(hook.received.at(-1)!.raw.toString()).toBe('{"a":"\\u00e9\\/"}');
  });

  it('refuses to send inbound without a webhook URL', async () => {
    await sim.close();
    sim = await start({ webhookUrl: undefined });
    await expect(sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'x' })).rejects.toThrow(/webhook URL/);
    sim.setWebhookUrl(hook.url);
    expect((await sim.sendInbound({ from: CUSTOMER, type: 'text', text: 'x' })).status).toBe(200);
  });
});

describe('control API and phone page', () => {
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(
      `${sim.url}${path}`,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    return { status: res.status, body: (await res.json()) as Record<string, Json> };
  };

  it('drives the simulator over HTTP', async () => {
    expect(
      (await control('/sim/switches', { autoRead: false, duplicate: false })).body.switches,
    ).toMatchObject({ autoRead: false, autoStatuses: true });

    const png = pngBytes();
    const sent = await control('/sim/inbound', {
      from: CUSTOMER,
      name: 'Ada',
      type: 'image',
      text: 'pic',
      media: { base64: png.toString('base64'), mime_type: 'image/png' },
    });
    expect(sent.body).toEqual({ wamid: expect.stringMatching(/^wamid\./), status: 200 });
    const mediaId = valueOf(hook.received.at(-1)!).messages[0].image.id;
    expect(sim.uploads.get(mediaId)?.bytes.equals(png)).toBe(true);

    const wamid = (await sendText()).body.messages[0].id;
    await statusesFor(wamid, 2);
    expect((await control('/sim/read', { wamid })).status).toBe(200);
    expect((await statusesFor(wamid, 3)).at(-1).status).toBe('read');
    expect((await control('/sim/read', { wamid: 'wamid.unknown' })).status).toBe(404);

    expect((await control('/sim/fail-next-sends', { code: 131056, count: 1 })).status).toBe(200);
    expect((await sendText()).body.error.code).toBe(131056);

    const state = await control('/sim/state');
    expect(state.body.switches.autoRead).toBe(false);
    expect(state.body.outbound).toHaveLength(1);
    expect(state.body.outbound[0]).toMatchObject({ wamid, statuses: ['sent', 'delivered', 'read'] });
    expect(state.body.markedRead).toEqual([]);

    const thread = await control(`/phone/api/thread?wa_id=${CUSTOMER}`);
    expect(
      thread.body.messages.map((m: { direction: string; status?: string; text: string }) => [
        m.direction,
        m.status ?? null,
        m.text,
      ]),
    ).toEqual([
      ['in', null, 'pic'],
      ['out', 'read', 'Hello from Titan'],
    ]);
  });

  it('serves the phone page', async () => {
    const res = await fetch(sim.phoneUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('role="log"');
    expect(html).toContain('Message');
    expect(html).toContain('>Send<');
    expect(html).toContain('/phone/api/thread');
  });
});
