// Canned responses (issue 29, next-api.md "Team inbox"): manage them, search them, render one for a
// conversation with its Liquid variables filled, with an attachment; and the boundaries: two
// businesses, an agent's scope, duplicate short codes and bad Liquid with field messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CANNED_ERRORS, ZCannedResponse, ZEnvelope, ZRenderedCanned } from '@titan/contracts';
import type { TCannedResponse } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';

let rt: TestRuntime;
let app: FastifyInstance;
let base: string;
let s: ScopedBusiness;
let other: ScopedBusiness;
let inSupport: number, inSales: number;
let theirs: { canned: TCannedResponse; conversation: number; fileKey: string };

const conversationsOf = async (customerId: number) => {
  const rows = await rt.database.query<{ id: string }>(
    `select id from conversations where initiator_id = $1 order by id`,
    [customerId],
  );
  return rows.map((r) => Number(r.id));
};

const call = (who: Session, method: string, path: string, payload?: object, shop = s.shop) =>
  app.inject({ method: method as 'GET', url: path, headers: as(who, shop), ...(payload ? { payload } : {}) });

const create = async (payload: object, who = s.boss, shop = s.shop) => {
  const res = await call(who, 'POST', '/api/msg/canned-responses/', payload, shop);
  expect(res.statusCode, res.body).toBe(201);
  return ZEnvelope(ZCannedResponse.strict()).parse(res.json()).result;
};

async function upload(who: Session, shop: typeof s.shop, name: string) {
  const form = new FormData();
  form.append('prefix', 'chat_media');
  form.append('file', new Blob([Buffer.from('%PDF-1.4 price list')], { type: 'application/pdf' }), name);
  const res = await fetch(`${base}/api/upload/`, { method: 'POST', headers: as(who, shop), body: form });
  const body = (await res.json()) as { result: { key: string } };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.result.key;
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  s = await scopedBusiness(app, rt.mailer, 'Canned Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Canned Co');
  const vera = await s.visitor('Vera Lynn', ['support', 'sales'], { email: 'vera@example.com' });
  [inSupport, inSales] = (await conversationsOf(vera)) as [number, number];
  const olga = await other.visitor('Olga', [null]);
  theirs = {
    canned: await create({ short_code: 'hello', content: 'Hi from elsewhere' }, other.boss, other.shop),
    conversation: (await conversationsOf(olga))[0]!,
    fileKey: await upload(other.boss, other.shop, 'theirs.pdf'),
  };
});
afterAll(async () => {
  await rt.destroy();
});

describe('managing canned responses', () => {
  it('creates, lists by short code, searches, edits and removes them', async () => {
    const hello = await create({ short_code: 'Hello', content: 'Hi {{ customer.first_name }}!' });
    expect(hello).toMatchObject({ short_code: 'hello', attachment_id: null, attachment: null });
    await create({ short_code: 'refund', content: 'Your refund is on its way.' });
    await create({ short_code: 'shipping', content: 'Orders ship in 2 days; a refund takes 5.' });
    const all = await call(s.boss, 'GET', '/api/msg/canned-responses/');
    expect(all.json().result.map((c: TCannedResponse) => c.short_code)).toEqual([
      'hello',
      'refund',
      'shipping',
    ]);
    // A code starting with the search first, then a match in the text.
    const found = await call(s.boss, 'GET', '/api/msg/canned-responses/?search=REF');
    expect(found.json().result.map((c: TCannedResponse) => c.short_code)).toEqual(['refund', 'shipping']);
    const none = await call(s.boss, 'GET', '/api/msg/canned-responses/?search=%25');
    expect(none.json().result).toEqual([]);
    const edited = await call(s.boss, 'PUT', `/api/msg/canned-responses/${hello.id}/`, {
      content: 'Hello {{ customer.name }}, {{ agent.first_name }} here.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().result.content).toBe('Hello {{ customer.name }}, {{ agent.first_name }} here.');
    const temp = await create({ short_code: 'temp', content: 'x' });
    expect((await call(s.boss, 'DELETE', `/api/msg/canned-responses/${temp.id}/`)).statusCode).toBe(200);
    expect((await call(s.boss, 'DELETE', `/api/msg/canned-responses/${temp.id}/`)).statusCode).toBe(404);
  });

  it('refuses a duplicate short code, a bad one, bad Liquid and an unknown parameter with field messages', async () => {
    const dup = await call(s.boss, 'POST', '/api/msg/canned-responses/', {
      short_code: 'REFUND',
      content: 'x',
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result).toEqual({ short_code: [CANNED_ERRORS.shortCodeTaken] });
    const shipping = (await call(s.boss, 'GET', '/api/msg/canned-responses/?search=shipping')).json()
      .result[0] as TCannedResponse;
    const renamed = await call(s.boss, 'PUT', `/api/msg/canned-responses/${shipping.id}/`, {
      short_code: 'refund',
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().result).toEqual({ short_code: [CANNED_ERRORS.shortCodeTaken] });
    const spaced = await call(s.boss, 'POST', '/api/msg/canned-responses/', {
      short_code: 'a b',
      content: 'x',
    });
    expect(spaced.json().result).toEqual({ short_code: [CANNED_ERRORS.badShortCode] });
    const liquid = await call(s.boss, 'POST', '/api/msg/canned-responses/', {
      short_code: 'broken',
      content: 'Hi {{ customer.name ',
    });
    expect(liquid.statusCode).toBe(400);
    expect(liquid.json().result.content[0]).toMatch(/not closed|line/i);
    const file = await call(s.boss, 'POST', '/api/msg/canned-responses/', {
      short_code: 'inc',
      content: "{% include 'x' %}",
    });
    expect(file.statusCode).toBe(400);
    expect((await call(s.boss, 'GET', '/api/msg/canned-responses/?q=x')).statusCode).toBe(400);
    // A business's code is its own: another business may use it.
    expect(theirs.canned.short_code).toBe('hello');
  });

  it("answers 404 for another business's canned response and file, changing nothing", async () => {
    const id = theirs.canned.id;
    expect(
      (await call(s.boss, 'PUT', `/api/msg/canned-responses/${id}/`, { content: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await call(s.boss, 'DELETE', `/api/msg/canned-responses/${id}/`)).statusCode).toBe(404);
    const rendered = await call(s.boss, 'POST', `/api/msg/canned-responses/${id}/render/`, {
      conversation_id: inSupport,
    });
    expect(rendered.statusCode).toBe(404);
    const file = await call(s.boss, 'POST', '/api/msg/canned-responses/', {
      short_code: 'their-file',
      content: 'Attached',
      attachment_id: theirs.fileKey,
    });
    expect(file.statusCode).toBe(404);
    expect(file.json().result).toEqual({ attachment_id: [CANNED_ERRORS.unknownFile] });
    const listed = await call(s.boss, 'GET', '/api/msg/canned-responses/?search=their');
    expect(listed.json().result).toEqual([]);
    const still = await call(other.boss, 'GET', '/api/msg/canned-responses/', undefined, other.shop);
    expect(still.json().result).toEqual([theirs.canned]);
  });

  it('lets agents read and use them but not manage them', async () => {
    expect((await call(s.agent, 'GET', '/api/msg/canned-responses/')).statusCode).toBe(200);
    const made = await call(s.agent, 'POST', '/api/msg/canned-responses/', {
      short_code: 'mine',
      content: 'x',
    });
    expect(made.statusCode).toBe(403);
  });
});

describe('rendering for a conversation', () => {
  it('fills customer, agent and business, and answers the attachment', async () => {
    const key = await upload(s.boss, s.shop, 'prices.pdf');
    const prices = await create({
      short_code: 'prices',
      content:
        'Hi {{ customer.first_name }} ({{ customer.email }}), {{ agent.name }} of {{ business.name }} here.{% if customer.nickname %}!{% endif %}',
      attachment_id: key,
    });
    expect(prices.attachment).toMatchObject({ key, file_name: 'prices.pdf', mime_type: 'application/pdf' });
    const res = await call(s.boss, 'POST', `/api/msg/canned-responses/${prices.id}/render/`, {
      conversation_id: inSupport,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rendered = ZEnvelope(ZRenderedCanned.strict()).parse(res.json()).result;
    const boss = `${s.boss.user.first_name} ${s.boss.user.last_name}`.trim();
    expect(rendered.content).toBe(`Hi Vera (vera@example.com), ${boss} of Canned Co here.`);
    expect(rendered.attachment).toMatchObject({ key, file_name: 'prices.pdf', url: expect.any(String) });
    // The attachment removed.
    const cleared = await call(s.boss, 'PUT', `/api/msg/canned-responses/${prices.id}/`, {
      attachment_id: null,
    });
    expect(cleared.json().result).toMatchObject({ attachment_id: null, attachment: null });
  });

  it('renders for an agent on the conversations they see, and 404 naming conversation_id elsewhere', async () => {
    const hello = (await call(s.agent, 'GET', '/api/msg/canned-responses/?search=hello')).json()
      .result[0] as TCannedResponse;
    const own = await call(s.agent, 'POST', `/api/msg/canned-responses/${hello.id}/render/`, {
      conversation_id: inSupport,
    });
    expect(own.statusCode, own.body).toBe(200);
    const agent = `${s.agent.user.first_name} ${s.agent.user.last_name}`.trim().split(/\s+/)[0];
    expect(own.json().result.content).toBe(`Hello Vera Lynn, ${agent} here.`);
    for (const conversation_id of [inSales, theirs.conversation]) {
      const hidden = await call(s.agent, 'POST', `/api/msg/canned-responses/${hello.id}/render/`, {
        conversation_id,
      });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().result).toEqual({ conversation_id: [CANNED_ERRORS.noSuchConversation] });
    }
  });
});
