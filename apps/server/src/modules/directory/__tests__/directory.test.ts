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
      payload: { name: 'Alice A.', phone: '+44 (0)20 7946 0958', fields: { vip: true } },
    });
    // Stored in E.164, the form inbound texts are matched on.
    expect(upd.json().result).toMatchObject({
      name: 'Alice A.',
      phone: '+442079460958',
      fields: { plan: 'pro', vip: true },
    });
    for (const [phone, message] of [
      ['+44 20 1234', 'Enter a valid phone number.'],
      // No country code, and the business has no dial code to read it in.
      ['020 7946 0958', 'Enter the number with its country code.'],
    ]) {
      const refused = await app.inject({
        method: 'PUT',
        url: `/api/business/customer-directory/${id}/`,
        headers: as(owner, business),
        payload: { name: 'Not written', phone },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().result).toEqual({ phone: [message] });
    }
    expect((await get(`/api/business/customer-directory/${id}/`)).json().result).toMatchObject({
      name: 'Alice A.',
      phone: '+442079460958',
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

  it('stores a phone typed to the public customers API in E.164, read in the business dial code', async () => {
    const post = (phone: string) =>
      app.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: business.unique_code, name: 'Typed', phone },
      });
    const stored = async (res: Awaited<ReturnType<typeof post>>) =>
      (await get(`/api/business/customer-directory/${res.json().result.customer.id}/`)).json().result.phone;
    expect(await stored(await post('+1 (201) 555-0123'))).toBe('+12015550123');
    expect(await stored(await post('0044 20 7946 0958'))).toBe('+442079460958');
    const national = await post('(201) 555-0124');
    expect(national.statusCode).toBe(400);
    expect(national.json().result).toEqual({ phone: ['Enter the number with its country code.'] });
    const wrong = await post('call me');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().result).toEqual({ phone: ['Enter a valid phone number.'] });

    const dialled = await app.inject({
      method: 'PUT',
      url: '/api/business/',
      headers: as(owner, business),
      payload: { dial_code: '+1' },
    });
    expect(dialled.statusCode).toBe(200);
    try {
      expect(await stored(await post('(201) 555-0124'))).toBe('+12015550124');
    } finally {
      await app.inject({
        method: 'PUT',
        url: '/api/business/',
        headers: as(owner, business),
        payload: { dial_code: null },
      });
    }
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

describe("agents' directory", () => {
  it('shows an agent only the people behind conversations their inbox shows; owners see everyone', async () => {
    const boss = await signUp(app, rt.mailer);
    const shop = await createBusiness(app, boss, 'Groups Co');
    const groupIds: Record<string, number> = {};
    for (const slug of ['support', 'sales']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/msg/chat-groups/',
        headers: as(boss, shop),
        payload: { name: slug, slug },
      });
      groupIds[slug] = res.json().result.id;
    }
    const agent = await addMember(app, rt.mailer, boss, shop, 'agent');
    const added = await app.inject({
      method: 'POST',
      url: `/api/msg/chat-groups/${groupIds.support}/users/`,
      headers: as(boss, shop),
      payload: { user_id: agent.user.pk },
    });
    expect(added.statusCode).toBe(201);

    /** A visitor with one conversation per slug given (none: a record without conversations). */
    async function visitor(name: string, slugs: (string | null)[]): Promise<number> {
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: shop.unique_code, name },
      });
      const { customer, token } = res.json().result;
      for (const slug of slugs) {
        const started = await app.inject({
          method: 'POST',
          url: '/api/public/conversations/',
          headers: { authorization: `Visitor ${token}` },
          payload: slug ? { group_slug: slug } : {},
        });
        expect(started.statusCode).toBe(201);
      }
      return customer.id;
    }
    const mine = await visitor('In support', ['support']);
    const pooled = await visitor('Unassigned', [null]);
    const both = await visitor('Support and sales', ['support', 'sales']);
    const theirs = await visitor('Only sales', ['sales']);
    const silent = await visitor('No conversation', []);

    const names = async (who: Session) =>
      (await get('/api/business/customer-directory/?page_size=100', who, shop))
        .json()
        .result.results.map((v: TDirectoryVisitor) => v.name)
        .sort();
    expect(await names(agent)).toEqual(['In support', 'Support and sales', 'Unassigned']);
    expect(await names(boss)).toEqual(
      ['In support', 'No conversation', 'Only sales', 'Support and sales', 'Unassigned'].sort(),
    );
    const count = (await get('/api/business/customer-directory/?search=sales', agent, shop)).json().result;
    expect(count.count).toBe(1);

    for (const id of [mine, pooled, both]) {
      expect((await get(`/api/business/customer-directory/${id}/`, agent, shop)).statusCode).toBe(200);
    }
    // Counts too follow the inbox: the sales conversation is not the agent's to count.
    expect((await get(`/api/business/customer-directory/${both}/`, agent, shop)).json().result).toMatchObject(
      {
        conversation_count: 1,
      },
    );
    expect((await get(`/api/business/customer-directory/${both}/`, boss, shop)).json().result).toMatchObject({
      conversation_count: 2,
    });
    for (const id of [theirs, silent]) {
      expect((await get(`/api/business/customer-directory/${id}/`, agent, shop)).statusCode).toBe(404);
      expect((await get(`/api/business/customer-directory/${id}/`, boss, shop)).statusCode).toBe(200);
    }
    // A visitor's pages follow the same rule; another business's visitor is as unknown.
    for (const id of [theirs, silent, visitors[1]!.id])
      for (const page of ['', 'conversations/', 'sends/'])
        expect(
          (await get(`/api/business/customer-directory/${id}/${page}`, agent, shop)).statusCode,
          `${id}/${page}`,
        ).toBe(404);
    for (const page of ['conversations/', 'sends/'])
      expect((await get(`/api/business/customer-directory/${mine}/${page}`, agent, shop)).statusCode).toBe(
        200,
      );
    // The whole directory as a file is for owners and admins.
    expect((await get('/api/business/customer-directory/download/', agent, shop)).statusCode).toBe(403);
  });
});
