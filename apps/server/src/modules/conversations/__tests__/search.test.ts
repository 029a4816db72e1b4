// The inbox's search (issue 29): GET /api/msg/search/ and `q=` on the conversation list, over
// customer names, emails and phones, message text and notes, within the viewer's scope and the
// list's filters; highlights are HTML-escaped; bad input is 400; a visitor never reaches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ZEnvelope, ZSearchPage, type TConversation, type TSearchPage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { customerHighlight, headlineHtml } from '../search/search.service';
import { tsQueryText } from '../search/search.repository';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;

/** A widget visitor who writes `text` in a new conversation of `slug` (null: no group). */
async function visitorWrites(b: ScopedBusiness, name: string, slug: string | null, text: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: b.shop.unique_code, name },
  });
  const { token, customer } = res.json().result as { token: string; customer: { id: number } };
  const auth = { authorization: `Visitor ${token}` };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: auth,
    payload: slug ? { group_slug: slug } : {},
  });
  const conversation = started.json().result as TConversation;
  const sent = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${conversation.id}/messages/`,
    headers: auth,
    payload: { content: text },
  });
  expect(sent.statusCode).toBe(201);
  return { token, conversation, customerId: customer.id };
}

const searchAs = async (who: Session, q: string, extra = '', b = s) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/search/?q=${encodeURIComponent(q)}${extra}`,
    headers: as(who, b.shop),
  });
  return res;
};
const found = async (who: Session, q: string, extra = '', b = s) => {
  const res = await searchAs(who, q, extra, b);
  expect(res.statusCode, res.body).toBe(200);
  return ZEnvelope(ZSearchPage).parse(res.json()).result as TSearchPage;
};

let support: Awaited<ReturnType<typeof visitorWrites>>;
let sales: Awaited<ReturnType<typeof visitorWrites>>;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  s = await scopedBusiness(app, rt.mailer, 'Search Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Search Co');
  support = await visitorWrites(s, 'Marguerite Support', 'support', 'My parcel never arrived, refund please');
  sales = await visitorWrites(s, 'Bartholomew Sales', 'sales', 'Quote for 40 refurbished <b>laptops</b>');
  await visitorWrites(other, 'Marguerite Elsewhere', 'support', 'Refund my parcel too');
  await app.inject({
    method: 'PUT',
    url: `/api/business/customer-directory/${support.customerId}/`,
    headers: as(s.boss, s.shop),
    payload: { email: 'marg@example.com', phone: '+14155550123' },
  });
});
afterAll(async () => {
  await rt.destroy();
});

describe('search', () => {
  it('finds message text by word prefix, highlighted, within the business only', async () => {
    const page = await found(s.boss, 'refun');
    expect(page.count).toBe(1);
    const [hit] = page.results;
    expect(hit!.conversation.id).toBe(support.conversation.id);
    expect(hit!.message?.content).toContain('refund please');
    expect(hit!.highlight).toContain('<mark>refund</mark>');
  });

  it("answers each match's conversation as the conversation view does, assignee and labels included", async () => {
    const label = await app.inject({
      method: 'POST',
      url: '/api/msg/labels/',
      headers: as(s.boss, s.shop),
      payload: { name: 'Parcel', color: '#ff8800' },
    });
    expect(label.statusCode, label.body).toBe(201);
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${support.conversation.id}/`,
      headers: as(s.boss, s.shop),
      payload: { assignee_id: s.boss.user.pk, label_ids: [label.json().result.id] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const view = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${support.conversation.id}/`,
      headers: as(s.boss, s.shop),
    });
    expect(view.statusCode, view.body).toBe(200);
    const expected = view.json().result as TConversation;
    expect(expected.assignee?.id).toBe(s.boss.user.pk);
    expect(expected.labels.map((l) => l.name)).toEqual(['Parcel']);
    // A message match and a customer match of the same conversation.
    for (const q of ['parcel', 'Marguerite']) {
      const [hit] = (await found(s.boss, q)).results;
      expect(hit!.conversation, q).toEqual(expected);
    }
  });

  it('HTML-escapes what it highlights', async () => {
    const page = await found(s.boss, 'laptops');
    // ts_headline's parser drops markup; whatever stays is escaped: only <mark> is a tag.
    expect(page.results[0]!.highlight).toContain('<mark>laptops</mark>');
    expect(page.results[0]!.highlight.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(headlineHtml('<x>\uE000a&b\uE001')).toBe('&lt;x&gt;<mark>a&amp;b</mark>');
    expect(customerHighlight({ name: '<Ann>', email: null, phone: null }, 'ann')).toBe(
      '&lt;<mark>Ann</mark>&gt;',
    );
  });

  it('finds customers by name, email and phone (as typed or by digits)', async () => {
    for (const q of ['marguerite', 'marg@example', '415 555 0123', '5550123']) {
      const page = await found(s.boss, q);
      const byCustomer = page.results.find((r) => r.message === null);
      expect(byCustomer?.conversation.id, q).toBe(support.conversation.id);
      expect(byCustomer?.highlight, q).toContain('<mark>');
    }
  });

  it('finds notes for staff', async () => {
    const note = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${sales.conversation.id}/notes/`,
      headers: as(s.boss, s.shop),
      payload: { content: 'Discount approved by zanzibarquartz' },
    });
    expect(note.statusCode).toBe(201);
    const page = await found(s.boss, 'zanzibarquartz');
    expect(page.results).toHaveLength(1);
    expect(page.results[0]!.message?.message_type).toBe('note');
  });

  it('keeps an agent to their chat groups', async () => {
    expect((await found(s.agent, 'refund')).count).toBe(1);
    expect((await found(s.agent, 'laptops')).count).toBe(0);
    expect((await found(s.agent, 'bartholomew')).count).toBe(0);
  });

  it('applies the list filters, and q= on the conversation list', async () => {
    expect((await found(s.boss, 'refund', '&status=resolved')).count).toBe(0);
    expect((await found(s.boss, 'refund', '&channel__in=titan_message')).count).toBe(1);
    const list = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/?q=marguerite`,
      headers: as(s.boss, s.shop),
    });
    expect(list.statusCode).toBe(200);
    const result = list.json().result as { count: number; results: TConversation[] };
    expect(result.count).toBe(1);
    expect(result.results.map((c) => c.id)).toEqual([support.conversation.id]);
    const agentList = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/?q=laptops`,
      headers: as(s.agent, s.shop),
    });
    expect(agentList.json().result.count).toBe(0);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const extra of ['?q=', '?q=%40%40%40', `?q=${'a'.repeat(201)}`, '?q=x&page=0', '?q=x&nope=1']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/msg/search/${extra}`,
        headers: as(s.boss, s.shop),
      });
      expect(res.statusCode, extra).toBe(400);
    }
    const res = await app.inject({ method: 'GET', url: '/api/msg/search/?q=', headers: as(s.boss, s.shop) });
    expect(JSON.stringify(res.json())).toContain('q');
    // tsquery syntax in the text is only words to the search.
    expect(tsQueryText("a:* | !b & (c) <-> 'd'")).toBe('a:* & b:* & c:* & d:*');
    expect((await found(s.boss, "refund') | (x")).count).toBe(0);
  });

  it('is not a visitor route: a visitor token cannot search', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/msg/search/?q=zanzibarquartz',
      headers: { authorization: `Visitor ${support.token}` },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(401);
    expect(res.statusCode).toBeLessThan(404);
    expect(res.body).not.toContain('zanzibarquartz');
  });
});
