// SMS conversations end to end over real HTTP (issue 30): signed inbound texts from tools/sms-sim
// open or continue the customer's SMS conversation; staff answer from the inbox and the reply goes
// through the send spine to Twilio (the simulator) once; STOP and START are activity lines; a reply
// to a number that said STOP is refused with the reason. Another business's number never gets ours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TMessage } from '@titan/contracts';
import { startSmsSim, type SmsSim } from '@titan/sms-sim';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { freePort, waitForSend } from '../../email/__tests__/email-helpers';

const A = {
  account_sid: 'AC1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a',
  auth_token: 'a-auth-token-conversations-0123456',
  from_number: '+15550100400',
};
const B = {
  account_sid: 'AC1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b',
  auth_token: 'b-auth-token-conversations-0123456',
  from_number: '+15550100500',
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let sim: SmsSim;
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  sim = await startSmsSim({
    accounts: [
      {
        accountSid: A.account_sid,
        authToken: A.auth_token,
        numbers: [A.from_number],
        inboundUrl: `${base}/api/sms/webhook/inbound/`,
      },
      {
        accountSid: B.account_sid,
        authToken: B.auth_token,
        numbers: [B.from_number],
        inboundUrl: `${base}/api/sms/webhook/inbound/`,
      },
    ],
    switches: { statusDelayMs: 5 },
  });
  rt = await createTestRuntime({
    workers: true,
    env: { PUBLIC_URL: base, SMS_API_URL: sim.apiUrl, SMS_RETRY_DELAYS_MS: '50,50' },
  });
  await rt.app!.listen({ port, host: '127.0.0.1' });
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Acme');
  const otherOwner = await signUp(rt.app!, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(rt.app!, otherOwner, 'Other Co') };
  expect((await call('PUT', '/api/sms/account/', A)).statusCode).toBe(200);
  expect((await call('PUT', '/api/sms/account/', B, other)).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
});

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: Record<string, unknown>,
  who: { owner: Session; business: TBusiness } = { owner, business },
) => rt.app!.inject({ method, url, headers: as(who.owner, who.business), ...(payload ? { payload } : {}) });

async function customer(b: TBusiness, name: string, phone: string): Promise<number> {
  const res = await rt.app!.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, phone },
  });
  return res.json().result.customer.id as number;
}

type Listed = { id: number; channel: string; initiator: { id: number } | null; is_read: boolean };

async function smsConversations(who = { owner, business }): Promise<Listed[]> {
  const res = await call('GET', '/api/msg/conversations/?channel__in=sms&page_size=100', undefined, who);
  expect(res.statusCode).toBe(200);
  return res.json().result.results as Listed[];
}

const messagesOf = async (id: number, who = { owner, business }) =>
  (await call('GET', `/api/msg/conversations/${id}/messages/`, undefined, who)).json().result as TMessage[];

const twilioCreates = (to: string) =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Messages.json') && r.form.To === to);

describe('SMS conversations', () => {
  it('an inbound text from a customer stored as +1 (201) 555-0123 continues their conversation, and staff’s reply reaches Twilio once', async () => {
    const id = await customer(business, 'Dana Typed', '+1 (201) 555-0123');
    const first = await sim.sendInbound({
      from: '+12015550123',
      to: A.from_number,
      body: 'Is my order shipped?',
    });
    expect(first.answer).toBe(200);
    const [conversation, ...more] = (await smsConversations()).filter((c) => c.initiator?.id === id);
    expect(more).toHaveLength(0);
    expect(conversation).toMatchObject({ channel: 'sms', is_read: false });
    await sim.sendInbound({ from: '+12015550123', to: A.from_number, body: 'Order 1042' });
    expect((await smsConversations()).filter((c) => c.initiator?.id === id)).toHaveLength(1);
    const texts = (await messagesOf(conversation!.id)).map((m) => [m.sender_type, m.content]);
    expect(texts).toEqual([
      ['customer', 'Is my order shipped?'],
      ['customer', 'Order 1042'],
    ]);

    const reply = await call('POST', `/api/msg/conversations/${conversation!.id}/messages/`, {
      message_type: 'text',
      content: 'Yes — it left this morning.',
    });
    expect(reply.statusCode).toBe(201);
    const sent = reply.json().result as TMessage;
    expect(sent).toMatchObject({ sender_type: 'staff', content: 'Yes — it left this morning.' });
    expect(sent.meta_data).toMatchObject({ to: '+12015550123', sms: { segments: 1, encoding: 'UCS-2' } });
    const send = await waitForSend(
      rt.services.db,
      String(sent.meta_data.send_id),
      (s) => s.status === 'delivered',
    );
    expect(send).toMatchObject({ channel: 'sms', cause: 'staff_reply', conversationId: conversation!.id });
    const creates = twilioCreates('+12015550123');
    expect(creates).toHaveLength(1);
    expect(creates[0]!.form).toMatchObject({ From: A.from_number, Body: 'Yes — it left this morning.' });
    const listed = (await smsConversations()).find((c) => c.id === conversation!.id);
    expect(listed).toMatchObject({ is_read: true });
    // The send log names the conversation; the sim saw nothing else for that number afterwards.
    await new Promise((r) => setTimeout(r, 200));
    expect(twilioCreates('+12015550123')).toHaveLength(1);
  });

  it('a new number opens a conversation with a new customer; the text never reaches another business', async () => {
    const number = '+14155550199';
    await sim.sendInbound({ from: number, to: A.from_number, body: 'Hello?' });
    const mine = (await smsConversations()).filter((c) => c.initiator !== null);
    const opened = [];
    for (const c of mine) {
      const msgs = await messagesOf(c.id);
      if (msgs.some((m) => m.content === 'Hello?')) opened.push(c);
    }
    expect(opened).toHaveLength(1);
    expect(await smsConversations(other)).toEqual([]);
    // Their staff cannot read it nor answer it.
    const theirs = await call('GET', `/api/msg/conversations/${opened[0]!.id}/messages/`, undefined, other);
    expect(theirs.statusCode).toBe(404);
    const answer = await call(
      'POST',
      `/api/msg/conversations/${opened[0]!.id}/messages/`,
      { message_type: 'text', content: 'hi' },
      other,
    );
    expect(answer.statusCode).toBe(404);
    // The same number texting the other business's number is that business's conversation alone.
    await sim.sendInbound({ from: number, to: B.from_number, body: 'Wrong shop?' });
    const theirsNow = await smsConversations(other);
    expect(theirsNow).toHaveLength(1);
    expect((await messagesOf(theirsNow[0]!.id, other)).map((m) => m.content)).toEqual(['Wrong shop?']);
    expect((await messagesOf(opened[0]!.id)).map((m) => m.content)).toEqual(['Hello?']);
  });

  it('STOP and START are activity lines; a reply to a number that said STOP is refused with the reason and Twilio is not called', async () => {
    const number = '+14155550142';
    const id = await customer(business, 'Stopper', number);
    await sim.sendInbound({ from: number, to: A.from_number, body: 'Do you deliver on Sundays?' });
    const conversation = (await smsConversations()).find((c) => c.initiator?.id === id)!;
    await sim.sendInbound({ from: number, to: A.from_number, body: 'STOP' });
    const afterStop = await messagesOf(conversation.id);
    expect(afterStop.at(-1)).toMatchObject({
      message_type: 'activity',
      sender_type: 'system',
      content: `${number} replied STOP: texts to this number are stopped until they reply START`,
    });
    const before = twilioCreates(number).length;
    const refused = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'We do!',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Not sent: ${number} replied STOP and no longer receives texts from this business. They can text START to receive them again.`,
    );
    // Nothing written: no staff message, no send.
    expect((await messagesOf(conversation.id)).filter((m) => m.sender_type === 'staff')).toHaveLength(0);
    expect(twilioCreates(number).length).toBe(before);

    await sim.sendInbound({ from: number, to: A.from_number, body: 'start' });
    expect((await messagesOf(conversation.id)).at(-1)).toMatchObject({
      message_type: 'activity',
      content: `${number} replied START: texts to this number are allowed again`,
    });
    const again = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'We do!',
    });
    expect(again.statusCode).toBe(201);
    await waitForSend(
      rt.services.db,
      String(again.json().result.meta_data.send_id),
      (s) => s.status === 'delivered',
    );
    expect(twilioCreates(number).length).toBe(before + 1);
    // STOP and START stay out of the conversation's customer messages.
    expect(
      (await messagesOf(conversation.id)).filter((m) => m.sender_type === 'customer').map((m) => m.content),
    ).toEqual(['Do you deliver on Sundays?']);
  });

  it('refuses files, email fields and over-long texts on an SMS conversation with field messages', async () => {
    const number = '+14155550177';
    await customer(business, 'Fields', number);
    await sim.sendInbound({ from: number, to: A.from_number, body: 'hi' });
    const conversation = (await smsConversations())[0]!;
    const post = (payload: Record<string, unknown>) =>
      call('POST', `/api/msg/conversations/${conversation.id}/messages/`, payload);
    const html = await post({ message_type: 'text', content: 'x', html: '<b>x</b>', cc: ['a@example.com'] });
    expect(html.statusCode).toBe(400);
    expect(html.json().result).toEqual({
      html: ['Only email conversations take this field.'],
      cc: ['Only email conversations take this field.'],
    });
    const long = await post({ message_type: 'text', content: 'a'.repeat(1601) });
    expect(long.statusCode).toBe(400);
    expect(long.json().result.content).toEqual(['An SMS reply is at most 1,600 characters.']);
    const file = await post({ message_type: 'file', content: 'public/whatever/file.png' });
    expect(file.statusCode).toBe(400);
    expect(file.json().result.content).toEqual([
      'SMS replies are text: type the message instead of attaching a file.',
    ]);
  });

  it('a picture makes the reply an MMS: Twilio fetches it from a signed link; anything but a picture is refused', async () => {
    const number = '+14155550188';
    const mia = await customer(business, 'Mia', number);
    await sim.sendInbound({ from: number, to: A.from_number, body: 'What colour is it?' });
    const conversation = (await smsConversations()).find((c) => c.initiator?.id === mia)!;
    const uploadFile = async (name: string, type: string, bytes: Buffer) => {
      const boundary = `----titan${Math.random().toString(16).slice(2)}`;
      const part = (header: string, value: Buffer | string) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`),
          Buffer.from(value),
          Buffer.from('\r\n'),
        ]);
      const res = await rt.app!.inject({
        method: 'POST',
        url: '/api/upload/',
        headers: { ...as(owner, business), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          part('Content-Disposition: form-data; name="prefix"', 'chat_media'),
          part(
            `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}`,
            bytes,
          ),
          Buffer.from(`--${boundary}--\r\n`),
        ]),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().result.key as string;
    };
    const png = await uploadFile('red.png', 'image/png', PNG);
    const reply = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'This red:',
      attachment_ids: [png],
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const sent = reply.json().result as TMessage;
    expect(sent.meta_data).toMatchObject({
      mms: true,
      attachments: [{ file_name: 'red.png', mime_type: 'image/png' }],
    });
    await waitForSend(rt.services.db, String(sent.meta_data.send_id), (s) => s.status === 'delivered');
    const [create] = sim.requests.filter((r) => r.path.endsWith('/Messages.json') && r.form.To === number);
    expect(create!.mediaUrls).toHaveLength(1);
    expect(create!.mediaUrls[0]).toMatch(/\/files\/chat_media\/.+sig=/);
    const message = sim.messages.find((m) => m.to === number)!;
    expect(message.num_media).toBe('1');
    expect(sim.media.get(message.sid)).toEqual([
      { url: create!.mediaUrls[0], status: 200, contentType: 'image/png', bytes: PNG.length },
    ]);

    const pdf = await uploadFile('terms.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    const refused = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Terms',
      attachment_ids: [pdf],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result.attachment_ids).toEqual(['MMS takes a JPEG, PNG or GIF picture.']);
    const two = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Two',
      attachment_ids: [png, png],
    });
    expect(two.json().result.attachment_ids).toEqual(['An SMS reply carries one picture at most.']);
  });

  it('a reply Twilio refuses shows failed, with Twilio’s reason, in the conversation', async () => {
    const number = '+15005550002';
    const id = await customer(business, 'Unreachable', number);
    await sim.sendInbound({ from: number, to: A.from_number, body: 'Call me back' });
    const conversation = (await smsConversations()).find((c) => c.initiator?.id === id)!;
    const reply = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Trying by text',
    });
    expect(reply.statusCode).toBe(201);
    const send = await waitForSend(
      rt.services.db,
      String(reply.json().result.meta_data.send_id),
      (s) => s.status === 'failed',
    );
    // The conversation mirrors the send's status as its events are applied.
    const staffLine = async () => (await messagesOf(conversation.id)).find((m) => m.sender_type === 'staff')!;
    await expect.poll(async () => (await staffLine()).status, { timeout: 10_000 }).toBe('failed');
    expect((await staffLine()).meta_data.error).toBe(send.errorMessage);
  });
});

describe('starting an SMS conversation from the inbox', () => {
  const start = (payload: Record<string, unknown>, who = { owner, business }) =>
    call('POST', '/api/msg/conversations/', payload, who);

  it('texts a number no customer has: a new customer, the text reaches Twilio once, and their answer continues it', async () => {
    const res = await start({ channel: 'sms', to: '+1 (201) 555-0166', content: 'Your table is ready.' });
    expect(res.statusCode, res.body).toBe(201);
    const { conversation, message } = res.json().result as {
      conversation: { id: number; channel: string; title: string; initiator: { id: number } };
      message: TMessage;
    };
    expect(conversation).toMatchObject({ channel: 'sms', title: '+12015550166', is_read: true });
    const customerRes = await call('GET', `/api/business/customer-directory/${conversation.initiator.id}/`);
    expect(customerRes.json().result).toMatchObject({ phone: '+12015550166' });
    expect(message).toMatchObject({ sender_type: 'staff', content: 'Your table is ready.' });
    const send = await waitForSend(
      rt.services.db,
      String(message.meta_data.send_id),
      (s) => s.status === 'delivered',
    );
    expect(send).toMatchObject({ channel: 'sms', cause: 'staff_reply', conversationId: conversation.id });
    expect(twilioCreates('+12015550166').map((r) => r.form.Body)).toEqual(['Your table is ready.']);
    await sim.sendInbound({ from: '+12015550166', to: A.from_number, body: 'On my way' });
    const mine = (await smsConversations()).filter((c) => c.initiator?.id === conversation.initiator.id);
    expect(mine.map((c) => c.id)).toEqual([conversation.id]);
    expect((await messagesOf(conversation.id)).map((m) => [m.sender_type, m.content])).toEqual([
      ['staff', 'Your table is ready.'],
      ['customer', 'On my way'],
    ]);
    // Another business never sees it.
    expect(
      (await call('GET', `/api/msg/conversations/${conversation.id}/`, undefined, other)).statusCode,
    ).toBe(404);
  });

  it('texts a customer by id; a retry with the same idempotency key sends nothing more, even at once', async () => {
    const id = await customer(business, 'Idem Potent', '+14155550111');
    const payload = { channel: 'sms', customer_id: id, content: 'Once only', idempotency_key: 'k-sms-1' };
    const [a, b] = await Promise.all([start(payload), start(payload)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().result.conversation.id).toBe(b.json().result.conversation.id);
    expect(a.json().result.message.id).toBe(b.json().result.message.id);
    const again = await start(payload);
    expect(again.statusCode).toBe(200);
    expect(again.json().result.conversation.id).toBe(a.json().result.conversation.id);
    await waitForSend(
      rt.services.db,
      String(a.json().result.message.meta_data.send_id),
      (s) => s.status === 'delivered',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(twilioCreates('+14155550111')).toHaveLength(1);
    expect((await smsConversations()).filter((c) => c.initiator?.id === id)).toHaveLength(1);
  });

  it('refuses a number that said STOP with the reason, and bad input with field messages; nothing is sent', async () => {
    const number = '+14155550133';
    await sim.sendInbound({ from: number, to: A.from_number, body: 'STOP' });
    const before = (await smsConversations()).length;
    const stopped = await start({ channel: 'sms', to: number, content: 'Sale today!' });
    expect(stopped.statusCode).toBe(409);
    expect(stopped.json().message).toBe(
      `Not sent: ${number} replied STOP and no longer receives texts from this business. They can text START to receive them again.`,
    );
    expect(twilioCreates(number)).toHaveLength(0);
    expect((await smsConversations()).length).toBe(before);

    const none = await start({ channel: 'sms', content: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json().result.to).toEqual(['Choose a customer or enter a phone number.']);
    const bad = await start({ channel: 'sms', to: '12', content: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.to).toEqual([expect.stringMatching(/phone number|country code/)]);
    const long = await start({ channel: 'sms', to: '+14155550134', content: 'a'.repeat(1601) });
    expect(long.statusCode).toBe(400);
    expect(long.json().result.content).toEqual(['An SMS reply is at most 1,600 characters.']);
    const empty = await start({ channel: 'sms', to: '+14155550134', content: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result.content).toEqual(['Write a message.']);
    const fax = await start({ channel: 'fax', to: '+14155550134', content: 'x' });
    expect(fax.statusCode).toBe(400);
    expect(fax.json().result.channel).toBeDefined();
    // Another business's customer is no customer of this one.
    const theirs = await customer(other.business, 'Theirs', '+14155550135');
    const foreign = await start({ channel: 'sms', customer_id: theirs, content: 'x' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result.customer_id).toEqual(['No customer of this business has this id.']);
    expect(twilioCreates('+14155550134')).toHaveLength(0);
    expect(twilioCreates('+14155550135')).toHaveLength(0);
  });
});
