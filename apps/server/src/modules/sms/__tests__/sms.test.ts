// The SMS channel end to end over real HTTP: Titan → tools/sms-sim (Twilio's Messages API), and
// back (signed status callbacks, inbound texts) → Titan listening on its PUBLIC_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TBusiness } from '@titan/contracts';
import { signatureFor, startSmsSim, type SmsSim } from '@titan/sms-sim';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { findSuppression } from '../../suppressions/suppressions.service';
import { setCustomerConsent } from '../../consent/consent.service';
import { CONSENT_SKIP_REASONS } from '../../broadcasts/broadcasts.service';
import { freePort, waitForSend } from '../../email/__tests__/email-helpers';
import { sweepPrices } from '../sms.jobs';

const A = {
  account_sid: 'AC0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a',
  auth_token: 'a-auth-token-0123456789abcdef0123',
  from_number: '+15550100200',
};
const B = {
  account_sid: 'AC0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b',
  auth_token: 'b-auth-token-0123456789abcdef0123',
  from_number: '+15550100300',
};
const KEY = { sid: 'SK0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a', secret: 'a-key-secret-0123456789abcdef' };

let sim: SmsSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  sim = await startSmsSim({
    accounts: [
      {
        accountSid: A.account_sid,
        authToken: A.auth_token,
        apiKeys: [KEY],
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

let phones = 0;
/** A fresh mobile number for each test, so suppressions and threads never mix. */
const phone = () => `+1415555${String(1000 + ++phones).slice(-4)}`;

async function customer(b: TBusiness, name: string, phoneNumber?: string): Promise<number> {
  const res = await rt.app!.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, ...(phoneNumber ? { phone: phoneNumber } : {}) },
  });
  return res.json().result.customer.id as number;
}

async function sendSms(payload: Record<string, unknown>, who = { owner, business }) {
  return call('POST', '/api/agents/send-sms/', payload, who);
}

/** A signed form post to Titan, as Twilio makes it (or with another signature). */
async function twilioPost(
  path: string,
  params: Record<string, string>,
  token = A.auth_token,
  signature?: string,
) {
  const url = `${base}${path}`;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? signatureFor(token, url, params),
    },
    body: new URLSearchParams(params).toString(),
  });
}

describe('the account (Settings → SMS)', () => {
  it('is proven with Twilio, keeps the Auth Token sealed and write-only, and shows the webhook URLs', async () => {
    expect((await call('GET', '/api/sms/account/')).statusCode).toBe(404);
    const missing = await call('PUT', '/api/sms/account/', {
      account_sid: A.account_sid,
      from_number: A.from_number,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().result.auth_token[0]).toMatch(/Auth Token/);
    const wrong = await call('PUT', '/api/sms/account/', { ...A, auth_token: 'not-the-token-0123456789' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result.auth_token[0]).toMatch(/Twilio refused these credentials/);
    const both = await call('PUT', '/api/sms/account/', {
      ...A,
      messaging_service_sid: `MG${'1'.repeat(32)}`,
    });
    expect(both.json().result.messaging_service_sid[0]).toMatch(/not both/);

    const saved = await call('PUT', '/api/sms/account/', A);
    expect(saved.statusCode).toBe(200);
    const account = saved.json().result;
    expect(account).toMatchObject({
      account_sid: A.account_sid,
      from_number: A.from_number,
      has_auth_token: true,
      status_callback_url: `${base}/api/sms/webhook/status/`,
      inbound_url: `${base}/api/sms/webhook/inbound/`,
    });
    expect(JSON.stringify(account)).not.toContain(A.auth_token);
    expect(JSON.stringify((await call('GET', '/api/sms/account/')).json())).not.toContain(A.auth_token);
    const [row] = await rt.database.query<{ auth_token_sealed: string }>(
      'select auth_token_sealed from sms_accounts where business_id = $1',
      [business.id],
    );
    expect(row!.auth_token_sealed).not.toContain(A.auth_token);
    // Saved again without the token: the sealed one is kept (and still proven).
    expect(
      (await call('PUT', '/api/sms/account/', { account_sid: A.account_sid, from_number: A.from_number }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses another business the same Twilio account, and shows it nothing of ours', async () => {
    const taken = await call('PUT', '/api/sms/account/', A, other);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().result.account_sid[0]).toBe(
      'This Twilio account is already connected to another business.',
    );
    expect((await call('GET', '/api/sms/account/', undefined, other)).statusCode).toBe(404);
    const unconnected = await sendSms({ to: phone(), body: 'Hi' }, other);
    expect(unconnected.statusCode).toBe(409);
    expect(unconnected.json().message).toMatch(/Connect a Twilio account in Settings → SMS/);
  });
});

describe('sending', () => {
  it('posts the form Titan owes Twilio (basic auth, E.164 To, From, StatusCallback), records it and follows it to delivered', async () => {
    const to = phone();
    const pretty = `${to.slice(0, 2)} (${to.slice(2, 5)}) ${to.slice(5, 8)}-${to.slice(8)}`;
    const res = await sendSms({ to: pretty, body: 'Your order is ready.' });
    expect(res.statusCode).toBe(202);
    const sent = res.json().result;
    expect(sent).toMatchObject({
      status: 'queued',
      recipient: to,
      body: 'Your order is ready.',
      segments: 1,
      encoding: 'GSM-7',
    });

    const request = await sim.waitFor(() =>
      sim.requests.find((r) => r.method === 'POST' && r.form.To === to),
    );
    expect(request.path).toBe(`/2010-04-01/Accounts/${A.account_sid}/Messages.json`);
    expect(request.authorization).toBe(
      `Basic ${Buffer.from(`${A.account_sid}:${A.auth_token}`).toString('base64')}`,
    );
    expect(request.contentType).toContain('application/x-www-form-urlencoded');
    expect(request.form).toEqual({
      To: to,
      From: A.from_number,
      Body: 'Your order is ready.',
      StatusCallback: `${base}/api/sms/webhook/status/`,
    });

    const send = await waitForSend(rt.services.db, sent.id, (s) => s.status === 'delivered');
    expect(send.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    const log = (await call('GET', `/api/sms/events/${sent.id}/`)).json().result;
    expect(log).toMatchObject({
      status: 'delivered',
      to,
      segments: 1,
      encoding: 'GSM-7',
      wamid: send.providerMessageId,
    });
    expect(log.sms).toMatchObject({ from: A.from_number, to, body: 'Your order is ready.', segments: 1 });
    expect(
      log.events.map(
        (e: { provider_status: string | null; status: string }) => e.provider_status ?? e.status,
      ),
    ).toEqual(['queued', 'sent', 'delivered']);
    // What Twilio charged, read by the pricing sweep once the message is final.
    // (The workers' own sweep may price it first: then this one finds nothing left to price.)
    await new Promise((r) => setTimeout(r, 2_100));
    await sweepPrices(rt.services.sms);
    await expect
      .poll(async () => (await call('GET', `/api/sms/events/${sent.id}/`)).json().result, { timeout: 20_000 })
      .toMatchObject({ price: '-0.00790', price_unit: 'USD' });
    const me = (await call('GET', '/api/business/')).json().result;
    expect(me.sms_count).toBeGreaterThanOrEqual(1);
  });

  it('refuses numbers that are not E.164 and another business’s customers', async () => {
    const bad = await sendSms({ to: '4155550123', body: 'Hi' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.to[0]).toBe('Enter the number in international format, e.g. +14155550100.');
    const theirs = await customer(other.business, 'Theirs', phone());
    expect((await sendSms({ customer_id: theirs, body: 'Hi' })).statusCode).toBe(404);
    const noPhone = await customer(business, 'No phone');
    expect((await sendSms({ customer_id: noPhone, body: 'Hi' })).json().result.customer_id[0]).toBe(
      'This customer has no phone number.',
    );
  });

  it('counts segments: GSM-7 up to 160 in one, 153 per part beyond; Unicode 70, then 67', async () => {
    const cases = [
      { body: 'a'.repeat(160), segments: 1, encoding: 'GSM-7' },
      { body: 'a'.repeat(161), segments: 2, encoding: 'GSM-7' },
      { body: '{}'.repeat(40), segments: 1, encoding: 'GSM-7' },
      { body: 'Grüße ✓ '.repeat(9), segments: 2, encoding: 'UCS-2' },
      { body: 'Привет! '.repeat(8) + 'ok', segments: 1, encoding: 'UCS-2' },
    ];
    for (const c of cases) {
      const res = await sendSms({ to: phone(), body: c.body });
      expect(res.json().result, c.body).toMatchObject({ segments: c.segments, encoding: c.encoding });
      const send = await waitForSend(
        rt.services.db,
        res.json().result.id,
        (s) => s.providerMessageId !== null,
      );
      // Twilio counts the same.
      expect(sim.messages.find((m) => m.sid === send.providerMessageId)!.num_segments).toBe(
        String(c.segments),
      );
    }
  });

  it('retries Twilio’s 429 with backoff, and gives up after the configured attempts', async () => {
    sim.failNextSends(2, 429, 20429, 'Too Many Requests');
    const res = await sendSms({ to: phone(), body: 'Patience' });
    const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'delivered');
    const [deferred] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from send_events where send_id = $1 and type = 'deferred'`,
      [send.id],
    );
    expect(deferred!.n).toBe(2);

    sim.failNextSends(3, 429, 20429, 'Too Many Requests');
    const gaveUp = await sendSms({ to: phone(), body: 'Never' });
    const failed = await waitForSend(rt.services.db, gaveUp.json().result.id, (s) => s.status === 'failed');
    expect(failed.errorCode).toBe('20429');
    expect(failed.errorMessage).toBe(
      'Twilio is rate limiting this account: too many requests at once. (gave up after 3 attempts)',
    );
  });

  it('maps Twilio’s errors to clear messages: invalid, not mobile, unreachable, blocked', async () => {
    const notMobile = await sendSms({ to: '+15005550009', body: 'x' });
    const refused = await waitForSend(
      rt.services.db,
      notMobile.json().result.id,
      (s) => s.status === 'failed',
    );
    expect(refused).toMatchObject({ errorCode: '21614', providerMessageId: null });
    expect(refused.errorMessage).toBe('The number is not a mobile number and cannot receive text messages.');
    const listed = (await call('GET', `/api/sms/events/?search=${encodeURIComponent('+15005550009')}`)).json()
      .result;
    expect(listed.results[0]).toMatchObject({ status: 'error', error_code: 21614 });

    for (const [code, words] of [
      [30003, 'The phone is unreachable'],
      [30004, 'The message was blocked'],
    ] as const) {
      const to = phone();
      sim.setOutcome(to, code);
      const res = await sendSms({ to, body: 'x' });
      const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'failed');
      expect(send.errorCode).toBe(String(code));
      expect(send.errorMessage).toContain(words);
      const log = (await call('GET', `/api/sms/events/${send.id}/`)).json().result;
      expect(log.status).toBe('failed');
      expect(log.events.at(-1)).toMatchObject({ provider_status: 'undelivered', error: { code } });
    }
  });
});

describe('status callbacks', () => {
  it('answers 403 to a bad signature and changes nothing', async () => {
    const res = await sendSms({ to: phone(), body: 'x' });
    const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'delivered');
    const forged = {
      MessageSid: send.providerMessageId!,
      MessageStatus: 'failed',
      ErrorCode: '30007',
      AccountSid: A.account_sid,
      From: A.from_number,
      To: send.recipient,
    };
    const unsigned = await twilioPost(
      '/api/sms/webhook/status/',
      forged,
      A.auth_token,
      'AAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    expect(unsigned.status).toBe(403);
    // Signed with another account's token while naming ours.
    expect((await twilioPost('/api/sms/webhook/status/', forged, B.auth_token)).status).toBe(403);
    const after = await waitForSend(rt.services.db, send.id, () => true);
    expect(after).toMatchObject({ status: 'delivered', errorCode: null });
    const [events] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from send_events where provider_message_id = $1 and payload->>'provider_status' = 'failed'`,
      [send.providerMessageId],
    );
    expect(events!.n).toBe(0);
  });

  it('applies statuses monotonically: out of order, duplicated, or a late weaker one', async () => {
    sim.set({ outOfOrder: true, duplicateCallbacks: true });
    try {
      const res = await sendSms({ to: phone(), body: 'x' });
      const send = await waitForSend(
        rt.services.db,
        res.json().result.id,
        (s) => s.providerMessageId !== null,
      );
      await sim.waitFor(
        () => sim.callbacks.filter((c) => c.params.MessageSid === send.providerMessageId).length === 4,
      );
      const final = await waitForSend(rt.services.db, send.id, (s) => s.status === 'delivered');
      expect(final.status).toBe('delivered');
      const late = await twilioPost('/api/sms/webhook/status/', {
        MessageSid: send.providerMessageId!,
        MessageStatus: 'sent',
        AccountSid: A.account_sid,
        From: A.from_number,
        To: send.recipient,
      });
      expect(late.status).toBe(204);
      expect((await waitForSend(rt.services.db, send.id, () => true)).status).toBe('delivered');
      const log = (await call('GET', `/api/sms/events/${send.id}/`)).json().result;
      // Each Twilio status once, in the order of the statuses, not of their arrival.
      expect(log.events.map((e: { provider_status: string | null }) => e.provider_status)).toEqual([
        null,
        'sent',
        'delivered',
      ]);
    } finally {
      sim.set({ outOfOrder: false, duplicateCallbacks: false });
    }
  });
});

describe('inbound texts', () => {
  it('STOP unsubscribes the number (sends are suppressed, Twilio not called); START resubscribes it', async () => {
    const number = phone();
    const id = await customer(business, 'Stopper', number);
    const stop = await sim.sendInbound({ from: number, to: A.from_number, body: 'Stop' });
    expect(stop.answer).toBe(200);
    expect(stop.body).toContain('<Response></Response>');
    expect(await findSuppression(rt.services.db, business.id, 'sms', number)).toMatchObject({
      reason: 'unsubscribed',
    });
    // The customer's consent follows (the consent module keeps both in step).
    const consent = async () =>
      (await call('GET', `/api/business/customer-directory/${id}/`)).json().result.sms_status as string;
    expect(await consent()).toBe('unsubscribed');
    const calls = sim.requests.length;
    const suppressed = await sendSms({ customer_id: id, body: 'Sale!' });
    expect(suppressed.json().result).toMatchObject({ status: 'suppressed' });
    expect(suppressed.json().result.error_message).toMatch(/suppression list/);
    expect(sim.requests.length).toBe(calls);
    // Another business's suppression list is its own.
    expect(await findSuppression(rt.services.db, other.business.id, 'sms', number)).toBeNull();

    await sim.sendInbound({ from: number, to: A.from_number, body: 'START' });
    expect(await findSuppression(rt.services.db, business.id, 'sms', number)).toBeNull();
    expect(await consent()).toBe('subscribed');
    const again = await sendSms({ customer_id: id, body: 'Welcome back' });
    await waitForSend(rt.services.db, again.json().result.id, (s) => s.status === 'delivered');

    const inbound = (await call('GET', `/api/sms/inbound/?customer_id=${id}`)).json().result;
    expect(inbound.results.map((m: { body: string; keyword: string | null }) => [m.body, m.keyword])).toEqual(
      [
        ['START', 'start'],
        ['Stop', 'stop'],
      ],
    );
  });

  it('double opt-in by SMS: joining a list asks "reply YES"; the customer stays pending, is not texted by a campaign, and YES through the webhook confirms with the proof', async () => {
    const number = phone();
    const id = await customer(business, 'Yasmin', number);
    const list = (
      await call('POST', '/api/business/customer-lists/', { name: 'Texts club', double_opt_in: true })
    ).json().result.id as number;
    const added = await call('POST', `/api/business/customer-lists/${list}/members/`, { customer_ids: [id] });
    expect(added.json().result).toMatchObject({ added: 1 });
    const consent = async () =>
      (await call('GET', `/api/business/customer-directory/${id}/`)).json().result.sms_status as string;
    expect(await consent()).toBe('pending');
    // The ask went out through Twilio as a text of the business's number.
    const ask = await (async () => {
      for (let i = 0; i < 100; i++) {
        const m = sim.messages.find((x) => x.direction === 'outbound-api' && x.to === number);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no ask texted');
    })();
    expect(ask.from).toBe(A.from_number);
    expect(ask.body).toMatch(/Reply YES/i);
    expect(ask.body).toContain('Acme');

    // A send to the list passes over the pending customer.
    const before = sim.messages.filter((x) => x.to === number).length;
    const batch = await call('POST', '/api/agents/send-sms/', { list_id: list, body: 'Members sale!' });
    expect(batch.statusCode, batch.body).toBe(202);
    const batchId = batch.json().result.batch_id as string;
    await expect
      .poll(async () => (await call('GET', `/api/agents/send-sms/${batchId}/`)).json().result, {
        timeout: 20_000,
      })
      .toMatchObject({ pending: 0, done: true });
    const broadcast = (await call('GET', `/api/broadcasts/${batchId}/`)).json().result;
    expect(broadcast.skipped_reasons).toMatchObject({ [CONSENT_SKIP_REASONS.pending]: 1 });
    expect(sim.messages.filter((x) => x.to === number)).toHaveLength(before);

    // YES, signed by Twilio, confirms: subscribed, the reply kept as the proof of the ask's reference.
    const yes = await sim.sendInbound({ from: number, to: A.from_number, body: 'Yes' });
    expect(yes.answer).toBe(200);
    expect(await consent()).toBe('subscribed');
    const events = await rt.database.query<{ method: string; source: string; reference: string | null }>(
      `select method, source, reference from consent_events where customer_id = $1 and channel = 'sms' order by id`,
      [id],
    );
    expect(events.map((e) => e.method)).toEqual(['confirmation_sent', 'double_opt_in']);
    expect(events[1]).toMatchObject({ source: 'sms_reply', reference: events[0]!.reference });
    // A second YES is an ordinary START: nothing confirmed twice.
    await sim.sendInbound({ from: number, to: A.from_number, body: 'YES' });
    const again = await rt.database.query<{ n: string }>(
      `select count(*) as n from consent_events where customer_id = $1 and method = 'double_opt_in'`,
      [id],
    );
    expect(Number(again[0]!.n)).toBe(1);
  });

  it('STOP from a number typed with brackets and spaces unsubscribes that customer, creating no other', async () => {
    const id = await customer(business, 'Typed', '+1 (201) 555-0123');
    const customers = async () =>
      (
        await rt.database.query<{ n: number }>(
          'select count(*)::int as n from customers where business_id = $1',
          [business.id],
        )
      )[0]!.n;
    const before = await customers();
    const stop = await sim.sendInbound({ from: '+12015550123', to: A.from_number, body: 'STOP' });
    expect(stop.answer).toBe(200);
    expect(await customers()).toBe(before);
    const found = (await call('GET', `/api/business/customer-directory/${id}/`)).json().result;
    expect(found).toMatchObject({ phone: '+12015550123', sms_status: 'unsubscribed' });
    const inbound = (await call('GET', `/api/sms/inbound/?customer_id=${id}`)).json().result;
    expect(inbound.results.map((m: { body: string }) => m.body)).toEqual(['STOP']);
  });

  it('keeps other texts on the customer’s record (a new number becomes a customer), once per message', async () => {
    const number = phone();
    const sent = await sim.sendInbound({
      from: number,
      to: A.from_number,
      body: 'Is the shop open on Sunday?',
    });
    expect(sent.answer).toBe(200);
    const inbound = (await call('GET', '/api/sms/inbound/')).json().result;
    const text = inbound.results.find((m: { from: string }) => m.from === number);
    expect(text).toMatchObject({ body: 'Is the shop open on Sunday?', keyword: null, to: A.from_number });
    const found = (await call('GET', `/api/business/customer-directory/${text.customer_id}/`)).json().result;
    expect(found.phone).toBe(number);
    // Twilio retrying the same message keeps it once.
    const params = {
      MessageSid: sim.messages.find((m) => m.from === number)!.sid,
      AccountSid: A.account_sid,
      From: number,
      To: A.from_number,
      Body: 'Is the shop open on Sunday?',
    };
    expect((await twilioPost('/api/sms/webhook/inbound/', params)).status).toBe(200);
    const [rows] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from sms_inbound_messages where from_number = $1',
      [number],
    );
    expect(rows!.n).toBe(1);
    // Not another business's to read, nor to post with a bad signature.
    const theirs = (
      await call('GET', `/api/sms/inbound/?customer_id=${text.customer_id}`, undefined, other)
    ).json();
    expect(theirs.result.count).toBe(0);
    expect(
      (
        await twilioPost(
          '/api/sms/webhook/inbound/',
          { ...params, MessageSid: `SM${'9'.repeat(32)}` },
          B.auth_token,
        )
      ).status,
    ).toBe(403);
    // An agent reads texts as they read the directory: not those of a customer they may not see
    // (the text opened an SMS conversation; in a chat group the agent is not in, it hides them).
    const group = (
      await call('POST', '/api/msg/chat-groups/', { name: 'Billing', slug: 'billing-sms' })
    ).json().result as { id: number };
    await rt.database.query(
      `update conversations set assigned_chat_group_id = $1 where business_id = $2 and initiator_id = $3`,
      [group.id, business.id, text.customer_id],
    );
    const agent = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
    const asAgent = { owner: agent, business };
    expect((await call('GET', '/api/sms/inbound/', undefined, asAgent)).json().result.count).toBe(0);
    expect(
      (await call('GET', `/api/sms/inbound/?customer_id=${text.customer_id}`, undefined, asAgent)).statusCode,
    ).toBe(404);
  });

  it('takes Twilio’s 21610 (replied STOP at Twilio) as an unsubscribe', async () => {
    const res = await sendSms({ to: '+15005550004', body: 'x' });
    const send = await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'failed');
    expect(send.errorCode).toBe('21610');
    // Recorded just after the failure (the job fails the send, then opts the number out).
    await expect
      .poll(() => findSuppression(rt.services.db, business.id, 'sms', '+15005550004'))
      .toMatchObject({ reason: 'unsubscribed' });
  });
});

describe('bulk and idempotency', () => {
  it('sends to a list through the spine (customers without a phone skipped), counted in sms_count', async () => {
    const before = (await call('GET', '/api/business/')).json().result.sms_count as number;
    const ids = [
      await customer(business, 'One', phone()),
      await customer(business, 'Two', phone()),
      await customer(business, 'No phone'),
    ];
    for (const id of ids) await setCustomerConsent(rt.services.db, business.id, id, { sms: 'subscribed' });
    const list = (await call('POST', '/api/business/customer-lists/', { name: 'Texts' })).json().result;
    await call('POST', `/api/business/customer-lists/${list.id}/members/`, { customer_ids: ids });
    const res = await sendSms({ list_id: list.id, body: 'Flash sale today' });
    expect(res.statusCode).toBe(202);
    const batch = res.json().result;
    await expect
      .poll(async () => (await call('GET', `/api/agents/send-sms/${batch.batch_id}/`)).json().result, {
        timeout: 20_000,
      })
      .toMatchObject({ total: 3, pending: 0, done: true, statuses: { delivered: 2 } });
    const broadcast = (await call('GET', `/api/broadcasts/${batch.batch_id}/`)).json().result;
    expect(broadcast.skipped_reasons).toMatchObject({ 'no phone number': 1 });
    expect((await call('GET', '/api/business/')).json().result.sms_count).toBe(before + 2);
    expect((await call('GET', `/api/agents/send-sms/${batch.batch_id}/`, undefined, other)).statusCode).toBe(
      404,
    );
    expect((await sendSms({ list_id: list.id, body: 'x' }, other)).statusCode).toBe(404);
  });

  it('texts a list’s subscribed customers only, unless the send asks for legitimate interest; never the unsubscribed', async () => {
    const [s, u, o] = [phone(), phone(), phone()];
    const subscribed = await customer(business, 'Subscribed', s);
    await setCustomerConsent(rt.services.db, business.id, subscribed, { sms: 'subscribed' });
    const unknown = await customer(business, 'Unknown', u);
    const out = await customer(business, 'Unsubscribed', o);
    await setCustomerConsent(rt.services.db, business.id, out, { sms: 'unsubscribed' });
    const list = (await call('POST', '/api/business/customer-lists/', { name: 'Consent texts' })).json()
      .result;
    await call('POST', `/api/business/customer-lists/${list.id}/members/`, {
      customer_ids: [subscribed, unknown, out],
    });
    const sendsTo = async (payload: Record<string, unknown>) => {
      const res = await sendSms({ list_id: list.id, body: 'Flash sale', ...payload });
      expect(res.statusCode, res.body).toBe(202);
      const id = res.json().result.batch_id as string;
      await expect
        .poll(async () => (await call('GET', `/api/agents/send-sms/${id}/`)).json().result, {
          timeout: 20_000,
        })
        .toMatchObject({ pending: 0, done: true });
      const rows = await rt.database.query<{ recipient: string; status: string }>(
        `select recipient, status from sends where cause_id = $1`,
        [id],
      );
      const broadcast = (await call('GET', `/api/broadcasts/${id}/`)).json().result;
      return {
        skipped: broadcast.skipped_reasons as Record<string, number>,
        reached: rows
          .filter((r) => r.status !== 'suppressed')
          .map((r) => r.recipient)
          .sort(),
        suppressed: rows.filter((r) => r.status === 'suppressed').map((r) => r.recipient),
      };
    };
    const strict = await sendsTo({});
    expect(strict.reached).toEqual([s]);
    expect(strict.suppressed).toEqual([o]);
    expect(strict.skipped).toMatchObject({ [CONSENT_SKIP_REASONS.notSubscribed]: 1 });
    const wider = await sendsTo({ consent: 'legitimate_interest' });
    expect(wider.reached).toEqual([s, u].sort());
    expect(wider.suppressed).toEqual([o]);
    expect((await sendSms({ to: u, body: 'x', consent: 'subscribed' })).statusCode).toBe(400);
  });

  it('sends once per idempotency key', async () => {
    const to = phone();
    const first = await sendSms({ to, body: 'Once', idempotency_key: `k-${to}` });
    const second = await sendSms({ to, body: 'Once', idempotency_key: `k-${to}` });
    expect(second.json().result.id).toBe(first.json().result.id);
    await waitForSend(rt.services.db, first.json().result.id, (s) => s.status === 'delivered');
    expect(sim.requests.filter((r) => r.form.To === to)).toHaveLength(1);
  });

  it('calls Twilio with an API key pair when one is saved', async () => {
    const saved = await call('PUT', '/api/sms/account/', {
      ...A,
      api_key_sid: KEY.sid,
      api_key_secret: KEY.secret,
    });
    expect(saved.json().result).toMatchObject({ api_key_sid: KEY.sid, has_api_key_secret: true });
    try {
      const to = phone();
      const res = await sendSms({ to, body: 'Keyed' });
      await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'delivered');
      const request = sim.requests.find((r) => r.form.To === to)!;
      expect(request.authorization).toBe(
        `Basic ${Buffer.from(`${KEY.sid}:${KEY.secret}`).toString('base64')}`,
      );
    } finally {
      await call('PUT', '/api/sms/account/', { ...A, api_key_sid: null });
    }
  });
});

it('downloads the SMS log as CSV with its own columns, filtered, and only this business’s', async () => {
  const to = phone();
  const res = await sendSms({ to, body: 'For the CSV' });
  await waitForSend(rt.services.db, res.json().result.id, (s) => s.status === 'delivered');
  const csv = await call(
    'GET',
    `/api/sms/events/download/?status=delivered&search=${encodeURIComponent(to)}`,
  );
  expect(csv.statusCode).toBe(200);
  expect(csv.headers['content-type']).toContain('text/csv');
  const [header, row, ...rest] = csv.body.trim().split('\r\n');
  expect(header).toBe(
    'tracking_id,created_at,updated_at,to,template_name,status,segments,encoding,price,price_unit,error_code,error_message,message_sid,sent_by',
  );
  expect(rest).toEqual([]);
  // A leading + is quoted as text (no spreadsheet formula), as every log CSV does.
  expect(row).toContain(`,'${to},,delivered,1,GSM-7,,,,,SM`);
  const theirs = await call(
    'GET',
    `/api/sms/events/download/?search=${encodeURIComponent(to)}`,
    undefined,
    other,
  );
  expect(theirs.body.trim().split('\r\n')).toHaveLength(1);
  expect((await call('GET', `/api/sms/events/${res.json().result.id}/`, undefined, other)).statusCode).toBe(
    404,
  );
});

it('has the SMS indexes of migration 0030 (one event per Twilio status, the unpriced texts)', async () => {
  const rows = await rt.services.db.execute(
    sql`select indexname from pg_indexes where indexname in ('send_events_sms_status_key', 'sends_sms_unpriced_idx')`,
  );
  expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(2);
});
