import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TDirectoryVisitor } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { isSuppressed } from '../../suppressions/suppressions.service';
import { optIn, optOut } from '../consent.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: Session;
let otherBusiness: TBusiness;

async function visitor(name: string, email: string, b = business): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, email },
  });
  return res.json().result.customer.id;
}

const base = '/api/business/customer-directory/';
const read = async (id: number): Promise<TDirectoryVisitor> =>
  (await app.inject({ method: 'GET', url: `${base}${id}/`, headers: as(owner, business) })).json().result;
const put = (id: number, payload: object, s = owner, b = business) =>
  app.inject({ method: 'PUT', url: `${base}${id}/`, headers: as(s, b), payload });
const suppressed = (address: string, channel: 'email' | 'sms' = 'email') =>
  isSuppressed(rt.database.db, business.id, channel, address);

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Consent Co');
  other = await signUp(app, rt.mailer);
  otherBusiness = await createBusiness(app, other, 'Elsewhere');
});
afterAll(() => rt.destroy());

describe('consent per channel', () => {
  it('starts unknown on every channel', async () => {
    const id = await visitor('Una Known', 'una@example.test');
    expect(await read(id)).toMatchObject({
      email_status: 'unknown',
      sms_status: 'unknown',
      whatsapp_status: 'unknown',
    });
  });

  it('staff opting a customer out suppresses their address; opting in lifts it', async () => {
    const id = await visitor('Otto Out', 'Otto@Example.test');
    const res = await put(id, { email_status: 'unsubscribed' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.email_status).toBe('unsubscribed');
    expect(await suppressed('otto@example.test')).toBe(true);

    const back = await put(id, { email_status: 'subscribed' });
    expect(back.json().result.email_status).toBe('subscribed');
    expect(await suppressed('otto@example.test')).toBe(false);
  });

  it('records consent on a channel the customer has no address for, suppressing nothing', async () => {
    const id = await visitor('Sam Sms', 'sam@example.test');
    const res = await put(id, { sms_status: 'subscribed', whatsapp_status: 'unsubscribed' });
    expect(res.json().result).toMatchObject({ sms_status: 'subscribed', whatsapp_status: 'unsubscribed' });
  });

  it('a bounce or complaint marks every customer at the address; resubscribing never lifts a bounce', async () => {
    const a = await visitor('Bea One', 'bea@example.test');
    const b = await visitor('Bea Two', 'BEA@example.test');
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'bea@example.test',
      reason: 'bounced',
    });
    expect((await read(a)).email_status).toBe('bounced');
    expect((await read(b)).email_status).toBe('bounced');

    const lifted = await optIn(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'bea@example.test',
      reasons: ['unsubscribed'],
    });
    expect(lifted).toBe(false);
    expect((await read(a)).email_status).toBe('bounced');

    await optIn(rt.database.db, { businessId: business.id, channel: 'email', address: 'bea@example.test' });
    expect((await read(a)).email_status).toBe('subscribed');
    expect(await suppressed('bea@example.test')).toBe(false);
  });

  it('a customer given a suppressed address takes over its status', async () => {
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'gone@example.test',
      reason: 'complained',
    });
    const id = await visitor('Cy Changer', 'cy@example.test');
    const res = await put(id, { email: 'Gone@Example.test' });
    expect(res.json().result.email_status).toBe('complained');
  });

  it('segments filter on consent', async () => {
    const id = await visitor('Seg Ment', 'seg@example.test');
    await put(id, { email_status: 'subscribed' });
    const list = await app.inject({
      method: 'POST',
      url: '/api/business/customer-lists/',
      headers: as(owner, business),
      payload: { name: 'Subscribed', kind: 'segment', filter: { email_status: 'subscribed' } },
    });
    expect(list.statusCode).toBe(201);
    const members = (
      await app.inject({
        method: 'GET',
        url: `/api/business/customer-lists/${list.json().result.id}/members/`,
        headers: as(owner, business),
      })
    ).json().result;
    expect(members.results.map((v: TDirectoryVisitor) => v.name)).toContain('Seg Ment');
    expect(members.results.every((v: TDirectoryVisitor) => v.email_status === 'subscribed')).toBe(true);
  });

  it('refuses an unknown status with a field message and changes nothing', async () => {
    const id = await visitor('Val Id', 'val@example.test');
    const res = await put(id, { email_status: 'maybe' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result.email_status).toBeDefined();
    expect((await read(id)).email_status).toBe('unknown');
  });

  it("refuses another business's staff, leaving consent and suppression alone", async () => {
    const id = await visitor('Tess Tenant', 'tess@example.test');
    const res = await put(id, { email_status: 'unsubscribed' }, other, otherBusiness);
    expect(res.statusCode).toBe(404);
    expect((await read(id)).email_status).toBe('unknown');
    expect(await suppressed('tess@example.test')).toBe(false);
    expect(await isSuppressed(rt.database.db, otherBusiness.id, 'email', 'tess@example.test')).toBe(false);
  });
});
