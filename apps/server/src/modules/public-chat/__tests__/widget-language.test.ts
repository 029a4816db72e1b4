// The widget in the visitor's language (issue 30; next-api.md "Every channel in the inbox"): a chat
// group's `locale` and per-locale `strings` overrides (checked, 400 naming each bad field), what the
// public chat info gives the widget (compiled overrides, the group's locale, whether staff is online),
// and the email a visitor leaves while nobody is online (stored on their customer record).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TChatGroupSettings, TPublicChatInfo } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { expirePresence } from '../../presence';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let agent: Session;
let business: TBusiness;
let otherOwner: Session;
let other: TBusiness;
let support: TChatGroupSettings;
let sales: TChatGroupSettings;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Lingua Co');
  otherOwner = await signUp(app, rt.mailer);
  other = await createBusiness(app, otherOwner, 'Other Co');
  const make = async (payload: object) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(owner, business),
      payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json().result as TChatGroupSettings;
  };
  support = await make({ name: 'Support', slug: 'support' });
  sales = await make({ name: 'Sales', slug: 'sales', locale: 'fr', strings: { fr: { send: 'Go' } } });
  agent = await addMember(app, rt.mailer, owner, business, 'agent');
  const added = await app.inject({
    method: 'POST',
    url: `/api/msg/chat-groups/${support.id}/users/`,
    headers: as(owner, business),
    payload: { user_id: agent.user.pk },
  });
  expect(added.statusCode).toBe(201);
});
afterAll(() => rt.destroy());

const putGroup = (who: Session, shop: TBusiness, id: number, payload: object) =>
  app.inject({ method: 'PUT', url: `/api/msg/chat-groups/${id}/`, headers: as(who, shop), payload });
const info = async (slug: string | null) => {
  const res = await app.inject({
    method: 'GET',
    url: slug
      ? `/api/public/chat-groups/${business.unique_code}/${slug}/`
      : `/api/public/business/${business.unique_code}/`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().result as TPublicChatInfo;
};
const presence = (who: Session, status: string) =>
  app.inject({ method: 'PUT', url: '/api/users/presence/', headers: as(who), payload: { status } });

describe('a chat group’s language settings', () => {
  it('starts in English with no overrides, and takes a locale and overrides on create', async () => {
    expect(support.locale).toBe('en');
    expect(support.strings).toEqual({});
    expect(sales.locale).toBe('fr');
    expect(sales.strings).toEqual({ fr: { send: 'Go' } });
  });

  it('saves the locale and per-locale overrides, trimmed, and answers them on GET', async () => {
    const res = await putGroup(owner, business, support.id, {
      locale: 'es',
      strings: {
        es: {
          placeholder: '  Escríbenos aquí…  ',
          unread_count: '{count, plural, one {# nuevo} other {# nuevos}}',
        },
        ar: { send: 'أرسل' },
        de: {},
      },
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json().result as TChatGroupSettings;
    expect(saved.locale).toBe('es');
    expect(saved.strings).toEqual({
      es: {
        placeholder: 'Escríbenos aquí…',
        unread_count: '{count, plural, one {# nuevo} other {# nuevos}}',
      },
      ar: { send: 'أرسل' },
    });
    // Other settings are untouched by a language-only update.
    expect(saved.name).toBe('Support');
    const listed = await app.inject({
      method: 'GET',
      url: '/api/msg/chat-groups/',
      headers: as(owner, business),
    });
    const mine = (listed.json().result as TChatGroupSettings[]).find((g) => g.id === support.id);
    expect(mine?.locale).toBe('es');
    expect(mine?.strings.ar).toEqual({ send: 'أرسل' });
  });

  it('changes only the fields a PUT sends: the greeting, colour, form and origins stay', async () => {
    const styled = await putGroup(owner, business, sales.id, {
      greeting: 'Bonjour !',
      color: '#1f6feb',
      launcher_position: 'left',
      allowed_origins: ['https://shop.example.com'],
      visitor_form: [{ label: 'Order', name: 'order', type: 'text', required: true }],
    });
    expect(styled.statusCode, styled.body).toBe(200);
    const renamed = await putGroup(owner, business, sales.id, { name: 'Ventes' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().result).toMatchObject({
      name: 'Ventes',
      greeting: 'Bonjour !',
      color: '#1f6feb',
      launcher_position: 'left',
      allowed_origins: ['https://shop.example.com'],
      visitor_form: [{ label: 'Order', name: 'order', type: 'text', required: true }],
      locale: 'fr',
    });
  });

  it('refuses bad input with 400 naming every bad field, and changes nothing', async () => {
    const res = await putGroup(owner, business, support.id, {
      locale: 'klingon',
      strings: {
        es: {
          placeholder: 'Hola {nombre',
          typing: '{who} escribe…',
          not_a_key: 'x',
          send: '   ',
        },
        xx: { send: 'Go' },
      },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().result as Record<string, string[]>;
    expect(Object.keys(fields).sort()).toEqual(
      [
        'locale',
        'strings.es.not_a_key',
        'strings.es.placeholder',
        'strings.es.send',
        'strings.es.typing',
        'strings.xx',
      ].sort(),
    );
    expect(fields['strings.es.placeholder']?.[0]).toMatch(/ICU message format/);
    expect(fields['strings.es.typing']?.[0]).toBe('Unknown placeholder {who}; this text may use {name}.');
    expect(fields['strings.es.not_a_key']?.[0]).toBe('This is not a text of the widget.');
    const tooLong = await putGroup(owner, business, support.id, {
      strings: { en: { send: 'x'.repeat(501) } },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().result)).toEqual(['strings.en.send']);
    const notObject = await putGroup(owner, business, support.id, { strings: { es: 'hola' } });
    expect(notObject.statusCode).toBe(400);
    expect((await info('support')).locale).toBe('es');
  });

  it('is another business’s to change only: 404 across businesses, 403 for an agent', async () => {
    const foreign = await putGroup(otherOwner, other, support.id, { locale: 'de' });
    expect(foreign.statusCode).toBe(404);
    const byAgent = await putGroup(agent, business, support.id, { locale: 'de' });
    expect(byAgent.statusCode).toBe(403);
    expect((await info('support')).locale).toBe('es');
  });
});

describe('the public chat info', () => {
  it('gives the group’s locale and its overrides compiled for the widget’s ICU runtime', async () => {
    const got = await info('support');
    expect(got.locale).toBe('es');
    expect(got.strings.es?.placeholder).toBe('Escríbenos aquí…');
    // ICU placeholders and plurals compile to @lingui/core's token arrays.
    expect(Array.isArray(got.strings.es?.unread_count)).toBe(true);
    expect(JSON.stringify(got.strings.es?.unread_count)).toContain('plural');
    expect(got.strings.ar).toEqual({ send: 'أرسل' });
    const businessWide = await info(null);
    expect(businessWide.locale).toBe('en');
    expect(businessWide.strings).toEqual({});
  });

  it('says whether anyone who answers the chat is online: the group’s members, else any member', async () => {
    await expirePresence(rt.services.db, 0);
    expect((await info('support')).staff_online).toBe(false);
    expect((await info(null)).staff_online).toBe(false);
    // The owner is not in Support: online, they answer the business's chat and Sales (no members).
    await presence(owner, 'online');
    expect((await info('support')).staff_online).toBe(false);
    expect((await info('sales')).staff_online).toBe(true);
    expect((await info(null)).staff_online).toBe(true);
    await presence(agent, 'online');
    expect((await info('support')).staff_online).toBe(true);
    await presence(agent, 'away');
    expect((await info('support')).staff_online).toBe(false);
    await presence(owner, 'offline');
  });
});

describe('the email a visitor leaves while nobody is online', () => {
  async function newVisitor() {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: business.unique_code, group_slug: 'support', name: 'Ana' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().result as { customer: { id: number }; token: string };
  }

  it('is stored on the visitor’s customer record, seen in the directory', async () => {
    const { customer, token } = await newVisitor();
    const headers = { authorization: `Visitor ${token}` };
    const before = await app.inject({ method: 'GET', url: '/api/public/customers/me/', headers });
    expect(before.statusCode).toBe(200);
    expect(before.json().result).toEqual({ id: customer.id, name: 'Ana', email: null });
    const put = await app.inject({
      method: 'PUT',
      url: '/api/public/customers/me/',
      headers,
      payload: { email: 'Ana@Example.com' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().result.email).toBe('ana@example.com');
    const staffView = await app.inject({
      method: 'GET',
      url: `/api/business/customer-directory/${customer.id}/`,
      headers: as(owner, business),
    });
    expect(staffView.statusCode).toBe(200);
    expect(staffView.json().result.email).toBe('ana@example.com');
  });

  it('refuses a bad address (400 naming email) and a call without a visitor token (401)', async () => {
    const { token } = await newVisitor();
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/public/customers/me/',
      headers: { authorization: `Visitor ${token}` },
      payload: { email: 'not an email' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result)).toEqual(['email']);
    const extra = await app.inject({
      method: 'PUT',
      url: '/api/public/customers/me/',
      headers: { authorization: `Visitor ${token}` },
      payload: { email: 'a@b.co', name: 'Someone else' },
    });
    expect(extra.statusCode).toBe(400);
    const anonymous = await app.inject({
      method: 'PUT',
      url: '/api/public/customers/me/',
      payload: { email: 'a@b.co' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
