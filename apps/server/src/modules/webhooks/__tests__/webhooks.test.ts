// Outbound webhooks: endpoints (secret once, SSRF rules, field errors), events recorded with the
// change and delivered signed (verified with the Standard Webhooks reference library), retries
// while the receiver is down and then exactly one delivery each, nothing lost when a worker dies
// after the commit, two workers never sending one delivery twice, one business's events never
// reaching another's endpoints, replay, test sends, and turning off after sustained failure.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { TBusiness, TWebhookDelivery, TWebhookEndpointWithSecret } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { recordEvent, runDeliveryPass, type WebhookDeps } from '..';
import { claimDue } from '../webhooks.repository';

type Received = { headers: IncomingHttpHeaders; body: string };

/** A local receiver: answers `status` (503 while "down"), keeps what it received. */
class Receiver {
  received: Received[] = [];
  status = 200;
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (this.status < 300) this.received.push({ headers: req.headers, body });
        res
          .writeHead(this.status, { 'content-type': 'text/plain' })
          .end(this.status < 300 ? 'thanks' : 'down');
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://localhost:${(this.server.address() as AddressInfo).port}/hook`;
  }
  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
  bodies() {
    return this.received.map(
      (r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> },
    );
  }
}

let rt: TestRuntime;
let app: FastifyInstance;
let deps: WebhookDeps;
let owner: Session;
let business: TBusiness;
let otherOwner: Session;
let other: TBusiness;
const receiver = new Receiver();
const otherReceiver = new Receiver();

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  deps = rt.services.webhooks;
  // Fast retries for the test; the production schedule is exercised by nextAttemptAt's own test.
  Object.assign(deps, { firstRetryDelayMs: 20, maxRetryDelayMs: 50, leaseMs: 60_000 });
  owner = await signUp(app, rt.mailer, { firstName: 'Wendy' });
  business = await createBusiness(app, owner, 'Hooked');
  otherOwner = await signUp(app, rt.mailer, { firstName: 'Otto' });
  other = await createBusiness(app, otherOwner, 'Elsewhere');
  await receiver.start();
  await otherReceiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await otherReceiver.stop();
  await rt.destroy();
});
beforeEach(() => {
  receiver.received = [];
  otherReceiver.received = [];
  receiver.status = 200;
});

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  who = owner,
  biz = business,
) {
  return app.inject({
    method,
    url,
    headers: as(who, biz),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function createEndpoint(eventTypes: string[], url = receiver.url, who = owner, biz = business) {
  const res = await call(
    'POST',
    '/api/webhooks/endpoints/',
    { url, event_types: eventTypes, description: 'CRM' },
    who,
    biz,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result as TWebhookEndpointWithSecret;
}

/** Runs delivery passes until nothing is due (retries included) or the time is up. */
async function drain(untilFn: () => boolean = () => false, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const n = await runDeliveryPass(deps);
    if (untilFn()) return;
    if (n === 0) await new Promise((r) => setTimeout(r, 30));
  }
}

async function deleteAllEndpoints() {
  for (const who of [
    [owner, business],
    [otherOwner, other],
  ] as const) {
    const list = (await call('GET', '/api/webhooks/endpoints/', undefined, who[0], who[1])).json().result as {
      id: number;
    }[];
    for (const e of list) await call('DELETE', `/api/webhooks/endpoints/${e.id}/`, undefined, who[0], who[1]);
  }
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown once, lists it without, rotates it with the URL, deletes it', async () => {
    const created = await createEndpoint(['customer.created', 'conversation.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({
      url: receiver.url,
      event_types: ['customer.created', 'conversation.created'],
      enabled: true,
    });
    const list = (await call('GET', '/api/webhooks/endpoints/')).json().result;
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(created.secret!);

    const same = (
      await call('PUT', `/api/webhooks/endpoints/${created.id}/`, { description: 'Still CRM' })
    ).json().result;
    expect(same.secret).toBeNull();
    const moved = await call('PUT', `/api/webhooks/endpoints/${created.id}/`, { url: `${receiver.url}?v=2` });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().result.secret).toMatch(/^whsec_/);
    expect(moved.json().result.secret).not.toBe(created.secret);

    expect((await call('DELETE', `/api/webhooks/endpoints/${created.id}/`)).statusCode).toBe(200);
    expect((await call('GET', '/api/webhooks/endpoints/')).json().result).toEqual([]);
  });

  it('answers 400 with field messages for bad input and refused URLs', async () => {
    const bad = await call('POST', '/api/webhooks/endpoints/', {
      url: 'http://example.com/hook',
      event_types: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.event_types[0]).toBe('Choose at least one event type.');
    const http = await call('POST', '/api/webhooks/endpoints/', {
      url: 'http://example.com/hook',
      event_types: ['customer.created'],
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().result.url[0]).toContain('https://');
    const unknown = await call('POST', '/api/webhooks/endpoints/', {
      url: receiver.url,
      event_types: ['customer.exploded'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().result).toHaveProperty('event_types.0');
    const twice = await call('POST', '/api/webhooks/endpoints/', {
      url: receiver.url,
      event_types: ['customer.created', 'customer.created'],
    });
    expect(twice.statusCode).toBe(400);
    const junk = await call('POST', '/api/webhooks/endpoints/', {
      url: 'not a url',
      event_types: ['customer.created'],
    });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().result).toHaveProperty('url');
    const query = await call('GET', '/api/webhooks/endpoints/?surprise=1');
    expect(query.statusCode).toBe(400);
  });

  it("keeps other businesses' endpoints and deliveries out of reach (404)", async () => {
    const mine = await createEndpoint(['customer.created']);
    for (const [method, url] of [
      ['PUT', `/api/webhooks/endpoints/${mine.id}/`],
      ['DELETE', `/api/webhooks/endpoints/${mine.id}/`],
      ['GET', `/api/webhooks/endpoints/${mine.id}/deliveries/`],
      ['POST', `/api/webhooks/endpoints/${mine.id}/replay-failed/`],
      ['POST', `/api/webhooks/endpoints/${mine.id}/test/`],
    ] as const) {
      const res = await call(
        method,
        url,
        method === 'PUT' ? { description: 'x' } : undefined,
        otherOwner,
        other,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    await deleteAllEndpoints();
  });
});

describe('webhook deliveries', () => {
  it('delivers API changes signed per Standard Webhooks, verified with the reference library', async () => {
    const endpoint = await createEndpoint([
      'customer.created',
      'customer.updated',
      'customer.erased',
      'conversation.created',
      'conversation.updated',
      'conversation.resolved',
      'message.created',
    ]);
    // A customer updated and erased through the API; a conversation opened, replied to and resolved.
    const { insertCustomer } = await import('../../directory');
    const { startConversation } = await import('../../conversations/conversations.service');
    const customer = await rt.database.db.transaction((tx) =>
      insertCustomer(tx, { businessId: business.id, name: 'Cleo', email: 'cleo@example.com' }),
    );
    expect(
      (await call('PUT', `/api/business/customer-directory/${customer.id}/`, { name: 'Cleo B' })).statusCode,
    ).toBe(200);
    const conversation = await startConversation(rt.database.db, {
      businessId: business.id,
      channel: 'titan_message',
      initiatorId: customer.id,
      title: 'Cleo',
    });
    const reply = await call('POST', `/api/msg/conversations/${conversation.id}/messages/`, {
      message_type: 'text',
      content: 'Hello Cleo',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(
      (await call('PUT', `/api/msg/conversations/${conversation.id}/`, { status: 'resolved' })).statusCode,
    ).toBe(200);
    expect(
      (await call('DELETE', `/api/business/customer-directory/${customer.id}/`)).statusCode,
    ).toBeLessThan(300);

    await drain(() => receiver.received.length >= 7);
    // In order per object (one batch posts different objects at once).
    const typesOf = (prefix: string) =>
      receiver
        .bodies()
        .map((b) => b.type)
        .filter((t) => t.startsWith(prefix) || (prefix === 'conversation' && t === 'message.created'));
    expect(typesOf('customer')).toEqual(['customer.created', 'customer.updated', 'customer.erased']);
    expect(typesOf('conversation')).toEqual([
      'conversation.created',
      'message.created',
      'conversation.updated',
      'conversation.resolved',
    ]);
    const wh = new Webhook(endpoint.secret!);
    for (const r of receiver.received) {
      const verified = wh.verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        data: unknown;
      };
      expect(verified.type).toBeTruthy();
      expect(r.headers['webhook-signature']).toMatch(/^v1,/);
    }
    const created = receiver.bodies()[0]!;
    expect(created.data).toMatchObject({ id: customer.id, name: 'Cleo', email: 'cleo@example.com' });
    expect(Date.parse(created.timestamp)).not.toBeNaN();
    const resolved = receiver.bodies().find((b) => b.type === 'conversation.resolved')!;
    expect(resolved.data).toMatchObject({
      id: conversation.id,
      status: 'resolved',
      channel: 'titan_message',
    });
    // A wrong secret fails verification.
    expect(() =>
      new Webhook('whsec_' + Buffer.from('x'.repeat(24)).toString('base64')).verify(
        receiver.received[0]!.body,
        receiver.received[0]!.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = (await call('GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries/?page_size=50`)).json()
      .result;
    expect(log.count).toBe(7);
    expect(log.results[0]).toMatchObject({
      status: 'delivered',
      response_status: 200,
      response_body: 'thanks',
      attempts: 1,
    });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toContain(log.results[0].event_id);
    await deleteAllEndpoints();
  });

  it("tells each change of a send's status once, in order, and nothing of sends of a business not listening", async () => {
    const endpoint = await createEndpoint(['send.status_changed']);
    const sends = await import('../../sends');
    const db = rt.database.db;
    const queue = (biz: TBusiness, channel: 'email' | 'sms', recipient: string) =>
      db.transaction((tx) =>
        sends.createQueued(tx, {
          businessId: biz.id,
          channel,
          cause: 'template_send',
          causeId: 'tpl-1',
          recipient,
          providerRequest: {},
        }),
      );
    // An email: accepted by the mail server, then opened twice (told once), then clicked.
    const mail = await queue(business, 'email', 'cleo@example.com');
    expect(await sends.claim(db, mail.id)).not.toBeNull();
    await db.transaction((tx) =>
      sends.recordAccepted(tx, mail, { ok: true, providerMessageId: '<m1@hooked>', response: {} }),
    );
    await sends.recordSendEvent(db, { sendId: mail.id, type: 'opened' });
    await sends.recordSendEvent(db, { sendId: mail.id, type: 'opened' });
    await sends.recordSendEvents(
      db,
      [
        {
          sendId: mail.id,
          type: 'clicked',
          occurredAt: new Date(Date.now() + 60_000),
          payload: {},
          raise: true,
        },
      ],
      { machineWindowMs: 0 },
    );
    // A text Twilio reports delivered; one that never reached Twilio fails.
    const text = await queue(business, 'sms', '+15550100');
    await sends.claim(db, text.id);
    await db.transaction((tx) =>
      sends.recordAccepted(tx, text, { ok: true, providerMessageId: 'SM1', response: {} }),
    );
    await db.transaction((tx) =>
      sends.applyEvents(tx, 'sms', [
        {
          businessId: business.id,
          providerMessageId: 'SM1',
          type: 'delivered',
          timestamp: null,
          payload: {},
        },
      ]),
    );
    const refused = await queue(business, 'sms', '+15550101');
    await sends.claim(db, refused.id);
    await sends.recordFailed(db, refused.id, { errorCode: '21211', errorMessage: 'Invalid To number' });
    // Another business's send, with nobody listening there.
    const elsewhere = await queue(other, 'email', 'otto@example.com');
    await sends.claim(db, elsewhere.id);
    await db.transaction((tx) =>
      sends.recordAccepted(tx, elsewhere, { ok: true, providerMessageId: '<m2@else>', response: {} }),
    );

    await drain(() => receiver.received.length >= 6);
    await drain(() => false, 300);
    const told = receiver.bodies().map((b) => b.data as Record<string, unknown>);
    const of = (id: string) => told.filter((d) => d.send_id === id).map((d) => d.status);
    expect(of(mail.id)).toEqual(['sent', 'opened', 'clicked']);
    expect(of(text.id)).toEqual(['accepted', 'delivered']);
    expect(of(refused.id)).toEqual(['failed']);
    expect(of(elsewhere.id)).toEqual([]);
    expect(otherReceiver.received).toEqual([]);
    expect(told.find((d) => d.send_id === refused.id)).toMatchObject({
      channel: 'sms',
      cause: 'template_send',
      cause_id: 'tpl-1',
      error_code: '21211',
      error_message: 'Invalid To number',
    });
    expect(receiver.bodies().every((b) => b.type === 'send.status_changed')).toBe(true);
    const wh = new Webhook(endpoint.secret!);
    for (const r of receiver.received)
      expect(() => wh.verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    await deleteAllEndpoints();
  });

  it('tells of a QR form submission with what the visitor gave', async () => {
    await createEndpoint(['form.submitted']);
    const saved = await call('PUT', '/api/business/qr-schema/', {
      title: 'Join us',
      fields: [
        { name: 'name', label: 'Your name', type: 'text', required: true },
        { name: 'email', label: 'Email', type: 'email', required: false },
        { name: 'store', label: 'Store', type: 'select', required: false, options: ['North', 'South'] },
      ],
      consent: { email: true, sms: false, whatsapp: false },
      slug: 'join',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const submitted = await app.inject({
      method: 'POST',
      url: `/api/public/qr-forms/${business.unique_code}/join/`,
      payload: {
        fields: { name: 'Pia', email: 'pia@example.com', store: 'North' },
        consent: { email: true },
      },
      remoteAddress: '198.51.100.77',
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    await drain(() => receiver.received.length >= 1);
    const [told] = receiver.bodies();
    expect(told).toMatchObject({
      type: 'form.submitted',
      data: {
        form_slug: 'join',
        customer_created: true,
        name: 'Pia',
        email: 'pia@example.com',
        fields: { store: 'North' },
        consent: { email: true },
        confirmation_needed: false,
      },
    });
    expect(typeof told!.data.customer_id).toBe('number');
    await deleteAllEndpoints();
  });

  it('writes nothing when the change rolls back', async () => {
    await createEndpoint(['customer.created']);
    await expect(
      rt.database.db.transaction(async (tx) => {
        await recordEvent(tx, { businessId: business.id, type: 'customer.created', data: { id: 1 } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await drain(() => false, 300);
    expect(receiver.received).toHaveLength(0);
    await deleteAllEndpoints();
  });

  it('retries while the receiver is down, then delivers each event once, in order per object', async () => {
    const endpoint = await createEndpoint(['form.submitted', 'conversation.updated']);
    receiver.status = 503;
    await rt.database.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await recordEvent(tx, {
          businessId: business.id,
          type: 'conversation.updated',
          objectKey: 'conversation:9',
          data: { seq: i },
        });
      for (let i = 0; i < 5; i++)
        await recordEvent(tx, { businessId: business.id, type: 'form.submitted', data: { n: i } });
    });
    await drain(() => false, 700);
    expect(receiver.received).toHaveLength(0);
    const failing = (
      await call('GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries/?status=pending`)
    ).json().result;
    expect(failing.results.some((d: TWebhookDelivery) => d.attempts > 1 && d.response_status === 503)).toBe(
      true,
    );
    receiver.status = 200;
    await drain(() => receiver.received.length >= 10);
    await drain(() => false, 300);
    const bodies = receiver.bodies();
    expect(bodies).toHaveLength(10);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(10);
    expect(bodies.filter((b) => b.type === 'conversation.updated').map((b) => b.data.seq)).toEqual([
      0, 1, 2, 3, 4,
    ]);
    await deleteAllEndpoints();
  });

  it('loses nothing when the worker dies after the commit, and two workers deliver each once', async () => {
    await createEndpoint(['form.submitted']);
    await rt.database.db.transaction((tx) =>
      recordEvent(
        tx,
        ...Array.from({ length: 3 }, (_, i) => ({
          businessId: business.id,
          type: 'form.submitted' as const,
          data: { n: i },
        })),
      ),
    );
    // A worker claims the batch and dies before posting: its lease runs out, then another delivers.
    const died = await claimDue(rt.database.db, 100, new Date(Date.now() + 300));
    expect(died).toHaveLength(3);
    expect(await runDeliveryPass(deps)).toBe(0);
    await new Promise((r) => setTimeout(r, 350));
    await drain(() => receiver.received.length >= 3);
    expect(
      receiver
        .bodies()
        .map((b) => b.data.n)
        .sort(),
    ).toEqual([0, 1, 2]);

    receiver.received = [];
    await rt.database.db.transaction((tx) =>
      recordEvent(
        tx,
        ...Array.from({ length: 40 }, (_, i) => ({
          businessId: business.id,
          type: 'form.submitted' as const,
          data: { n: i },
        })),
      ),
    );
    const small = { ...deps, batchSize: 7 };
    await Promise.all([
      drain(() => receiver.received.length >= 40),
      (async () => {
        for (let i = 0; i < 20; i++) await runDeliveryPass(small);
      })(),
    ]);
    await drain(() => false, 200);
    expect(receiver.received).toHaveLength(40);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(40);
    await deleteAllEndpoints();
  });

  it("never sends one business's events to another business's endpoints", async () => {
    await createEndpoint(['customer.created']);
    await createEndpoint(['customer.created'], otherReceiver.url, otherOwner, other);
    await rt.database.db.transaction((tx) =>
      recordEvent(tx, { businessId: business.id, type: 'customer.created', data: { id: 1, name: 'Mine' } }),
    );
    await drain(() => receiver.received.length >= 1);
    await drain(() => false, 200);
    expect(receiver.bodies().map((b) => b.data.name)).toEqual(['Mine']);
    expect(otherReceiver.received).toHaveLength(0);
    await deleteAllEndpoints();
  });

  it('replays one delivery and every failed one with the same webhook-id; test-send answers the response', async () => {
    const endpoint = await createEndpoint(['form.submitted']);
    const saved = { ...deps };
    Object.assign(deps, { retryWindowMs: 0 });
    receiver.status = 500;
    await rt.database.db.transaction((tx) =>
      recordEvent(
        tx,
        { businessId: business.id, type: 'form.submitted', data: { n: 1 } },
        { businessId: business.id, type: 'form.submitted', data: { n: 2 } },
      ),
    );
    await drain(() => false, 300);
    Object.assign(deps, { retryWindowMs: saved.retryWindowMs });
    const failed = (
      await call('GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries/?status=failed`)
    ).json().result;
    expect(failed.count).toBe(2);
    receiver.status = 200;
    const one = await call('POST', `/api/webhooks/endpoints/deliveries/${failed.results[0].id}/replay/`);
    expect(one.statusCode).toBe(200);
    expect(one.json().result.status).toBe('pending');
    await drain(() => receiver.received.length >= 1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(failed.results[0].event_id);
    const all = await call('POST', `/api/webhooks/endpoints/${endpoint.id}/replay-failed/`);
    expect(all.json().result).toEqual({ replayed: 1 });
    await drain(() => receiver.received.length >= 2);

    const test = await call('POST', `/api/webhooks/endpoints/${endpoint.id}/test/`);
    expect(test.statusCode).toBe(200);
    expect(test.json().result).toMatchObject({
      event_type: 'webhook.test',
      status: 'delivered',
      response_status: 200,
    });
    expect(
      new Webhook(endpoint.secret!).verify(
        receiver.received[2]!.body,
        receiver.received[2]!.headers as Record<string, string>,
      ),
    ).toMatchObject({ type: 'webhook.test' });
    await deleteAllEndpoints();
  });

  it('turns an endpoint off after sustained failure and mails the owners', async () => {
    const endpoint = await createEndpoint(['form.submitted']);
    Object.assign(deps, { disableAfterMs: 100 });
    receiver.status = 503;
    await rt.database.db.transaction((tx) =>
      recordEvent(tx, { businessId: business.id, type: 'form.submitted', data: {} }),
    );
    await drain(() => false, 600);
    Object.assign(deps, { disableAfterMs: 3 * 86_400_000 });
    const [row] = (await call('GET', '/api/webhooks/endpoints/')).json().result;
    expect(row).toMatchObject({ id: endpoint.id, enabled: false });
    expect(row.disabled_reason).toContain('Turned off');
    const mail = await rt.mailer.listOutbox(owner.email);
    expect(mail.some((m) => m.subject === 'A webhook endpoint was turned off')).toBe(true);
    await deleteAllEndpoints();
  });
});
