// The bearer token of a media download goes only to Meta's media host or the configured Graph
// origin: a URL Graph answers on any other host (or a redirect to one) is refused before a request
// is made, and the media job fails with an error naming the host.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import {
  GraphClient,
  isTrustedMediaUrl,
  UntrustedMediaUrlError,
} from '../../../channels/whatsapp-cloud/whatsapp-cloud.graph';

const TOKEN = 'EAAG-media-hosts-token-0123456789';
const APP_SECRET = 'media-hosts-app-secret-0123456789abcdef';
const PHONE_NUMBER_ID = '109876500777';
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

type Listening = { server: Server; origin: string; seen: { path: string; headers: IncomingHttpHeaders }[] };
type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer };

/** A local HTTP server recording every request it gets. */
async function listen(answer: (path: string, origin: string) => Answer) {
  const seen: Listening['seen'] = [];
  let origin = '';
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const a = answer(req.url ?? '', origin);
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, seen } satisfies Listening;
}

let foreign: Listening;
let graph: Listening;

beforeAll(async () => {
  // Another host (another port is another origin): it would collect the token.
  foreign = await listen(() => ({ status: 200, headers: { 'content-type': 'image/png' }, body: PNG }));
  graph = await listen((path, origin): Answer => {
    if (path.startsWith('/v21.0/redirect'))
      return { status: 302, headers: { location: `${foreign.origin}/stolen` } };
    if (path.startsWith('/v21.0/own-bytes'))
      return { status: 200, headers: { 'content-type': 'image/png' }, body: PNG };
    if (path.startsWith('/v21.0/hop'))
      return { status: 302, headers: { location: `${origin}/v21.0/own-bytes` } };
    // GET /{media-id}: Meta's shape, with a download URL on the foreign host.
    const id = path.split('/').pop()!;
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `${foreign.origin}/media/${id}?sig=abc`,
        mime_type: 'image/png',
        file_size: 8,
        id,
      }),
    };
  });
});
afterAll(async () => {
  for (const s of [foreign, graph]) await new Promise((r) => s?.server.close(r));
});

describe('which hosts get the token', () => {
  const graphOrigin = 'http://127.0.0.1:4010';
  it.each([
    ['https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1&ext=2&hash=3', true],
    [`${graphOrigin}/media-download/1?exp=2&sig=3`, true],
    ['http://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', false],
    ['https://lookaside.fbsbx.com:8443/whatsapp_business/attachments/?mid=1', false],
    ['https://lookaside.fbsbx.com.evil.example/whatsapp_business/attachments/?mid=1', false],
    ['https://evil.example/lookaside.fbsbx.com/', false],
    ['https://user@evil.example/', false],
    ['http://127.0.0.1:4011/media-download/1', false],
  ])('%s → %s', (url, trusted) => {
    expect(isTrustedMediaUrl(new URL(url), graphOrigin)).toBe(trusted);
  });
});

describe('GraphClient.download', () => {
  const client = () => new GraphClient({ baseUrl: `${graph.origin}/v21.0`, retryDelaysMs: [] });
  const creds = { phoneNumberId: PHONE_NUMBER_ID, wabaId: '1', accessToken: TOKEN };

  it('refuses a URL on another host without requesting it', async () => {
    const before = foreign.seen.length;
    const err = await client()
      .download(creds, `${foreign.origin}/media/1`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UntrustedMediaUrlError);
    expect((err as Error).message).toContain(new URL(foreign.origin).host);
    expect((err as Error).message).not.toContain(TOKEN);
    expect(foreign.seen.length).toBe(before);
  });

  it('refuses a redirect to another host, and follows one within the trusted hosts', async () => {
    const before = foreign.seen.length;
    await expect(client().download(creds, `${graph.origin}/v21.0/redirect`)).rejects.toBeInstanceOf(
      UntrustedMediaUrlError,
    );
    expect(foreign.seen.length).toBe(before);
    expect((await client().download(creds, `${graph.origin}/v21.0/hop`)).equals(PNG)).toBe(true);
    expect(graph.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('the media job', () => {
  let rt: TestRuntime;
  let owner: Session;
  let business: TBusiness;

  beforeAll(async () => {
    rt = await createTestRuntime({ workers: true, env: { WHATSAPP_GRAPH_URL: `${graph.origin}/v21.0` } });
    owner = await signUp(rt.app!, rt.mailer);
    business = await createBusiness(rt.app!, owner, 'Media Hosts Co');
    const res = await rt.app!.inject({
      method: 'PUT',
      url: '/api/whatsapp/account/',
      headers: as(owner, business),
      payload: {
        phone_number_id: PHONE_NUMBER_ID,
        waba_id: '200000000000777',
        display_phone_number: '+1 555 0777',
        verify_token: 'verify-the-media-hosts',
        access_token: TOKEN,
        app_secret: APP_SECRET,
      },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => rt?.destroy());

  it('fails with an error naming the host when Graph answers a download URL elsewhere, and sends it no token', async () => {
    const mediaId = `7${Date.now()}`;
    const from = '4915700000777';
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '200000000000777',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550777', phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: 'Greta' }, wa_id: from }],
                messages: [
                  {
                    from,
                    id: `wamid.HOSTS${Date.now()}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'image',
                    image: { id: mediaId, mime_type: 'image/png' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    const res = await rt.app!.inject({
      method: 'POST',
      url: '/api/whatsapp/webhook/',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}`,
      },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    const before = foreign.seen.length;

    await expect
      .poll(
        async () =>
          (
            await rt.database.query<{ last_error: string | null }>(
              'select last_error from whatsapp_media where business_id = $1 and id = $2',
              [business.id, mediaId],
            )
          )[0]?.last_error ?? null,
        { timeout: 60_000, interval: 50 },
      )
      .toContain(`(${new URL(foreign.origin).host})`);
    // Graph was asked (with the token), the foreign host never was.
    expect(graph.seen.some((r) => r.path === `/v21.0/${mediaId}`)).toBe(true);
    expect(foreign.seen.length).toBe(before);
    const [row] = await rt.database.query<{ storage_key: string | null }>(
      'select storage_key from whatsapp_media where business_id = $1 and id = $2',
      [business.id, mediaId],
    );
    expect(row!.storage_key).toBeNull();
  });
});
