import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TConversation, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { insertWaMessageOnce as insertInboundMessage } from '../../conversations/conversations.repository';
import { applyRecordedStatuses } from '../messages/whatsapp.outbound';
import { summarize } from '../webhook/whatsapp.inbound';

const APP_SECRET = 'meta-app-secret-0123456789abcdef';
const PHONE_NUMBER_ID = '109876543210';
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime({ workers: true, env: { PUBLIC_URL: 'https://titan.example.com' } });
  await rt.app!.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(rt.app!.server.address() as { port: number }).port}`;
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'WA Co');
  const res = await rt.app!.inject({
    method: 'PUT',
    url: '/api/whatsapp/account/',
    headers: as(owner, business),
    payload: {
      phone_number_id: PHONE_NUMBER_ID,
      waba_id: '200000000000001',
      display_phone_number: '+1 555 0100',
      verify_token: 'verify-me-please',
      access_token: 'EAAG-access-token-for-tests-000000',
      app_secret: APP_SECRET,
    },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(() => rt.destroy());

const sign = (raw: string, secret = APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

function envelope(value: object, phoneNumberId = PHONE_NUMBER_ID) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '200000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550100', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** Meta's bytes: compact JSON, non-ASCII as lowercase \\uXXXX, "/" as "\\/". */
function metaBytes(payload: object): string {
  return JSON.stringify(payload)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

async function deliver(payload: object, signature?: string) {
  const raw = metaBytes(payload);
  return fetch(`${base}/api/whatsapp/webhook/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature !== 'none' ? { 'x-hub-signature-256': signature ?? sign(raw) } : {}),
    },
    body: raw,
  });
}

async function settled() {
  await expect
    .poll(
      async () =>
        (
          await rt.database.query<{ n: number }>(
            'select count(*)::int as n from whatsapp_webhook_events where processed_at is null',
          )
        )[0]!.n,
      {
        timeout: 20_000,
        interval: 100,
      },
    )
    .toBe(0);
}

let counter = 0;
const wamid = () => `wamid.HBgL${Date.now()}${++counter}`;

function inbound(from: string, name: string, message: object) {
  return envelope({
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [{ from, id: wamid(), timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
  });
}

const conversations = async () =>
  (
    await rt.app!.inject({
      method: 'GET',
      url: '/api/msg/conversations/?channel__in=whatsapp&page_size=100',
      headers: as(owner, business),
    })
  ).json().result.results as TConversation[];

describe('connecting a number', () => {
  it('keeps tokens write-only and sealed, and shows the webhook URL', async () => {
    const res = await rt.app!.inject({
      method: 'GET',
      url: '/api/whatsapp/account/',
      headers: as(owner, business),
    });
    expect(res.json().result).toEqual({
      phone_number_id: PHONE_NUMBER_ID,
      waba_id: '200000000000001',
      display_phone_number: '+1 555 0100',
      verify_token: 'verify-me-please',
      webhook_url: 'https://titan.example.com/api/whatsapp/webhook/',
      has_access_token: true,
      has_app_secret: true,
    });
    expect(res.body).not.toContain(APP_SECRET);
    const [row] = await rt.database.query<{ app_secret_sealed: string; access_token_sealed: string }>(
      'select app_secret_sealed, access_token_sealed from whatsapp_accounts where business_id = $1',
      [business.id],
    );
    expect(row!.app_secret_sealed).not.toContain(APP_SECRET);
    expect(row!.access_token_sealed).not.toContain('EAAG');
  });

  it('requires the secrets on first connect and refuses a number another business holds', async () => {
    const other = await signUp(rt.app!, rt.mailer);
    const otherBusiness = await createBusiness(rt.app!, other, 'Other WA');
    const missing = await rt.app!.inject({
      method: 'PUT',
      url: '/api/whatsapp/account/',
      headers: as(other, otherBusiness),
      payload: {
        phone_number_id: '555555555',
        waba_id: '666666666',
        display_phone_number: '+1 555 0199',
        verify_token: 'another-token',
      },
    });
    expect(Object.keys(missing.json().result).sort()).toEqual(['access_token', 'app_secret']);
    const taken = await rt.app!.inject({
      method: 'PUT',
      url: '/api/whatsapp/account/',
      headers: as(other, otherBusiness),
      payload: {
        phone_number_id: PHONE_NUMBER_ID,
        waba_id: '666666666',
        display_phone_number: '+1 555 0199',
        verify_token: 'another-token',
        access_token: 'EAAG-another-token-000000000000',
        app_secret: 'another-app-secret-000000',
      },
    });
    expect(taken.json().result).toEqual({
      phone_number_id: ['This phone number id is already connected to another business.'],
    });
    expect(
      (
        await rt.app!.inject({
          method: 'GET',
          url: '/api/whatsapp/account/',
          headers: as(other, otherBusiness),
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('webhook', () => {
  it('answers the verification handshake with the challenge, byte for byte', async () => {
    const ok = await fetch(
      `${base}/api/whatsapp/webhook/?hub.mode=subscribe&hub.verify_token=verify-me-please&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const bad = await fetch(
      `${base}/api/whatsapp/webhook/?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    expect(bad.status).toBe(403);
  });

  it('stores nothing for a missing, wrong or re-serialised signature', async () => {
    const payload = inbound('15551230001', 'Zoë', { type: 'text', text: { body: 'héllo 👋 http://x.y/z' } });
    const raw = metaBytes(payload);
    const before = (
      await rt.database.query<{ n: number }>('select count(*)::int as n from whatsapp_webhook_events')
    )[0]!.n;
    expect((await deliver(payload, 'none')).status).toBe(401);
    expect((await deliver(payload, sign(raw, 'wrong secret'))).status).toBe(401);
    // Signing JSON.stringify of the parse gives other bytes than Meta's.
    expect((await deliver(payload, sign(JSON.stringify(payload)))).status).toBe(401);
    expect(
      (await deliver(envelope({ messages: [] }, '999'), sign(metaBytes(envelope({ messages: [] }, '999')))))
        .status,
    ).toBe(401);
    const after = (
      await rt.database.query<{ n: number }>('select count(*)::int as n from whatsapp_webhook_events')
    )[0]!.n;
    expect(after).toBe(before);
  });

  it('turns a signed message into a conversation with the contact, once, however often it is delivered', async () => {
    const payload = inbound('15551230002', 'Zoë Ålvarez', {
      type: 'text',
      text: { body: 'héllo 👋 http://x.y/z' },
    });
    const first = await deliver(payload);
    expect(first.status).toBe(200);
    await deliver(payload);
    await settled();
    const mine = (await conversations()).filter((c) => c.initiator?.name === 'Zoë Ålvarez');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      channel: 'whatsapp',
      status: 'active',
      is_read: false,
      business_replied: false,
    });
    const messages = (
      await rt.app!.inject({
        method: 'GET',
        url: `/api/msg/conversations/${mine[0]!.id}/messages/`,
        headers: as(owner, business),
      })
    ).json().result as TMessage[];
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      content: 'héllo 👋 http://x.y/z',
      sender_type: 'customer',
      meta_data: { type: 'text' },
    });
    expect(String(messages[0]!.id)).toMatch(/^wamid\./);
  });

  it('reopens a resolved conversation when the customer writes again, and handles batches', async () => {
    await deliver(inbound('15551230003', 'Ravi', { type: 'text', text: { body: 'first' } }));
    await settled();
    const conversation = (await conversations()).find((c) => c.initiator?.name === 'Ravi')!;
    await rt.app!.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(owner, business),
      payload: { status: 'resolved' },
    });
    const batch = inbound('15551230003', 'Ravi', { type: 'text', text: { body: 'second' } });
    (batch.entry[0]!.changes[0]!.value as unknown as { messages: object[] }).messages.push({
      from: '15551230003',
      id: wamid(),
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'text',
      text: { body: 'third' },
    });
    batch.entry.push(
      inbound('15551230004', 'Mei', { type: 'text', text: { body: 'other entry' } }).entry[0]!,
    );
    await deliver(batch);
    await settled();
    const again = (await conversations()).filter((c) => c.initiator?.name === 'Ravi');
    expect(again).toHaveLength(1);
    expect(again[0]!.status).toBe('active');
    expect((await conversations()).some((c) => c.initiator?.name === 'Mei')).toBe(true);
  });

  it('summarises every inbound type for people and keeps the payload', () => {
    const cases: [object, string][] = [
      [{ type: 'text', text: { body: 'hi' } }, 'hi'],
      [{ type: 'image', image: { id: '1', mime_type: 'image/jpeg', caption: 'look' } }, 'look'],
      [{ type: 'video', video: { id: '1' } }, '[video]'],
      [{ type: 'audio', audio: { id: '1', voice: true } }, '[audio]'],
      [{ type: 'document', document: { id: '1', filename: 'invoice.pdf' } }, 'invoice.pdf'],
      [{ type: 'sticker', sticker: { id: '1' } }, '[sticker]'],
      [{ type: 'location', location: { latitude: 1, longitude: 2, name: 'HQ' } }, 'HQ'],
      [{ type: 'contacts', contacts: [{ name: { formatted_name: 'Ann Lee' } }] }, 'Ann Lee'],
      [
        {
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'y', title: 'Yes' } },
        },
        'Yes',
      ],
      [
        {
          type: 'interactive',
          interactive: { type: 'list_reply', list_reply: { id: 'l', title: 'Option B' } },
        },
        'Option B',
      ],
      [{ type: 'button', button: { text: 'Stop promotions', payload: 'STOP' } }, 'Stop promotions'],
      [{ type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '👍' } }, '👍'],
      [{ type: 'reaction', reaction: { message_id: 'wamid.x' } }, '[reaction removed]'],
      [{ type: 'order', order: { catalog_id: '1', product_items: [] } }, '[order]'],
      [{ type: 'unsupported', errors: [{ code: 131051 }] }, '[unsupported message]'],
    ];
    for (const [message, expected] of cases)
      expect(summarize(message as never), JSON.stringify(message)).toBe(expected);
  });
});

describe('statuses', () => {
  async function outbound(conversationId: number) {
    const id = wamid();
    await insertInboundMessage(rt.database.db, {
      id,
      businessId: business.id,
      conversationId,
      content: 'from staff',
      senderType: 'staff',
      senderId: owner.user.pk,
      status: 'accepted',
    });
    return id;
  }
  const statusOf = async (id: string) =>
    (await rt.database.query<{ status: string }>('select status from wa_messages where id = $1', [id]))[0]!
      .status;
  const statusUpdate = (id: string, status: string, extra: object = {}) =>
    envelope({
      statuses: [
        {
          id,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: '15551230002',
          ...extra,
        },
      ],
    });

  it('only ever moves forward, whatever order the reports arrive in, and failed is final', async () => {
    const conversation = (await conversations())[0]!;
    const id = await outbound(conversation.id);
    await deliver(statusUpdate(id, 'read'));
    await deliver(statusUpdate(id, 'sent'));
    await deliver(statusUpdate(id, 'delivered'));
    await deliver(statusUpdate(id, 'read'));
    await settled();
    expect(await statusOf(id)).toBe('read');
    const [count] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from send_events where provider_message_id = $1',
      [id],
    );
    expect(count!.n).toBe(3);

    const failing = await outbound(conversation.id);
    await deliver(
      statusUpdate(failing, 'failed', { errors: [{ code: 131047, title: 'Re-engagement message' }] }),
    );
    await deliver(statusUpdate(failing, 'delivered'));
    await settled();
    expect(await statusOf(failing)).toBe('failed');
    const [row] = await rt.database.query<{ meta_data: { errors: { code: number }[] } }>(
      'select meta_data from wa_messages where id = $1',
      [failing],
    );
    expect(row!.meta_data.errors[0]!.code).toBe(131047);
  });

  it('keeps a status that arrives before the send stored its wamid, and applies it then', async () => {
    const conversation = (await conversations())[0]!;
    const early = `wamid.EARLY${Date.now()}`;
    await deliver(statusUpdate(early, 'delivered'));
    await settled();
    await insertInboundMessage(rt.database.db, {
      id: early,
      businessId: business.id,
      conversationId: conversation.id,
      content: 'sent late',
      senderType: 'staff',
      status: 'accepted',
    });
    await applyRecordedStatuses(rt.database.db, business.id, early);
    expect(await statusOf(early)).toBe('delivered');
  });
});
