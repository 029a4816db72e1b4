// Consent done right (issue 31): double opt-in per list (a member is pending until the mailed link
// confirms; a broadcast passes over pending customers), topics per business, and the preference
// centre behind every mail (choose topics, leave all; one-click on a topic's mail leaves the topic).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CONSENT_ERRORS, CONSENT_PENDING_BY_HAND, type TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { insertSend } from '../../sends/sends.repository';
import { isSuppressed } from '../../suppressions/suppressions.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: Session;
let otherBusiness: TBusiness;
const PUBLIC_URL = 'http://titan.test';

async function visitor(name: string, email: string, b = business): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.unique_code, name, email },
  });
  return res.json().result.customer.id;
}

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  s = owner,
  b = business,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });
const customer = async (id: number) =>
  (await call('GET', `/api/business/customer-directory/${id}/`)).json().result;

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Opt Co');
  other = await signUp(app, rt.mailer);
  otherBusiness = await createBusiness(app, other, 'Elsewhere');
});
afterAll(() => rt.destroy());

describe('double opt-in per list', () => {
  async function confirmationTo(address: string) {
    const mails = await rt.mailer.listOutbox(address);
    return mails.filter((m) => m.subject === 'Confirm your subscription to Opt Co');
  }
  const tokenOf = (mail: { links: string[] }) => {
    const link = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}/confirm/`))!;
    return decodeURIComponent(link.slice(`${PUBLIC_URL}/confirm/`.length));
  };

  it('a member added to a double opt-in list is pending until the link confirms; the proof is kept', async () => {
    const list = await call('POST', '/api/business/customer-lists/', { name: 'News', double_opt_in: true });
    expect(list.statusCode).toBe(201);
    expect(list.json().result.double_opt_in).toBe(true);
    const id = await visitor('Pat Pending', 'pat@example.test');
    const added = await call('POST', `/api/business/customer-lists/${list.json().result.id}/members/`, {
      customer_ids: [id],
    });
    expect(added.json()).toMatchObject({ result: { added: 1 } });
    expect((await customer(id)).email_status).toBe('pending');

    const [mail, ...more] = await confirmationTo('pat@example.test');
    expect(more).toEqual([]);
    expect(mail!.text).toContain('asked to join “News” from Opt Co');
    const token = tokenOf(mail!);

    // Reading the link (a mail scanner's GET) confirms nothing.
    const seen = await app.inject({
      method: 'GET',
      url: `/api/public/confirm/${encodeURIComponent(token)}/`,
    });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().result).toMatchObject({
      business: { name: 'Opt Co' },
      address: 'pat@example.test',
      list_name: 'News',
      confirmed: false,
    });
    expect((await customer(id)).email_status).toBe('pending');

    // A broadcast to the list passes over the pending member.
    const events = await rt.database.query<{ method: string; status: string; proof: string | null }>(
      'select method, status, proof from consent_events where customer_id = $1 order by id',
      [id],
    );
    expect(events).toEqual([expect.objectContaining({ method: 'confirmation_sent', status: 'pending' })]);
    expect(events[0]!.proof).toContain('Confirm to start getting Opt Co’s emails at pat@example.test');

    const done = await app.inject({
      method: 'POST',
      url: `/api/public/confirm/${encodeURIComponent(token)}/`,
      remoteAddress: '203.0.113.7',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().result.confirmed).toBe(true);
    expect((await customer(id)).email_status).toBe('subscribed');
    const after = await rt.database.query<{ method: string; ip: string | null; source: string }>(
      "select method, ip, source from consent_events where customer_id = $1 and method = 'double_opt_in'",
      [id],
    );
    expect(after).toEqual([{ method: 'double_opt_in', ip: '203.0.113.7', source: 'list_join' }]);
    // Following it again changes nothing.
    const again = await app.inject({
      method: 'POST',
      url: `/api/public/confirm/${encodeURIComponent(token)}/`,
    });
    expect(again.json().result.confirmed).toBe(true);
  });

  it('staff cannot set pending by hand: only the confirmation request sets it', async () => {
    const id = await visitor('Hand Set', 'hand@example.test');
    const res = await call('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'pending' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result.email_status).toEqual([CONSENT_PENDING_BY_HAND]);
    expect((await customer(id)).email_status).toBe('unknown');
  });

  it('refuses a forged or altered link with the field message', async () => {
    for (const bad of ['not-a-token', 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA']) {
      const res = await app.inject({ method: 'POST', url: `/api/public/confirm/${bad}/` });
      expect(res.statusCode).toBe(400);
      expect(res.json().result).toEqual({ token: [CONSENT_ERRORS.confirmInvalid] });
    }
  });

  it('a list without double opt-in adds members as they are; a subscribed member is not asked', async () => {
    const plain = await call('POST', '/api/business/customer-lists/', { name: 'Plain' });
    const id = await visitor('Una Plain', 'una@example.test');
    await call('POST', `/api/business/customer-lists/${plain.json().result.id}/members/`, {
      customer_ids: [id],
    });
    expect((await customer(id)).email_status).toBe('unknown');

    const doi = await call('POST', '/api/business/customer-lists/', { name: 'VIP', double_opt_in: true });
    const sub = await visitor('Sue Sub', 'sue@example.test');
    await call('PUT', `/api/business/customer-directory/${sub}/`, { email_status: 'subscribed' });
    await call('POST', `/api/business/customer-lists/${doi.json().result.id}/members/`, {
      customer_ids: [sub],
    });
    expect((await customer(sub)).email_status).toBe('subscribed');
    expect(await confirmationTo('sue@example.test')).toEqual([]);
  });

  it('a broadcast to a double opt-in list skips its pending members', async () => {
    const list = await call('POST', '/api/business/customer-lists/', { name: 'Promo', double_opt_in: true });
    const listId = list.json().result.id;
    const id = await visitor('Bo Broadcast', 'bo@example.test');
    await call('POST', `/api/business/customer-lists/${listId}/members/`, { customer_ids: [id] });
    expect((await customer(id)).email_status).toBe('pending');
    const { consentSkipOf } = await import('../../broadcasts/broadcasts.service');
    const reason = consentSkipOf({ request: {} } as never, 'pending');
    expect(reason).toBe('awaiting confirmation (double opt-in)');
    expect(consentSkipOf({ request: { consent: 'legitimate_interest' } } as never, 'pending')).not.toBeNull();
  });
});

describe('topics and the preference centre', () => {
  let offers: number;
  let news: number;

  it('topics are per business: created, listed, renamed; another business’s are 404', async () => {
    const a = await call('POST', '/api/consent/topics/', {
      name: 'Offers',
      description: 'Sales and coupons',
    });
    expect(a.statusCode).toBe(201);
    offers = a.json().result.id;
    news = (await call('POST', '/api/consent/topics/', { name: 'News' })).json().result.id;
    const dup = await call('POST', '/api/consent/topics/', { name: 'offers' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result).toEqual({ name: [CONSENT_ERRORS.topicNameTaken] });
    const blank = await call('POST', '/api/consent/topics/', { name: ' ' });
    expect(blank.statusCode).toBe(400);
    const listed = (await call('GET', '/api/consent/topics/')).json().result;
    expect(listed.map((t: { name: string }) => t.name)).toEqual(['News', 'Offers']);

    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Mine' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/consent/topics/${offers}/`, payload, other, otherBusiness);
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await call('GET', '/api/consent/topics/', undefined, other, otherBusiness)).json().result,
    ).toEqual([]);
  });

  async function mailTo(email: string, customerId: number) {
    const send = await insertSend(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      cause: 'broadcast',
      customerId,
      recipient: email,
      status: 'sent',
    });
    return rt.services.email.tokens.sign(send.id);
  }

  it('the public pages wear the email brand: one setting, from the Brand screen or /api/consent/page/', async () => {
    const id = await visitor('Gus Brand', 'gus@example.test');
    const url = `/api/public/preferences/${await mailTo('gus@example.test', id)}/`;
    const look = async () => (await app.inject({ method: 'GET', url })).json().result.business;
    // The brand saved on the Brand screen is what the customer sees…
    const brand = {
      logo_url: 'https://cdn.example.test/brand.png',
      primary_color: '#AA3300',
      text_color: '#111111',
      font_family: 'Georgia',
      footer_address: '1 Quay Street',
    };
    expect((await call('PUT', '/api/template/brand/', brand)).statusCode).toBe(200);
    expect(await look()).toMatchObject({
      logo_url: 'https://cdn.example.test/brand.png',
      accent_color: '#aa3300',
    });
    expect((await call('GET', '/api/consent/page/')).json().result).toEqual({
      logo_url: 'https://cdn.example.test/brand.png',
      accent_color: '#aa3300',
    });
    // …and changing the page's colour changes the brand's, keeping the rest of it.
    expect((await call('PUT', '/api/consent/page/', { accent_color: '#0F766E' })).statusCode).toBe(200);
    expect((await call('GET', '/api/template/brand/')).json().result).toMatchObject({
      logo_url: 'https://cdn.example.test/brand.png',
      primary_color: '#0f766e',
      font_family: 'Georgia',
      footer_address: '1 Quay Street',
    });
    expect(await look()).toMatchObject({ accent_color: '#0f766e' });
  });

  it('the preference centre shows the business’s page in the customer’s language and keeps chosen topics', async () => {
    await call('PUT', '/api/consent/page/', {
      logo_url: 'https://cdn.example.test/logo.png',
      accent_color: '#1d4ed8',
    });
    const bad = await call('PUT', '/api/consent/page/', { accent_color: 'blue' });
    expect(bad.statusCode).toBe(400);
    const id = await visitor('Fran Prefs', 'fran@example.test');
    await call('PUT', `/api/business/customer-directory/${id}/`, {
      email_status: 'subscribed',
      fields: { locale: 'fr-FR' },
    });
    const token = await mailTo('fran@example.test', id);
    const url = `/api/public/preferences/${token}/`;
    const shown = await app.inject({ method: 'GET', url });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().result).toMatchObject({
      business: { name: 'Opt Co', logo_url: 'https://cdn.example.test/logo.png', accent_color: '#1d4ed8' },
      email: 'fran@example.test',
      locale: 'fr',
      unsubscribe_all: false,
      topics: [
        { id: news, name: 'News', subscribed: true },
        { id: offers, name: 'Offers', subscribed: true },
      ],
    });

    const kept = await app.inject({
      method: 'PUT',
      url,
      payload: { topics: [news], unsubscribe_all: false },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().result.topics).toEqual([
      expect.objectContaining({ id: news, subscribed: true }),
      expect.objectContaining({ id: offers, subscribed: false }),
    ]);
    const { customersOutOfTopic } = await import('../consent.topics');
    expect([...(await customersOutOfTopic(rt.database.db, offers, [id]))]).toEqual([id]);

    // Another business's topic is refused, field by field.
    const foreign = (
      await call('POST', '/api/consent/topics/', { name: 'Theirs' }, other, otherBusiness)
    ).json().result.id;
    const refused = await app.inject({
      method: 'PUT',
      url,
      payload: { topics: [foreign], unsubscribe_all: false },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result).toEqual({ topics: [CONSENT_ERRORS.unknownTopics] });

    // Leave all: suppressed; choosing topics again lifts the unsubscribe.
    const all = await app.inject({ method: 'PUT', url, payload: { topics: [], unsubscribe_all: true } });
    expect(all.json().result.unsubscribe_all).toBe(true);
    expect(await isSuppressed(rt.database.db, business.id, 'email', 'fran@example.test')).toBe(true);
    expect((await customer(id)).email_status).toBe('unsubscribed');
    const back = await app.inject({
      method: 'PUT',
      url,
      payload: { topics: [offers], unsubscribe_all: false },
    });
    expect(back.json().result.unsubscribe_all).toBe(false);
    expect(await isSuppressed(rt.database.db, business.id, 'email', 'fran@example.test')).toBe(false);

    const forged = await app.inject({ method: 'GET', url: '/api/public/preferences/abc.def/' });
    expect(forged.statusCode).toBe(400);
  });

  it('RFC 8058 one-click with the campaign’s topic leaves that topic only', async () => {
    const id = await visitor('Oli Click', 'oli@example.test');
    await call('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'subscribed' });
    const token = await mailTo('oli@example.test', id);
    const res = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe/?token=${token}&topic=${offers}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.unsubscribed).toBe(false);
    expect(await isSuppressed(rt.database.db, business.id, 'email', 'oli@example.test')).toBe(false);
    const prefs = (await app.inject({ method: 'GET', url: `/api/public/preferences/${token}/` })).json()
      .result;
    expect(prefs.topics).toEqual([
      expect.objectContaining({ id: news, subscribed: true }),
      expect.objectContaining({ id: offers, subscribed: false }),
    ]);
    // Without a topic, one-click leaves all mail as before.
    const all = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe/?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(all.json().result.unsubscribed).toBe(true);
  });
});
