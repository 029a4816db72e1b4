// The client's own behaviour against a stub fetch: auth headers, the envelope unwrapped, errors
// thrown with their field errors, pagination over `next`, and webhook verification with the
// Standard Webhooks reference library.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  createTitanClient,
  paginate,
  TitanApiError,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
} from './index';

function stub(answer: (req: Request) => { status?: number; body: unknown }) {
  const seen: Request[] = [];
  const fetch = async (input: Request) => {
    seen.push(input);
    const { status = 200, body } = answer(input);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

describe('@titan/client', () => {
  it('sends the API key and unwraps the envelope', async () => {
    const { fetch, seen } = stub(() => ({
      body: { status: 200, message: 'OK', result: [{ value: 'owner' }] },
    }));
    const api = createTitanClient({ baseUrl: 'https://titan.test/', apiKey: 'titan_abc', fetch });
    const roles = await unwrap(api.GET('/api/business/roles/'));
    expect(roles[0]!.value).toBe('owner');
    expect(seen[0]!.url).toBe('https://titan.test/api/business/roles/');
    expect(seen[0]!.headers.get('authorization')).toBe('Api-Key titan_abc');
  });

  it('sends a member token with the business code', async () => {
    const { fetch, seen } = stub(() => ({ body: { result: [] } }));
    const api = createTitanClient({
      baseUrl: 'https://titan.test',
      accessToken: 'tok',
      businessCode: 'abc',
      fetch,
    });
    await unwrap(api.GET('/api/business/roles/'));
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok');
    expect(seen[0]!.headers.get('x-business-code')).toBe('abc');
  });

  it('throws field errors of a 400', async () => {
    const { fetch } = stub(() => ({
      status: 400,
      body: { status: 400, message: 'Invalid input.', result: { name: ['This field is required.'] } },
    }));
    const api = createTitanClient({ baseUrl: 'https://titan.test', apiKey: 'k', fetch });
    const err = await unwrap(
      api.POST('/api/business/roles/', { body: { name: '', permissions: ['engage.read'] } }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TitanApiError);
    expect((err as TitanApiError).status).toBe(400);
    expect((err as TitanApiError).fieldErrors('name')).toEqual(['This field is required.']);
  });

  it('follows next through every page', async () => {
    const { fetch, seen } = stub((req) => {
      const page = Number(new URL(req.url).searchParams.get('page'));
      return {
        body: {
          result: {
            count: 5,
            next: page < 3 ? page + 1 : null,
            previous: null,
            results: page < 3 ? [page * 10, page * 10 + 1] : [30],
          },
        },
      };
    });
    const api = createTitanClient({ baseUrl: 'https://titan.test', apiKey: 'k', fetch });
    const seenItems: unknown[] = [];
    for await (const item of paginate((page) =>
      api.GET('/api/business/customer-directory/', { params: { query: { page } } }),
    ))
      seenItems.push(item);
    expect(seenItems).toEqual([10, 11, 20, 21, 30]);
    expect(seen).toHaveLength(3);
  });

  it('verifies a Standard Webhooks signature and refuses a forged one', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({
      type: 'conversation.created',
      timestamp: new Date().toISOString(),
      data: { id: 1 },
    });
    const id = 'msg_1';
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(verifyWebhook(secret, body, headers).type).toBe('conversation.created');
    expect(verifyWebhook(secret, body, new Headers(headers)).data).toEqual({ id: 1 });
    expect(() => verifyWebhook(secret, body.replace('1}', '2}'), headers)).toThrow(WebhookVerificationError);
  });
});
