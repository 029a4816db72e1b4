import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TDirectoryVisitor } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
const visitors: { id: number }[] = [];

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Directory Co');
  for (const [name, email] of [
    ['Alice Archer', 'alice@example.test'],
    ['Bob Baker', 'bob@shop.test'],
    ['Carol 100%_sure', 'carol@example.test'],
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: business.unique_code, name, email, fields: { plan: 'pro' } },
    });
    const { customer, token } = res.json().result;
    visitors.push(customer);
    await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
      payload: {},
    });
  }
});
afterAll(() => rt.destroy());

const get = (url: string, s: Session = owner, b: TBusiness = business) =>
  app.inject({ method: 'GET', url, headers: as(s, b) });

describe('visitor directory', () => {
  it('lists visitors newest first with paging and their conversation counts', async () => {
    const page = (await get('/api/business/customer-directory/?page_size=2')).json().result;
    expect(page.count).toBe(3);
    expect(page.next).toBe(2);
    expect(page.results.map((v: TDirectoryVisitor) => v.name)).toEqual(['Carol 100%_sure', 'Bob Baker']);
    expect(page.results[0]).toMatchObject({
      email: 'carol@example.test',
      fields: { plan: 'pro' },
      conversation_count: 1,
    });
  });

  it('searches name, email and phone, case-insensitively, treating % and _ literally', async () => {
    const names = async (q: string) =>
      (await get(`/api/business/customer-directory/?search=${encodeURIComponent(q)}`))
        .json()
        .result.results.map((v: TDirectoryVisitor) => v.name);
    expect(await names('ALICE')).toEqual(['Alice Archer']);
    expect(await names('shop.test')).toEqual(['Bob Baker']);
    expect(await names('100%_')).toEqual(['Carol 100%_sure']);
    expect(await names('%')).toEqual(['Carol 100%_sure']);
    expect(await names('nobody')).toEqual([]);
  });

  it('reads, updates and deletes a visitor; conversations stay without an initiator', async () => {
    const id = visitors[0]!.id;
    const one = (await get(`/api/business/customer-directory/${id}/`)).json().result;
    expect(one).toMatchObject({ id, name: 'Alice Archer' });
    const upd = await app.inject({
      method: 'PUT',
      url: `/api/business/customer-directory/${id}/`,
      headers: as(owner, business),
      payload: { name: 'Alice A.', phone: '+44 20 1234', fields: { vip: true } },
    });
    expect(upd.json().result).toMatchObject({
      name: 'Alice A.',
      phone: '+44 20 1234',
      fields: { plan: 'pro', vip: true },
    });
    const bad = await app.inject({
      method: 'PUT',
      url: `/api/business/customer-directory/${id}/`,
      headers: as(owner, business),
      payload: { email: 'not-an-email' },
    });
    expect(bad.json().result).toEqual({ email: ['Enter a valid email address.'] });

    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/api/business/customer-directory/${id}/`,
          headers: as(owner, business),
        })
      ).statusCode,
    ).toBe(200);
    expect((await get(`/api/business/customer-directory/${id}/`)).statusCode).toBe(404);
    const list = (await get('/api/msg/conversations/?page_size=100')).json().result.results;
    expect(list.filter((c: { initiator: unknown }) => c.initiator === null)).toHaveLength(1);
  });

  it("keeps another business's members out, and lets agents read but not change", async () => {
    const other = await signUp(app, rt.mailer);
    const otherBusiness = await createBusiness(app, other, 'Other');
    const id = visitors[1]!.id;
    expect((await get(`/api/business/customer-directory/${id}/`, other, otherBusiness)).statusCode).toBe(404);
    expect((await get('/api/business/customer-directory/', other, otherBusiness)).json().result.count).toBe(
      0,
    );
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await app.inject({
        method,
        url: `/api/business/customer-directory/${id}/`,
        headers: as(other, otherBusiness),
        ...(method === 'PUT' ? { payload: { name: 'pwned' } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await get(`/api/business/customer-directory/${id}/`)).json().result.name).toBe('Bob Baker');

    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await get('/api/business/customer-directory/', agent)).statusCode).toBe(200);
    const change = await app.inject({
      method: 'PUT',
      url: `/api/business/customer-directory/${id}/`,
      headers: as(agent, business),
      payload: { name: 'x' },
    });
    expect(change.statusCode).toBe(403);
  });
});
