import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TMessage, TUploadResult } from '@titan/contracts';
import { FILE_TOO_LARGE_MESSAGE } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { startConversation } from '../../conversations/conversations.service';
import { insertCustomer } from '../../directory/directory.repository';

// The 8-byte PNG signature plus an IHDR chunk: enough for type detection.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4860000000049454e44ae426082',
  'hex',
);

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'http://titan.test' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Files Co');
});
afterAll(() => rt.destroy());

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = `----titan${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (p.type) chunks.push(Buffer.from(`Content-Type: ${p.type}\r\n`));
    chunks.push(
      Buffer.from('\r\n'),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(parts: Parameters<typeof multipart>[0], s: Session = owner, b: TBusiness = business) {
  const { payload, contentType } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/upload/',
    headers: { ...as(s, b), 'content-type': contentType },
    payload,
  });
}

const fetchSigned = (url: string) => app.inject({ method: 'GET', url: url.replace('http://titan.test', '') });

describe('uploads', () => {
  it('stores a file, takes its type from the bytes, and serves it through an expiring signed URL', async () => {
    const res = await upload([
      { name: 'prefix', value: 'agent_images' },
      { name: 'file', value: PNG, filename: 'logo.html', type: 'text/html' },
    ]);
    expect(res.statusCode).toBe(201);
    const result = res.json().result as TUploadResult;
    expect(result).toMatchObject({ mime_type: 'image/png', size: PNG.length, file_name: 'logo.html' });
    expect(result.key).toMatch(new RegExp(`^agent_images/${business.id}/[0-9a-f-]{36}/logo\\.html$`));
    expect(result.presigned_url).toMatch(
      /^http:\/\/titan\.test\/files\/agent_images\/.+\?exp=\d+&sig=[\w-]+$/,
    );

    const file = await fetchSigned(result.presigned_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('keeps WhatsApp media uploaded without a media id under public/whatsapp_media/default', async () => {
    const res = await upload([
      { name: 'prefix', value: 'public/whatsapp_media' },
      { name: 'file', value: PNG, filename: 'photo.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(201);
    const result = res.json().result as TUploadResult;
    expect(result.key).toMatch(/^public\/whatsapp_media\/default\/[0-9a-f-]{36}\/photo\.png$/);
    expect((await fetchSigned(result.presigned_url)).statusCode).toBe(200);
  });

  it('treats text as plain text or CSV, never as HTML, and offers it as a download', async () => {
    const res = await upload([
      { name: 'prefix', value: 'customer_lists' },
      { name: 'file', value: '<script>alert(1)</script>', filename: 'x.html', type: 'text/html' },
    ]);
    const result = res.json().result as TUploadResult;
    expect(result.mime_type).toBe('text/plain');
    const file = await fetchSigned(result.presigned_url);
    expect(file.headers['content-type']).toBe('text/plain');
    expect(file.headers['content-disposition']).toMatch(/^attachment;/);
    const csv = await upload([
      { name: 'prefix', value: 'customer_lists' },
      { name: 'file', value: 'email,name\na@b.co,A\n', filename: 'list.csv' },
    ]);
    expect(csv.json().result.mime_type).toBe('text/csv');
  });

  it('refuses a file over 10 MB with the spec message', async () => {
    const res = await upload([
      { name: 'prefix', value: 'agent_images' },
      { name: 'file', value: Buffer.alloc(10 * 1024 * 1024 + 1, 1), filename: 'big.bin' },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      message: FILE_TOO_LARGE_MESSAGE,
      result: { file: [FILE_TOO_LARGE_MESSAGE] },
    });
  });

  it('names missing and bad fields', async () => {
    const res = await upload([{ name: 'prefix', value: '../../etc' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({
      prefix: [expect.stringMatching(/^Select a valid choice: customer_lists, agent_images/)],
      file: ['No file was submitted.'],
    });
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/api/upload/',
      headers: as(owner, business),
      payload: { file: 'x' },
    });
    expect(notMultipart.statusCode).toBe(400);
  });

  it('keeps file names from escaping their folder', async () => {
    const res = await upload([
      { name: 'prefix', value: 'agent_images' },
      { name: 'file', value: PNG, filename: '../../../../etc/passwd' },
    ]);
    const key = res.json().result.key as string;
    expect(key).toMatch(new RegExp(`^agent_images/${business.id}/[0-9a-f-]{36}/passwd$`));
    const traversal = await app.inject({
      method: 'GET',
      url: '/files/../../app-secret?exp=9999999999&sig=x',
    });
    expect([403, 404]).toContain(traversal.statusCode);
  });

  it('refuses expired and tampered signatures', async () => {
    const result = (
      await upload([
        { name: 'prefix', value: 'agent_images' },
        { name: 'file', value: PNG, filename: 'a.png' },
      ])
    ).json().result as TUploadResult;
    const url = new URL(result.presigned_url);
    const tampered = `${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}`;
    expect((await app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const extended = `${url.pathname}?exp=${Number(url.searchParams.get('exp')) + 3600}&sig=${url.searchParams.get('sig')}`;
    expect((await app.inject({ method: 'GET', url: extended })).statusCode).toBe(403);
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = `${url.pathname}?exp=${past}&sig=${url.searchParams.get('sig')}`;
    expect((await app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
  });

  it("files chat media under a conversation of the caller's business only", async () => {
    const customer = await insertCustomer(rt.database.db, { businessId: business.id, name: 'C' });
    const conversation = await startConversation(rt.database.db, {
      businessId: business.id,
      channel: 'titan_message',
      initiatorId: customer.id,
      title: 'Files',
    });
    const missing = await upload([
      { name: 'prefix', value: 'public/public_chat_media' },
      { name: 'file', value: PNG, filename: 'a.png' },
    ]);
    expect(missing.json().result).toEqual({ conversation_id: ['This field is required for chat media.'] });

    const other = await signUp(app, rt.mailer);
    const otherBusiness = await createBusiness(app, other, 'Other Files');
    const foreign = await upload(
      [
        { name: 'prefix', value: 'public/public_chat_media' },
        { name: 'conversation_id', value: String(conversation.id) },
        { name: 'file', value: PNG, filename: 'a.png' },
      ],
      other,
      otherBusiness,
    );
    expect(foreign.statusCode).toBe(404);

    const ok = await upload([
      { name: 'prefix', value: 'public/public_chat_media' },
      { name: 'conversation_id', value: String(conversation.id) },
      { name: 'file', value: PNG, filename: 'photo.png' },
    ]);
    const uploaded = ok.json().result as TUploadResult;
    expect(uploaded.key.startsWith(`public/public_chat_media/${business.id}/${conversation.id}/`)).toBe(true);

    // Sending it as a file message: the message carries a fresh signed URL and the file's facts.
    const sent = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'file', content: uploaded.key },
    });
    expect(sent.statusCode).toBe(201);
    const message = sent.json().result as TMessage;
    expect(message.message_type).toBe('file');
    expect(message.meta_data).toMatchObject({
      file_name: 'photo.png',
      mime_type: 'image/png',
      size: PNG.length,
    });
    expect((await fetchSigned(message.content)).rawPayload.equals(PNG)).toBe(true);

    // Another business cannot send this business's file key.
    const otherCustomer = await insertCustomer(rt.database.db, {
      businessId: otherBusiness.id,
      name: 'D',
    });
    const otherConversation = await startConversation(rt.database.db, {
      businessId: otherBusiness.id,
      channel: 'titan_message',
      initiatorId: otherCustomer.id,
      title: 'Steal',
    });
    const steal = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${otherConversation.id}/messages/`,
      headers: as(other, otherBusiness),
      payload: { message_type: 'file', content: uploaded.key },
    });
    expect(steal.statusCode).toBe(400);
    expect(steal.json().result).toEqual({ content: ['Upload the file first and send its key.'] });
  });

  it('requires a business member', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/upload/', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
