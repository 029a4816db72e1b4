// The static lists a customer is in (issue 29, the inbox's customer panel):
// GET /api/business/customer-directory/{id}/lists/, read as the directory is read — an agent sees
// only the people of their inbox, another business nobody (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  s = await scopedBusiness(app, rt.mailer, 'Lists Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Lists Co');
});
afterAll(async () => rt.destroy());

const listsOf = (who: Session, id: number, shop = s.shop) =>
  app.inject({ method: 'GET', url: `/api/business/customer-directory/${id}/lists/`, headers: as(who, shop) });

async function list(name: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/business/customer-lists/',
    headers: as(s.boss, s.shop),
    payload: { name, kind: 'static' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result.id as number;
}

describe("a customer's lists", () => {
  it('names the static lists holding them, within what the caller may see', async () => {
    const supportCustomer = await s.visitor('Sam', ['support']);
    const salesCustomer = await s.visitor('Sal', ['sales']);
    const [vip, beta] = [await list('VIP'), await list('Beta testers')];
    for (const [listId, ids] of [
      [vip, [supportCustomer, salesCustomer]],
      [beta, [supportCustomer]],
    ] as const) {
      const added = await app.inject({
        method: 'POST',
        url: `/api/business/customer-lists/${listId}/members/`,
        headers: as(s.boss, s.shop),
        payload: { customer_ids: ids },
      });
      expect(added.statusCode, added.body).toBeLessThan(300);
    }

    const mine = await listsOf(s.boss, supportCustomer);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().result).toEqual([
      { id: beta, name: 'Beta testers' },
      { id: vip, name: 'VIP' },
    ]);
    expect((await listsOf(s.boss, salesCustomer)).json().result).toEqual([{ id: vip, name: 'VIP' }]);

    // The agent of "support" sees the support customer, not the sales one.
    expect((await listsOf(s.agent, supportCustomer)).statusCode).toBe(200);
    expect((await listsOf(s.agent, salesCustomer)).statusCode).toBe(404);
    // Another business's owner, in their own business or naming ours: 404.
    expect((await listsOf(other.boss, supportCustomer, other.shop)).statusCode).toBe(404);
  });

  it('answers 400 naming the id for a malformed one', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/business/customer-directory/abc/lists/',
      headers: as(s.boss, s.shop),
    });
    expect(res.statusCode).toBe(400);
  });
});
