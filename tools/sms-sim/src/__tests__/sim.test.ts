// The simulator over real HTTP: the Messages API as a Twilio client calls it, status callbacks and
// inbound texts as a receiver sees them (signatures checked independently).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { segmentsOf, signatureFor, startSmsSim, type SimOptions, type SmsSim } from '../index';

const SID = 'AC11111111111111111111111111111111';
const TOKEN = 'auth-token-0123456789abcdef012345';
const KEY = { sid: 'SK22222222222222222222222222222222', secret: 'key-secret-0123456789abcdef' };
const FROM = '+15550100200';
const SERVICE = 'MG33333333333333333333333333333333';
const SERVICE_NUMBER = '+15550100300';
const PHONE = '+14155550123';

type Post = { url: string; headers: IncomingHttpHeaders; params: Record<string, string> };
type Receiver = { url: string; posts: Post[]; close(): Promise<void> };

async function startReceiver(): Promise<Receiver> {
  const posts: Post[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({
        url: req.url ?? '',
        headers: req.headers,
        params: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      });
      res.writeHead(req.url?.includes('inbound') ? 200 : 204, { 'content-type': 'text/xml' });
      res.end(req.url?.includes('inbound') ? '<Response></Response>' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, posts, close: () => new Promise((r) => server.close(() => r())) };
}

/** Twilio's algorithm written out again, so the simulator's is checked, not trusted. */
function expectedSignature(url: string, params: Record<string, string>) {
  let data = url;
  for (const k of Object.keys(params).sort()) data += k + params[k];
  return createHmac('sha1', TOKEN).update(data).digest('base64');
}

let hook: Receiver;
let sim: SmsSim;

async function start(extra: Partial<SimOptions> = {}) {
  return startSmsSim({
    accounts: [
      {
        accountSid: SID,
        authToken: TOKEN,
        apiKeys: [KEY],
        numbers: [FROM, SERVICE_NUMBER],
        messagingServices: [{ sid: SERVICE, numbers: [SERVICE_NUMBER] }],
        inboundUrl: `${hook.url}/inbound`,
      },
    ],
    switches: { statusDelayMs: 5 },
    ...extra,
  });
}

beforeEach(async () => {
  hook = await startReceiver();
  sim = await start();
});
afterEach(async () => {
  await sim.close();
  await hook.close();
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

async function create(form: Record<string, string>, auth = basic(SID, TOKEN)) {
  const res = await fetch(`${sim.apiUrl}/2010-04-01/Accounts/${SID}/Messages.json`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

const statusesFor = (sid: string) =>
  hook.posts.filter((p) => p.params.MessageSid === sid && p.url === '/status');

describe('Twilio’s signature', () => {
  it('matches the example of Twilio’s security docs', () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    };
    expect(signatureFor('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });
});

describe('Messages.json', () => {
  it('creates a message (201, queued) and posts signed sent and delivered callbacks, then prices it', async () => {
    const res = await create({ To: PHONE, From: FROM, Body: 'Hello', StatusCallback: `${hook.url}/status` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      account_sid: SID,
      to: PHONE,
      from: FROM,
      body: 'Hello',
      status: 'queued',
      num_segments: '1',
      price: null,
      direction: 'outbound-api',
      api_version: '2010-04-01',
    });
    const sid = res.body.sid as string;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    await sim.waitFor(() => statusesFor(sid).length === 2);
    const posts = statusesFor(sid);
    expect(posts.map((p) => p.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const post of posts) {
      expect(post.headers['content-type']).toContain('application/x-www-form-urlencoded');
      expect(post.headers['x-twilio-signature']).toBe(expectedSignature(`${hook.url}/status`, post.params));
      expect(post.params).toMatchObject({ AccountSid: SID, From: FROM, To: PHONE, SmsSid: sid });
      expect(post.params.ErrorCode).toBeUndefined();
    }
    await sim.waitFor(() => sim.messages[0]!.price !== null);
    const fetched = await fetch(`${sim.apiUrl}/2010-04-01/Accounts/${SID}/Messages/${sid}.json`, {
      headers: { authorization: basic(SID, TOKEN) },
    });
    expect(await fetched.json()).toMatchObject({
      sid,
      status: 'delivered',
      price: '-0.00790',
      price_unit: 'USD',
    });
  });

  it('takes an API key pair, and answers 401 (20003) to a wrong secret', async () => {
    expect((await create({ To: PHONE, From: FROM, Body: 'Hi' }, basic(KEY.sid, KEY.secret))).status).toBe(
      201,
    );
    const refused = await create({ To: PHONE, From: FROM, Body: 'Hi' }, basic(SID, 'wrong'));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 20003, status: 401 });
  });

  it('validates like Twilio: To in E.164, a From of the account, a body of at most 1,600 characters', async () => {
    expect((await create({ To: '4155550123', From: FROM, Body: 'x' })).body).toMatchObject({ code: 21211 });
    expect((await create({ From: FROM, Body: 'x' })).body).toMatchObject({ code: 21604 });
    expect((await create({ To: PHONE, Body: 'x' })).body).toMatchObject({ code: 21603 });
    expect((await create({ To: PHONE, From: '+15559999999', Body: 'x' })).body).toMatchObject({
      code: 21659,
    });
    expect((await create({ To: PHONE, From: FROM })).body).toMatchObject({ code: 21602 });
    expect((await create({ To: PHONE, From: FROM, Body: 'x'.repeat(1601) })).body).toMatchObject({
      code: 21617,
      status: 400,
    });
    expect((await create({ To: '+15005550009', From: FROM, Body: 'x' })).body).toMatchObject({ code: 21614 });
  });

  it('counts segments as carriers do (GSM-7 and UCS-2, with the concatenation header)', async () => {
    expect(segmentsOf('a'.repeat(160))).toEqual({ segments: 1, encoding: 'GSM' });
    expect(segmentsOf('a'.repeat(161))).toEqual({ segments: 2, encoding: 'GSM' });
    expect(segmentsOf('€'.repeat(80))).toEqual({ segments: 1, encoding: 'GSM' });
    expect(segmentsOf('€'.repeat(81))).toEqual({ segments: 2, encoding: 'GSM' });
    expect(segmentsOf('é'.repeat(70) + 'ł')).toEqual({ segments: 2, encoding: 'UCS2' });
    expect(segmentsOf('ł'.repeat(70))).toEqual({ segments: 1, encoding: 'UCS2' });
    const res = await create({ To: PHONE, From: FROM, Body: '👋'.repeat(40) });
    expect(res.body.num_segments).toBe('2');
  });

  it('answers 429 (20429) with Retry-After when told to, or past its rate', async () => {
    sim.failNextSends(1);
    const limited = await create({ To: PHONE, From: FROM, Body: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 20429 });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await create({ To: PHONE, From: FROM, Body: 'x' })).status).toBe(201);
    sim.set({ ratePerSecond: 1 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await create({ To: PHONE, From: FROM, Body: 'x' })).status);
    expect(answers).toContain(429);
  });

  it('reports delivery failures with their code, out of order and twice when switched', async () => {
    sim.setOutcome(PHONE, 30003);
    sim.set({ outOfOrder: true, duplicateCallbacks: true });
    const res = await create({ To: PHONE, From: FROM, Body: 'x', StatusCallback: `${hook.url}/status` });
    const sid = res.body.sid as string;
    await sim.waitFor(() => statusesFor(sid).length === 4);
    const seen = statusesFor(sid).map((p) => p.params.MessageStatus);
    expect(seen[0]).toBe('undelivered');
    expect(seen.filter((s) => s === 'undelivered')).toHaveLength(2);
    expect(statusesFor(sid).find((p) => p.params.MessageStatus === 'undelivered')!.params.ErrorCode).toBe(
      '30003',
    );
    // The resource ends at its real last status whatever the order of the callbacks.
    await sim.waitFor(() => sim.messages[0]!.status === 'undelivered');
  });

  it('sends through a Messaging Service: accepted, then a queued callback', async () => {
    const res = await create({
      To: PHONE,
      MessagingServiceSid: SERVICE,
      Body: 'x',
      StatusCallback: `${hook.url}/status`,
    });
    expect(res.body).toMatchObject({ status: 'accepted', messaging_service_sid: SERVICE, from: null });
    await sim.waitFor(() => statusesFor(res.body.sid as string).length === 3);
    expect(statusesFor(res.body.sid as string).map((p) => p.params.MessageStatus)).toEqual([
      'queued',
      'sent',
      'delivered',
    ]);
  });

  it('lists the account’s messages one page at a time', async () => {
    await create({ To: PHONE, From: FROM, Body: 'one' });
    await create({ To: PHONE, From: FROM, Body: 'two' });
    const res = await fetch(`${sim.apiUrl}/2010-04-01/Accounts/${SID}/Messages.json?PageSize=1`, {
      headers: { authorization: basic(SID, TOKEN) },
    });
    const page = (await res.json()) as { messages: { body: string }[]; next_page_uri: string | null };
    expect(page.messages.map((m) => m.body)).toEqual(['two']);
    expect(page.next_page_uri).toContain('Page=1');
  });
});

describe('inbound texts', () => {
  it('posts a signed inbound text; STOP opts the phone out (21610 after) with OptOutType, START back in', async () => {
    const first = await sim.sendInbound({ from: PHONE, to: FROM, body: 'Hello there' });
    expect(first.answer).toBe(200);
    const post = hook.posts.at(-1)!;
    expect(post.url).toBe('/inbound');
    expect(post.params).toMatchObject({
      From: PHONE,
      To: FROM,
      Body: 'Hello there',
      AccountSid: SID,
      SmsStatus: 'received',
    });
    expect(post.params.OptOutType).toBeUndefined();
    expect(post.headers['x-twilio-signature']).toBe(expectedSignature(`${hook.url}/inbound`, post.params));

    await sim.sendInbound({ from: PHONE, to: FROM, body: ' stop ' });
    expect(hook.posts.at(-1)!.params.OptOutType).toBe('STOP');
    expect((await create({ To: PHONE, From: FROM, Body: 'x' })).body).toMatchObject({ code: 21610 });

    await sim.sendInbound({ from: PHONE, to: FROM, body: 'START' });
    expect(hook.posts.at(-1)!.params.OptOutType).toBe('START');
    expect((await create({ To: PHONE, From: FROM, Body: 'x' })).status).toBe(201);
  });

  it('serves the phone page and its thread', async () => {
    const page = await fetch(`${sim.url}/phone?number=${encodeURIComponent(PHONE)}`);
    expect(await page.text()).toContain('role="log"');
    await create({ To: PHONE, From: FROM, Body: 'to the phone' });
    const thread = (await (
      await fetch(`${sim.url}/sim/thread?number=${encodeURIComponent(PHONE)}`)
    ).json()) as { messages: { body: string }[] };
    expect(thread.messages.map((m) => m.body)).toEqual(['to the phone']);
  });
});
