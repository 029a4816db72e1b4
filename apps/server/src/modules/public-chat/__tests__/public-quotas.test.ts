// Storage anyone can cause without an account: visitor uploads and browser analytics events are
// capped per business and day, and old ones (unsent chat files, old events) are deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TConversation } from '@titan/contracts';
import { createStorage } from '../../../platform/storage';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { createBusiness, signUp } from '../../../testing/identity';
import { ANALYTICS_ERRORS } from '../../analytics/analytics.service';
import { PUBLIC_CHAT_ERRORS } from '../public-chat.service';
import { prunePublicData } from '../public-retention';

let rt: TestRuntime;
let app: FastifyInstance;
let shop: TBusiness;
let other: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime({
    env: { VISITOR_UPLOADS_DAILY_MB: '1', VISITOR_UPLOADS_DAILY_FILES: '3', ANALYTICS_EVENTS_DAILY_MAX: '3' },
  });
  app = rt.app!;
  await app.ready();
  shop = await createBusiness(app, await signUp(app, rt.mailer), 'Quota Shop');
  other = await createBusiness(app, await signUp(app, rt.mailer), 'Quota Other');
});
afterAll(() => rt.destroy());

let address = 0;
const nextAddress = () => `10.8.${Math.floor(++address / 250)}.${address % 250}`;

/** A visitor of `business` with one conversation. */
async function chat(business: TBusiness) {
  const visitor = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: business.unique_code },
    remoteAddress: nextAddress(),
  });
  const { token } = visitor.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: {},
    remoteAddress: nextAddress(),
  });
  return { token, conversation: started.json().result as TConversation };
}

function upload(visitor: { token: string; conversation: TConversation }, bytes: number) {
  const boundary = 'quotaboundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="conversation_id"\r\n\r\n${visitor.conversation.id}\r\n`,
    ),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\n\r\n`),
    Buffer.alloc(bytes, 'a'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: '/api/public/upload/',
    headers: {
      authorization: `Visitor ${visitor.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
}

function report(headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/analytics/events/',
    headers,
    remoteAddress: nextAddress(),
    payload: { event: 'ERROR', properties: { message: 'boom' } },
  });
}

describe('visitor upload allowance', () => {
  it("caps a business's visitor uploads per day by bytes and by files, with a message visitors understand", async () => {
    const visitor = await chat(shop);
    expect((await upload(visitor, 600 * 1024)).statusCode).toBe(201);
    // A second visitor shares the business's allowance: 1.2 MB would pass 1 MB.
    const second = await chat(shop);
    const tooBig = await upload(second, 600 * 1024);
    expect(tooBig.statusCode).toBe(429);
    expect(tooBig.json()).toMatchObject({ status: 429, message: PUBLIC_CHAT_ERRORS.uploadQuota });
    const retryAfter = Number(tooBig.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    // The refused file counted nothing: two small ones still fit, the fourth file does not.
    expect((await upload(second, 10)).statusCode).toBe(201);
    expect((await upload(visitor, 10)).statusCode).toBe(201);
    const fourth = await upload(second, 10);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe(PUBLIC_CHAT_ERRORS.uploadQuota);
    const [stored] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from stored_files where business_id = $1`,
      [shop.id],
    );
    expect(stored!.n).toBe(3);
    // Another business has its own allowance.
    expect((await upload(await chat(other), 10)).statusCode).toBe(201);
  });
});

describe('analytics event allowance', () => {
  it('stores browser reports up to the daily allowance of the business they name, then answers 429', async () => {
    for (let i = 0; i < 3; i++) expect((await report()).statusCode).toBe(201);
    const refused = await report();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(ANALYTICS_ERRORS.dailyQuota);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Reports naming a business count against that business, and are stored with it.
    expect((await report({ 'x-business-code': shop.unique_code })).statusCode).toBe(201);
    const rows = await rt.database.query<{ business_id: string | number | null; n: number }>(
      `select business_id, count(*)::int as n from analytics_events where event = 'ERROR'
       group by business_id order by business_id nulls first`,
    );
    expect(rows.map((r) => [r.business_id === null ? null : Number(r.business_id), r.n])).toEqual([
      [null, 3],
      [shop.id, 1],
    ]);
  });
});

describe('retention', () => {
  it('deletes old analytics events and unsent chat files (bytes too), and keeps everything else', async () => {
    const storage = createStorage(rt.config);
    const db = rt.database;
    await db.query(
      `insert into analytics_events (event, properties, created_at) values
       ('ERROR', '{"message":"old"}', now() - interval '91 days'),
       ('ERROR', '{"message":"old too"}', now() - interval '200 days'),
       ('ERROR', '{"message":"recent"}', now() - interval '89 days')`,
    );
    // A business of its own: the allowance test used some of the others' files for today.
    const kept = await createBusiness(app, await signUp(app, rt.mailer), 'Retention Co');
    const visitor = await chat(kept);
    const keyOf = async () => (await upload(visitor, 20)).json().result.key as string;
    const sentKey = await keyOf();
    const unsentKey = await keyOf();
    const recentKey = await keyOf();
    const sent = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${visitor.conversation.id}/messages/`,
      headers: { authorization: `Visitor ${visitor.token}` },
      payload: { message_type: 'file', content: sentKey },
    });
    expect(sent.statusCode).toBe(201);
    await storage.put(`agent_images/${kept.id}/old/logo.txt`, Buffer.from('logo'), 'text/plain');
    await db.query(
      `insert into stored_files (key, business_id, file_name, mime_type, size) values ($1, $2, 'logo.txt', 'text/plain', 4)`,
      [`agent_images/${kept.id}/old/logo.txt`, kept.id],
    );
    await db.query(
      `update stored_files set created_at = now() - interval '31 days' where key = any($1::text[])`,
      [[sentKey, unsentKey, `agent_images/${kept.id}/old/logo.txt`]],
    );

    const result = await prunePublicData({ db: db.db, storage, config: rt.config }, { batchSize: 1 });
    expect(result).toMatchObject({ files: 1, storageFailures: [] });
    expect(result.events).toBeGreaterThanOrEqual(2);

    const messages = await db.query<{ message: string }>(
      `select properties->>'message' as message from analytics_events where created_at < now() - interval '30 days'`,
    );
    expect(messages.map((m) => m.message)).toEqual(['recent']);
    const keys = (await db.query<{ key: string }>(`select key from stored_files`)).map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining([sentKey, recentKey, `agent_images/${kept.id}/old/logo.txt`]),
    );
    expect(keys).not.toContain(unsentKey);
    expect(await storage.get(unsentKey)).toBeNull();
    expect(await storage.get(sentKey)).not.toBeNull();
    expect(await storage.get(recentKey)).not.toBeNull();
    // The sent file still opens for the visitor.
    const history = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${visitor.conversation.id}/messages/`,
      headers: { authorization: `Visitor ${visitor.token}` },
    });
    expect(history.json().result[0]).toMatchObject({ message_type: 'file' });
  });
});
