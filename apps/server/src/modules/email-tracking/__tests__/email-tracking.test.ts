// The tracking endpoints, the email metrics and the email page on a real database: opens and clicks
// are recorded and raise the send; machine hits are kept flagged without raising; forged tokens
// record nothing and a click never redirects anywhere Titan did not sign; metrics count one
// business's sends only; the email detail answers the message as sent and its timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import * as sends from '../../sends/sends.service';
import { instrumentHtml } from '../email-tracking.service';
import { signToken, trackingKey } from '../email-tracking.tokens';
import { parseCsv } from '../../../testing/csv';

let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let other: TBusiness;

const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const app = () => rt.app!;
const db = () => rt.database.db;
const key = () => trackingKey(rt.config.APP_SECRET);
const flush = () => rt.services.emailTracking.recorder.flush();

/** An email send the mail server accepted, sent `agoMs` ago (claimed then). */
async function sentEmail(
  businessId: number,
  opts: { agoMs?: number; createdAt?: Date; templateId?: number; html?: string } = {},
) {
  const queued = await sends.createQueued(db(), {
    businessId,
    channel: 'email',
    cause: 'test',
    recipient: 'reader@example.test',
    subject: 'Autumn sale',
    templateId: opts.templateId ?? null,
    providerRequest: {
      from: 'Shop <news@shop.example>',
      to: 'reader@example.test',
      subject: 'Autumn sale',
      html: opts.html ?? '<html><body><p>Hello</p><a href="https://shop.example/sale">Sale</a></body></html>',
      text: 'Hello\n\nSale: https://shop.example/sale',
      headers: { 'List-Unsubscribe': '<https://titan.example/engage/unsubscribe?token=x>' },
    },
  });
  const claimed = await sends.claim(db(), queued.id);
  await sends.recordAccepted(db(), claimed!, {
    ok: true,
    providerMessageId: `<${queued.id}@shop.example>`,
    response: { response: '250 2.0.0 Ok: queued' },
  });
  const at = new Date(Date.now() - (opts.agoMs ?? 60_000));
  await rt.database.query(`update sends set claimed_at = $2, created_at = $3 where id = $1`, [
    queued.id,
    at.toISOString(),
    (opts.createdAt ?? at).toISOString(),
  ]);
  return queued.id;
}

/** An agent of the business with one run. */
async function agentWithRun(businessId: number) {
  const [agent] = await rt.database.query<{ id: string }>(
    "insert into agents (business_id, name) values ($1, 'Win-back') returning id",
    [businessId],
  );
  const [run] = await rt.database.query<{ id: string }>(
    `insert into agent_runs (agent_id, business_id, channel, slot, trigger, config_version, send_mode, status)
     values ($1, $2, 'email', now(), 'schedule', 1, 'auto', 'completed') returning id`,
    [agent!.id, businessId],
  );
  return { agentId: Number(agent!.id), runId: run!.id };
}

/** An email sent by an agent's run (cause `agent`, cause_id the run). */
async function byAgent(businessId: number, runId: string, opts: { createdAt?: Date } = {}) {
  const id = await sentEmail(businessId, opts);
  await rt.database.query(`update sends set cause = 'agent', cause_id = $2 where id = $1`, [id, runId]);
  return id;
}

async function statusOf(id: string) {
  const [row] = await rt.database.query<{ status: string }>(`select status from sends where id = $1`, [id]);
  return row!.status;
}

async function eventsOf(id: string) {
  return rt.database.query<{ type: string; payload: Record<string, unknown> }>(
    `select type, payload from send_events where send_id = $1 order by id`,
    [id],
  );
}

const openToken = (sendId: string) => signToken(key(), { kind: 'open', sendId });
const clickToken = (sendId: string, url: string) => signToken(key(), { kind: 'click', sendId, url });

beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await signUp(app(), rt.mailer);
  business = await createBusiness(app(), owner, 'Tracked Shop');
  other = await createBusiness(app(), owner, 'Other Shop');
});
afterAll(async () => rt?.destroy());

describe('GET /t/o/{token}.gif', () => {
  it('answers a 1×1 GIF that is never cached, records the open and raises the send', async () => {
    const id = await sentEmail(business.id);
    const res = await app().inject({
      url: `/t/o/${openToken(id)}.gif`,
      headers: { 'user-agent': CHROME },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(res.headers['cache-control']).toContain('no-store');
    // Webmail pages embed the pixel from another origin.
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    await flush();
    expect(await statusOf(id)).toBe('opened');
    expect(await eventsOf(id)).toEqual([
      { type: 'opened', payload: { user_agent: CHROME, ip: '203.0.113.9', machine: false } },
    ]);
  });

  it('keeps a privacy proxy’s fetch flagged as a machine open, without raising', async () => {
    const id = await sentEmail(business.id);
    const proxy = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
    const res = await app().inject({ url: `/t/o/${openToken(id)}.gif`, headers: { 'user-agent': proxy } });
    expect(res.statusCode).toBe(200);
    await flush();
    expect(await statusOf(id)).toBe('sent');
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({
      type: 'opened',
      payload: { machine: true, reason: 'google_image_proxy', user_agent: proxy },
    });
  });

  it('answers the GIF to forged or altered tokens and records nothing', async () => {
    const id = await sentEmail(business.id);
    const good = Buffer.from(openToken(id), 'base64url');
    const altered = Buffer.from(good);
    altered[4]! ^= 0xff;
    const foreign = signToken(trackingKey('another-secret-that-is-32-characters-long'), {
      kind: 'open',
      sendId: id,
    });
    for (const token of [
      altered.toString('base64url'),
      openToken(id).slice(0, -3),
      foreign,
      'nonsense',
      clickToken(id, 'https://x.example/'),
    ]) {
      const res = await app().inject({ url: `/t/o/${token}.gif`, headers: { 'user-agent': CHROME } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
    }
    await flush();
    expect(await eventsOf(id)).toEqual([]);
    expect(await statusOf(id)).toBe('sent');
  });
});

describe('GET /t/c/{token}', () => {
  it('redirects to the signed destination, records the click with its URL and raises the send', async () => {
    const id = await sentEmail(business.id);
    const url = 'https://shop.example/sale?utm_source=mail&x=1';
    const res = await app().inject({ url: `/t/c/${clickToken(id, url)}`, headers: { 'user-agent': CHROME } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(url);
    await flush();
    expect(await statusOf(id)).toBe('clicked');
    expect((await eventsOf(id))[0]).toMatchObject({ type: 'clicked', payload: { url, machine: false } });
  });

  it('flags HEAD probes, scanners and clicks within seconds of sending as machine clicks', async () => {
    const url = 'https://shop.example/a';
    const head = await sentEmail(business.id);
    const r1 = await app().inject({
      method: 'HEAD',
      url: `/t/c/${clickToken(head, url)}`,
      headers: { 'user-agent': CHROME },
    });
    expect(r1.statusCode).toBe(302);
    const scanner = await sentEmail(business.id);
    await app().inject({
      url: `/t/c/${clickToken(scanner, url)}`,
      headers: { 'user-agent': 'Barracuda Sentinel (EE)' },
    });
    const fast = await sentEmail(business.id, { agoMs: 1_000 });
    const r3 = await app().inject({
      url: `/t/c/${clickToken(fast, url)}`,
      headers: { 'user-agent': CHROME },
    });
    expect(r3.headers.location).toBe(url);
    await flush();
    for (const [id, reason] of [
      [head, 'head_request'],
      [scanner, 'barracuda'],
      [fast, 'too_fast'],
    ] as const) {
      expect(await statusOf(id)).toBe('sent');
      expect((await eventsOf(id))[0]).toMatchObject({
        type: 'clicked',
        payload: { url, machine: true, reason },
      });
    }
  });

  it('refuses altered send ids, altered URLs and truncated tags with a 404 page, never a redirect', async () => {
    const id = await sentEmail(business.id);
    const good = clickToken(id, 'https://shop.example/sale');
    const sendAltered = Buffer.from(good, 'base64url');
    sendAltered[3]! ^= 1;
    const urlAltered = Buffer.from(
      Buffer.from(good, 'base64url').toString('latin1').replace('shop.example', 'evil.example'),
      'latin1',
    );
    const foreign = signToken(trackingKey('another-secret-that-is-32-characters-long'), {
      kind: 'click',
      sendId: id,
      url: 'https://evil.example/',
    });
    for (const token of [
      sendAltered.toString('base64url'),
      urlAltered.toString('base64url'),
      good.slice(0, -4),
      foreign,
      openToken(id),
      'x',
    ]) {
      const res = await app().inject({ url: `/t/c/${token}`, headers: { 'user-agent': CHROME } });
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toMatch(/not valid/);
      expect(res.body).not.toContain('evil');
    }
    await flush();
    expect(await eventsOf(id)).toEqual([]);
  });

  it('records nothing for a signed token whose send does not exist', async () => {
    const ghost = '11111111-2222-4333-8444-555555555555';
    const res = await app().inject({
      url: `/t/c/${clickToken(ghost, 'https://shop.example/')}`,
      headers: { 'user-agent': CHROME },
    });
    expect(res.statusCode).toBe(302);
    await flush();
    expect(await eventsOf(ghost)).toEqual([]);
  });

  it('round-trips a mail instrumented by instrumentHtml', async () => {
    const id = await sentEmail(business.id);
    const html = instrumentHtml('<body><a href="https://shop.example/x?a=1&amp;b=2">x</a></body>', id, {
      publicUrl: rt.config.PUBLIC_URL,
      secret: rt.config.APP_SECRET,
    });
    const click = /href="[^"]*(\/t\/c\/[^"]+)"/.exec(html)![1]!;
    const pixel = /src="[^"]*(\/t\/o\/[^"]+)"/.exec(html)![1]!;
    expect((await app().inject({ url: pixel, headers: { 'user-agent': CHROME } })).statusCode).toBe(200);
    const res = await app().inject({ url: click, headers: { 'user-agent': CHROME } });
    expect(res.headers.location).toBe('https://shop.example/x?a=1&b=2');
    await flush();
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['opened', 'clicked']);
  });
});

describe('GET /api/email/events/{trackingId}/', () => {
  it('answers the message as sent and its timeline with human and machine hits', async () => {
    const id = await sentEmail(business.id);
    await app().inject({
      url: `/t/o/${openToken(id)}.gif`,
      headers: { 'user-agent': 'YahooMailProxy; https://help.yahoo.com' },
    });
    await flush();
    await app().inject({ url: `/t/o/${openToken(id)}.gif`, headers: { 'user-agent': CHROME } });
    await flush();
    await app().inject({
      url: `/t/c/${clickToken(id, 'https://shop.example/sale')}`,
      headers: { 'user-agent': CHROME },
    });
    await flush();
    const res = await app().inject({ url: `/api/email/events/${id}/`, headers: as(owner, business) });
    expect(res.statusCode).toBe(200);
    const detail = res.json().result;
    expect(detail).toMatchObject({
      tracking_id: id,
      to: 'reader@example.test',
      subject: 'Autumn sale',
      status: 'clicked',
      message: {
        from: 'Shop <news@shop.example>',
        to: 'reader@example.test',
        subject: 'Autumn sale',
        text: 'Hello\n\nSale: https://shop.example/sale',
      },
    });
    expect(detail.message.html).toContain('<p>Hello</p>');
    expect(
      detail.events.map((e: { status: string; machine: boolean | null }) => [e.status, e.machine]),
    ).toEqual([
      ['queued', null],
      ['sent', null],
      ['opened', true],
      ['opened', false],
      ['clicked', false],
    ]);
    expect(detail.events[2].reason).toBe('yahoo_proxy');
    expect(detail.events[4].url).toBe('https://shop.example/sale');

    const list = await app().inject({
      url: `/api/email/events/?status=clicked&search=autumn`,
      headers: as(owner, business),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().result.results.map((l: { tracking_id: string }) => l.tracking_id)).toContain(id);
    expect(list.json().result.results[0].subject).toBe('Autumn sale');

    const csv = await app().inject({
      url: `/api/email/events/download/?status=clicked`,
      headers: as(owner, business),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe(
      'tracking_id,created_at,updated_at,to,subject,template_name,status,error_code,error_message,message_id,sent_by',
    );
    const line = csv.body.split('\r\n').find((l) => l.startsWith(`${id},`))!;
    expect(line.split(',').slice(3)).toEqual([
      'reader@example.test',
      'Autumn sale',
      '',
      'clicked',
      '',
      '',
      `<${id}@shop.example>`,
      '',
    ]);

    const elsewhere = await app().inject({ url: `/api/email/events/${id}/`, headers: as(owner, other) });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('writes the CSV cells a spreadsheet would misread safely: formulas, quotes, commas, line breaks', async () => {
    const failed = await sentEmail(business.id);
    const deferred = await sentEmail(business.id);
    const [user] = await rt.database.query<{ id: number; first_name: string; last_name: string }>(
      `select id, first_name, last_name from users where email = $1`,
      [owner.email],
    );
    await rt.database.query(
      `update sends set subject = $2, recipient = '-dash@example.test', status = 'failed', error_code = '550',
         error_message = 'Mailbox full, try later', provider_message_id = null, created_by = $3 where id = $1`,
      [failed, '=SUM(1,2) "quoted"\nline', user!.id],
    );
    await rt.database.query(
      `update sends set subject = '@home', status = 'failed', error_code = 'ECONNRESET', template_name = 'A, B'
       where id = $1`,
      [deferred],
    );
    const csv = await app().inject({ url: `/api/email/events/download/`, headers: as(owner, business) });
    expect(csv.statusCode).toBe(200);
    const rows = parseCsv(csv.body);
    const row = (id: string) => rows.find((r) => r[0] === id)!.slice(3);
    expect(row(failed)).toEqual([
      "'-dash@example.test",
      `'=SUM(1,2) "quoted"\nline`,
      '',
      'error',
      '550',
      'Mailbox full, try later',
      '',
      `${user!.first_name} ${user!.last_name}`,
    ]);
    expect(row(deferred)).toEqual([
      'reader@example.test',
      "'@home",
      'A, B',
      'failed',
      '',
      '',
      `<${deferred}@shop.example>`,
      '',
    ]);
    // The raw text: the quoted cell keeps its line break, quotes doubled.
    expect(csv.body).toContain(`,"'=SUM(1,2) ""quoted""\nline",`);
  });

  it('shows a bounce with the mail server’s words', async () => {
    const id = await sentEmail(business.id);
    await sends.recordSendEvent(db(), {
      sendId: id,
      type: 'bounced',
      payload: { diagnostic: '550 5.1.1 <reader@example.test>: Recipient address rejected', status: '5.1.1' },
      errorCode: '550',
      errorMessage: '550 5.1.1 Recipient address rejected',
    });
    const res = await app().inject({ url: `/api/email/events/${id}/`, headers: as(owner, business) });
    const detail = res.json().result;
    expect(detail.status).toBe('bounced');
    expect(detail.events.at(-1)).toMatchObject({
      status: 'bounced',
      error: { title: '5.1.1', details: '550 5.1.1 <reader@example.test>: Recipient address rejected' },
    });
  });

  it('filters by agent_id: the sends of that agent’s runs, never another business’s agent', async () => {
    const mine = await agentWithRun(business.id);
    const another = await agentWithRun(business.id);
    const theirs = await agentWithRun(other.id);
    const sentByMine = await byAgent(business.id, mine.runId);
    await byAgent(business.id, another.runId);
    const sentByTheirs = await byAgent(other.id, theirs.runId);
    await sentEmail(business.id);

    const ids = async (query: string, b: TBusiness = business) => {
      const res = await app().inject({ url: `/api/email/events/?${query}`, headers: as(owner, b) });
      expect(res.statusCode).toBe(200);
      return res.json().result.results.map((l: { tracking_id: string }) => l.tracking_id) as string[];
    };
    expect(await ids(`agent_id=${mine.agentId}`)).toEqual([sentByMine]);
    expect(await ids(`agent_id=${theirs.agentId}&page_size=100`, other)).toEqual([sentByTheirs]);
    // Another business's agent finds nothing here, though its run sent mail.
    expect(await ids(`agent_id=${theirs.agentId}`)).toEqual([]);
    const csv = await app().inject({
      url: `/api/email/events/download/?agent_id=${mine.agentId}`,
      headers: as(owner, business),
    });
    expect(
      parseCsv(csv.body)
        .slice(1)
        .filter((r) => r.length > 1)
        .map((r) => r[0]),
    ).toEqual([sentByMine]);
    const bad = await app().inject({ url: `/api/email/events/?agent_id=x`, headers: as(owner, business) });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result)).toContain('agent_id');
  });
});

describe('GET /api/metrics/email-metrics/', () => {
  const day = (d: string, h = 12) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00Z`);
  let seeded: TBusiness;

  beforeAll(async () => {
    seeded = await createBusiness(app(), owner, 'Metrics Shop');
    const b = seeded.id;
    const hit = async (id: string, kind: 'open' | 'click', agent = CHROME) =>
      app().inject({
        url:
          kind === 'open' ? `/t/o/${openToken(id)}.gif` : `/t/c/${clickToken(id, 'https://shop.example/')}`,
        headers: { 'user-agent': agent },
      });
    // 2026-03-01: three sent; one opened by a person twice and clicked; one opened by a proxy only.
    const a = await sentEmail(b, { createdAt: day('2026-03-01') });
    const m = await sentEmail(b, { createdAt: day('2026-03-01') });
    await sentEmail(b, { createdAt: day('2026-03-01') });
    await hit(a, 'open');
    await hit(a, 'open');
    await hit(a, 'click');
    await hit(m, 'open', 'Mozilla/5.0 (via ggpht.com GoogleImageProxy)');
    await hit(m, 'click', 'Mimecast-URL-Protect');
    // 2026-03-03: one bounced, one complained, one unsubscribed, one still queued, one of template 7.
    const bounced = await sentEmail(b, { createdAt: day('2026-03-03') });
    await sends.recordSendEvent(db(), { sendId: bounced, type: 'bounced', errorMessage: '550 no such user' });
    const complained = await sentEmail(b, { createdAt: day('2026-03-03') });
    await sends.recordSendEvent(db(), { sendId: complained, type: 'complained' });
    const unsub = await sentEmail(b, { createdAt: day('2026-03-03'), templateId: 7 });
    await sends.recordSendEvent(db(), { sendId: unsub, type: 'unsubscribed', raise: false });
    const queued = await sends.createQueued(db(), {
      businessId: b,
      channel: 'email',
      cause: 'test',
      recipient: 'later@example.test',
      providerRequest: {},
    });
    await rt.database.query(`update sends set created_at = $2 where id = $1`, [
      queued.id,
      day('2026-03-03').toISOString(),
    ]);
    // Outside the range, and another business's mail on the same days.
    await sentEmail(b, { createdAt: day('2026-02-20') });
    const theirs = await sentEmail(other.id, { createdAt: day('2026-03-01') });
    await hit(theirs, 'open');
    await flush();
  });

  const metrics = (query: string, biz: TBusiness = seeded) =>
    app().inject({ url: `/api/metrics/email-metrics/?${query}`, headers: as(owner, biz) });

  it('answers totals, rates (human and all) and a zero-filled daily series', async () => {
    const res = await metrics('created_at__gte=2026-03-01T00:00:00Z&created_at__lte=2026-03-03T23:59:59Z');
    expect(res.statusCode).toBe(200);
    const { totals, rates, series } = res.json().result;
    expect(totals).toEqual({
      sent: 6,
      delivered: 5,
      opened: 2,
      opened_human: 1,
      clicked: 2,
      clicked_human: 1,
      bounced: 1,
      complained: 1,
      unsubscribed: 1,
    });
    expect(rates).toEqual({
      delivery: 0.8333,
      open: 0.4,
      open_human: 0.2,
      click: 0.4,
      click_human: 0.2,
      click_to_open: 1,
      click_to_open_human: 1,
      bounce: 0.1667,
      complaint: 0.2,
      unsubscribe: 0.2,
    });
    expect(series).toEqual([
      { date: '2026-03-01', sent: 3, delivered: 3, opened: 2, clicked: 2, bounced: 0 },
      { date: '2026-03-02', sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0 },
      { date: '2026-03-03', sent: 3, delivered: 2, opened: 0, clicked: 0, bounced: 1 },
    ]);
  });

  it('filters by template and never counts another business’s mail', async () => {
    const range = 'created_at__gte=2026-03-01T00:00:00Z&created_at__lte=2026-03-03T23:59:59Z';
    const byTemplate = (await metrics(`${range}&template_id=7`)).json().result;
    expect(byTemplate.totals).toMatchObject({ sent: 1, unsubscribed: 1, opened: 0 });
    const theirs = (await metrics(range, other)).json().result;
    expect(theirs.totals).toMatchObject({ sent: 1, opened: 1, opened_human: 1 });
    const none = (await metrics(`${range}&agent_id=agent-1`)).json().result;
    expect(none.totals.sent).toBe(0);
    expect(none.rates.open).toBeNull();
  });

  it('filters by agent: the sends of its runs, none of another business’s agent', async () => {
    const range = 'created_at__gte=2025-06-01T00:00:00Z&created_at__lte=2025-06-01T23:59:59Z';
    const mine = await agentWithRun(business.id);
    const theirs = await agentWithRun(other.id);
    await byAgent(business.id, mine.runId, { createdAt: new Date('2025-06-01T10:00:00Z') });
    await sentEmail(business.id, { createdAt: new Date('2025-06-01T11:00:00Z') });
    await byAgent(other.id, theirs.runId, { createdAt: new Date('2025-06-01T12:00:00Z') });
    const sent = async (query: string, b: TBusiness = business) =>
      (await metrics(`${range}${query}`, b)).json().result.totals.sent as number;
    expect(await sent('')).toBe(2);
    expect(await sent(`&agent_id=${mine.agentId}`)).toBe(1);
    expect(await sent(`&agent_id=${theirs.agentId}`)).toBe(0);
    expect(await sent(`&agent_id=${theirs.agentId}`, other)).toBe(1);
  });

  it('answers 400 with field messages for bad input, 401 without a session', async () => {
    for (const [query, field] of [
      ['created_at__gte=yesterday', 'created_at__gte'],
      ['created_at__gte=2026-03-03T00:00:00Z&created_at__lte=2026-03-01T00:00:00Z', 'created_at__lte'],
      ['created_at__gte=2024-01-01T00:00:00Z&created_at__lte=2026-01-01T00:00:00Z', 'created_at__gte'],
      ['template_id=abc', 'template_id'],
    ] as const) {
      const res = await metrics(query);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().result)).toContain(field);
    }
    const anonymous = await app().inject({ url: '/api/metrics/email-metrics/' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('over the HTTP server (answered before Fastify)', () => {
  let base: string;
  beforeAll(async () => {
    await app().listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app().server.address() as { port: number }).port}`;
  });

  /** An answer's headers without the per-request ones (date, connection; x-request-id is Fastify's). */
  const stable = (headers: Record<string, unknown>) => {
    const { date: _d, connection: _c, 'keep-alive': _k, 'x-request-id': _r, ...rest } = headers;
    return rest;
  };
  const over = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { 'user-agent': CHROME, ...(init.headers as Record<string, string>) },
    });
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  it('answers the pixel, a redirect and a bad link as the routes do, and records each hit once', async () => {
    const id = await sentEmail(business.id);
    const url = 'https://shop.example/sale?utm_source=mail&x=1';
    for (const path of [
      `/t/o/${openToken(id)}.gif`,
      `/t/c/${clickToken(id, url)}`,
      `/t/c/${openToken(id)}`,
    ]) {
      const fast = await over(path);
      const routed = await app().inject({ url: path, headers: { 'user-agent': CHROME } });
      // Fastify gives every answer a request id; the server's own answer has none: it never got there.
      expect(fast.headers['x-request-id']).toBeUndefined();
      expect(routed.headers['x-request-id']).toBeDefined();
      expect(fast.status).toBe(routed.statusCode);
      expect(stable(fast.headers)).toEqual(stable(routed.headers as Record<string, unknown>));
      expect(fast.body.equals(routed.rawPayload)).toBe(true);
    }
    await flush();
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['opened', 'opened', 'clicked', 'clicked']);
    expect(events[0]!.payload).toMatchObject({ machine: false, user_agent: CHROME, ip: '127.0.0.1' });
    expect(events[2]!.payload).toMatchObject({ url, machine: false });
    expect(await statusOf(id)).toBe('clicked');
  });

  it('answers HEAD without a body, flagged as a machine hit; a query string and a trailing slash are ignored', async () => {
    const id = await sentEmail(business.id);
    const url = 'https://shop.example/a';
    const head = await over(`/t/c/${clickToken(id, url)}`, { method: 'HEAD' });
    expect(head.status).toBe(302);
    expect(head.headers.location).toBe(url);
    expect(head.body.length).toBe(0);
    const pixel = await over(`/t/o/${openToken(id)}.gif/?utm=1`);
    expect(pixel.status).toBe(200);
    expect(pixel.headers['content-type']).toBe('image/gif');
    expect(pixel.headers['x-request-id']).toBeUndefined();
    await flush();
    expect((await eventsOf(id)).map((e) => [e.type, e.payload.machine, e.payload.reason ?? null])).toEqual([
      ['clicked', true, 'head_request'],
      ['opened', false, null],
    ]);
  });

  it('leaves to the routes a URL that is not plain ASCII, escapes in the path and CORS requests, recorded once', async () => {
    const id = await sentEmail(business.id);
    const url = 'https://shop.example/été';
    const click = await over(`/t/c/${clickToken(id, url)}`);
    expect(click.headers['x-request-id']).toBeDefined();
    expect(click.status).toBe(302);
    // The router decodes %-escapes in the token: the same open, answered and recorded by the route.
    const token = openToken(id);
    const hex = token.charCodeAt(2).toString(16).toUpperCase();
    const escaped = await over(`/t/o/${token.slice(0, 2)}%${hex}${token.slice(3)}.gif`);
    expect(escaped.headers['x-request-id']).toBeDefined();
    expect(escaped.status).toBe(200);
    const cors = await over(`/t/o/${openToken(id)}.gif`, {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(cors.headers['x-request-id']).toBeDefined();
    expect(cors.status).toBe(200);
    // Other paths and methods are Fastify's as before.
    expect((await over('/t/x/abc')).headers['x-request-id']).toBeDefined();
    expect(
      (await over(`/t/o/${openToken(id)}.gif`, { method: 'POST' })).headers['x-request-id'],
    ).toBeDefined();
    await flush();
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['clicked', 'opened', 'opened']);
  });
});
