// Import progress over the realtime socket (topic `imports`): a business's staff hear each
// committed batch and the end, as GET …/imports/{id}/ answers it; another business hears nothing
// of it and may not subscribe to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness, TCustomerImport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { authenticated, type WsClient, type WsMessage } from '../../../testing/ws-client';
import { runImport } from '../customer-imports.service';

let rt: TestRuntime;
let url: string;
let owner: Session;
let business: TBusiness;
let rival: Session;
let rivalBusiness: TBusiness;
const clients: WsClient[] = [];

beforeAll(async () => {
  rt = await createTestRuntime();
  await rt.app!.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(rt.app!.server.address() as { port: number }).port}/api/realtime/`;
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Live Imports');
  rival = await signUp(rt.app!, rt.mailer);
  rivalBusiness = await createBusiness(rt.app!, rival, 'Rival Imports');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

async function socket(session: Session): Promise<WsClient> {
  const c = await authenticated(url, session.access);
  clients.push(c);
  return c;
}

async function subscribe(c: WsClient, id: string, request: Record<string, unknown>): Promise<WsMessage> {
  c.send({ type: 'subscribe', id, topic: 'imports', ...request });
  return c.next((m) => m.id === id && (m.type === 'subscribed' || m.type === 'error'));
}

async function upload(csv: string, who: { s: Session; b: TBusiness }): Promise<TCustomerImport> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
  const res = await rt.app!.inject({
    method: 'POST',
    url: '/api/business/customer-directory/import/',
    headers: as(who.s, who.b),
    payload: form,
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().result as TCustomerImport;
}

/** A CSV of `rows` people, every 100th without a usable email. */
function people(rows: number, prefix: string): string {
  const lines = ['name,email,plan'];
  for (let i = 1; i <= rows; i++)
    lines.push(`${prefix} ${i},${i % 100 === 0 ? 'not an email' : `${prefix}${i}@example.com`},pro`);
  return `${lines.join('\n')}\n`;
}

/** Every change of one subscription up to and including an import's end (with `id`, that one's). */
async function untilFinished(c: WsClient, sub: string, id?: string): Promise<TCustomerImport[]> {
  const seen: TCustomerImport[] = [];
  for (;;) {
    const m = await c.next((x) => x.type === 'change' && x.sub === sub);
    expect(m.table).toBe('customer_imports');
    const imp = m.new as TCustomerImport;
    seen.push(imp);
    if ((imp.status === 'done' || imp.status === 'failed') && (id === undefined || imp.id === id))
      return seen;
  }
}

describe('customer import progress over realtime', () => {
  it('pushes each committed batch and the end to the business’s staff, and nothing to another business', async () => {
    const mine = await socket(owner);
    const theirs = await socket(rival);
    expect(await subscribe(mine, 'all', { business_code: business.unique_code })).toMatchObject({
      type: 'subscribed',
    });
    expect(await subscribe(theirs, 'rival', { business_code: rivalBusiness.unique_code })).toMatchObject({
      type: 'subscribed',
    });

    const created = await upload(people(2_500, 'live'), { s: owner, b: business });
    // The one import only, subscribed after it was created.
    expect(
      await subscribe(mine, 'one', { business_code: business.unique_code, import_id: created.id }),
    ).toMatchObject({ type: 'subscribed' });
    await runImport(rt.services, created.id);

    const events = await untilFinished(mine, 'all');
    expect(events[0]).toMatchObject({ id: created.id, status: 'queued', processed_rows: 0 });
    // Progress only grows, batch by batch (the first 1,000 rows, then 2,000, 4,000…), to the whole file.
    const processed = events.map((e) => e.processed_rows);
    expect(processed).toEqual([...processed].sort((a, b) => a - b));
    // (Each event carries the row as it is when the event is sent: a batch committed meanwhile shows.)
    expect(processed.every((n) => n % 1_000 === 0 || n === 2_500)).toBe(true);
    expect(
      events.some((e) => e.status === 'running' && e.processed_rows > 0 && e.processed_rows < 2_500),
    ).toBe(true);
    const last = events.at(-1)!;
    const fetched = await rt.app!.inject({
      method: 'GET',
      url: `/api/business/customer-directory/imports/${created.id}/`,
      headers: as(owner, business),
    });
    // The last event is the import as GET answers it, its business id not included.
    expect(last).toEqual(fetched.json().result);
    expect(last).toMatchObject({ status: 'done', total_rows: 2_500, inserted: 2_475, failed: 25 });
    expect(last.errors_url).toBe(`/api/business/customer-directory/imports/${created.id}/errors/`);
    expect(Object.keys(last)).not.toContain('business_id');
    const one = await untilFinished(mine, 'one');
    expect(new Set(one.map((e) => e.id))).toEqual(new Set([created.id]));

    // The rival's own import reaches the rival's socket — and it is all that ever did.
    const own = await upload(people(3, 'rival'), { s: rival, b: rivalBusiness });
    await runImport(rt.services, own.id);
    const rivalEvents = await untilFinished(theirs, 'rival');
    expect(new Set(rivalEvents.map((e) => e.id))).toEqual(new Set([own.id]));
    expect(theirs.received.filter((m) => m.type === 'change')).toEqual([]);
    // …and the owner's socket never heard the rival's import.
    const other = await upload(people(2, 'after'), { s: owner, b: business });
    await runImport(rt.services, other.id);
    const after = await untilFinished(mine, 'all', other.id);
    expect(after.some((e) => e.id === own.id)).toBe(false);
    // An event sent after the first import ended shows it done (events carry the row as it is when
    // sent), so its last batch's event and its end may both read `done`: the one read first above
    // ended that wait, the other may come now. Nothing else does.
    expect(
      after.filter((e) => e.id !== other.id).every((e) => e.id === created.id && e.status === 'done'),
    ).toBe(true);
    expect(after.at(-1)).toMatchObject({ id: other.id, status: 'done', inserted: 2 });
  });

  it('refuses another business’s imports and a business the caller is not in', async () => {
    const created = await upload(people(1, 'secret'), { s: owner, b: business });
    const theirs = await socket(rival);
    for (const [id, request] of [
      ['foreign-code', { business_code: business.unique_code }],
      ['foreign-import', { business_code: rivalBusiness.unique_code, import_id: created.id }],
    ] as const) {
      expect(await subscribe(theirs, id, request)).toMatchObject({
        type: 'error',
        message: 'You do not have access to this subscription.',
      });
    }
    expect(
      await subscribe(theirs, 'bad-id', { business_code: rivalBusiness.unique_code, import_id: 'x' }),
    ).toMatchObject({ type: 'error', errors: { import_id: ['Not a valid import id.'] } });
  });
});
