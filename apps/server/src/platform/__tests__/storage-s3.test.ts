import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Sim, type S3Sim } from '@titan/s3-sim';
import type { TBusiness, TMessage, TUploadResult } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../testing/identity';
import { createStorage } from '../storage';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4860000000049454e44ae426082',
  'hex',
);

let sim: S3Sim;
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;

function s3Env(s: S3Sim, secret = s.secretAccessKey) {
  return {
    S3_BUCKET: 'titan',
    S3_ENDPOINT: s.url,
    S3_REGION: s.region,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: s.accessKeyId,
    S3_SECRET_ACCESS_KEY: secret,
  };
}

function upload(file: Buffer, name: string) {
  const boundary = 's3boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prefix"\r\n\r\nagent_images\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return rt.app!.inject({
    method: 'POST',
    url: '/api/upload/',
    headers: { ...as(owner, business), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

beforeAll(async () => {
  sim = await startS3Sim();
  rt = await createTestRuntime({ env: s3Env(sim) });
  await rt.app!.ready();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'S3 Co');
});
afterAll(async () => {
  await rt.destroy();
  await sim.close();
});

describe('S3-compatible storage', () => {
  it('puts uploads in the bucket with their sniffed type and answers a presigned URL that serves them', async () => {
    const res = await upload(PNG, 'pixel.png');
    expect(res.statusCode).toBe(201);
    const result = res.json().result as TUploadResult;
    const stored = sim.objects.get(`titan/${result.key}`);
    expect(stored?.body.equals(PNG)).toBe(true);
    expect(stored?.contentType).toBe('image/png');

    const url = new URL(result.presigned_url);
    expect(url.origin).toBe(sim.url);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const fetched = await fetch(result.presigned_url);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG)).toBe(true);
    expect(fetched.headers.get('content-disposition')).toBe('inline; filename="pixel.png"');

    // A tampered presigned URL is refused by the store.
    url.searchParams.set('X-Amz-Expires', '999999');
    expect((await fetch(url)).status).toBe(403);
    // Local file serving is off in S3 mode.
    expect(
      (await rt.app!.inject({ method: 'GET', url: `/files/${result.key}?exp=1&sig=x` })).statusCode,
    ).toBe(404);
  });

  it('signs file messages with fresh presigned URLs', async () => {
    const result = (await upload(PNG, 'chat.png')).json().result as TUploadResult;
    const customer = await rt.database.query<{ id: number }>(
      'insert into customers (business_id, name) values ($1, $2) returning id',
      [business.id, 'S3 Customer'],
    );
    const [conversation] = await rt.database.query<{ id: number }>(
      `insert into conversations (business_id, channel, initiator_id, title) values ($1, 'titan_message', $2, 'S3') returning id`,
      [business.id, customer[0]!.id],
    );
    const sent = await rt.app!.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation!.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'file', content: result.key },
    });
    const message = sent.json().result as TMessage;
    expect(message.content.startsWith(`${sim.url}/titan/`)).toBe(true);
    expect(Buffer.from(await (await fetch(message.content)).arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('lets presigned URLs expire', async () => {
    const storage = createStorage(rt.config);
    const key = `agent_images/${business.id}/expiring/file.png`;
    await storage.put(key, PNG, 'image/png');
    const url = await storage.signedUrl(key, 'file.png', 1);
    expect((await fetch(url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(url)).status).toBe(403);
  });

  it('fails an upload cleanly when the store refuses the credentials, keeping nothing', async () => {
    const wrong = await createTestRuntime({ env: s3Env(sim, 'not-the-secret') });
    try {
      const s = await signUp(wrong.app!, wrong.mailer);
      const b = await createBusiness(wrong.app!, s, 'Wrong keys');
      const boundary = 'x';
      const res = await wrong.app!.inject({
        method: 'POST',
        url: '/api/upload/',
        headers: { ...as(s, b), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="prefix"\r\n\r\nagent_images\r\n`,
          ),
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`,
          ),
          PNG,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().request_id).toBeDefined();
      const [row] = await wrong.database.query<{ n: number }>('select count(*)::int as n from stored_files');
      expect(row!.n).toBe(0);
    } finally {
      await wrong.destroy();
    }
  });
});
