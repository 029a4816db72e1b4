// Sending on WhatsApp end to end: Titan listens on a port, the Cloud API simulator plays Meta
// (Graph calls in, signed webhooks out), and every call goes over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InboundSpec, WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TMessage, TWhatsappMediaUpload, TWhatsappWindow } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { startConversation } from '../../conversations/conversations.service';
import { describeGraphError } from '../../../channels/whatsapp-cloud/whatsapp-cloud.graph';
import { WHATSAPP_SEND_ERRORS, WINDOW_CLOSED_MESSAGE } from '../messages/whatsapp.send';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

type Envelope<T = unknown> = { status: number; message: string; result: T };

async function api(
  method: string,
  path: string,
  options: { json?: unknown; form?: FormData; session?: Session; business?: TBusiness } = {},
) {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      ...as(options.session ?? owner, options.business ?? business),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
  });
}

const body = async <T>(res: Response) => (await res.json()) as Envelope<T>;

beforeAll(async () => {
  // Statuses slow enough to see each step in the inbox.
  bench = await startWhatsappBench({
    businessName: 'Sim Co',
    statusDelayMs: 120,
    env: { WHATSAPP_RETRY_DELAYS_MS: '50,100,200' },
  });
  ({ sim, rt, base, owner, business } = bench);
});

afterEach(() => sim.reset());
afterAll(() => bench?.close());

let counter = 0;
/** A fresh customer number per test: its own window and its own conversation. */
const customer = () => `4477${String(Date.now()).slice(-6)}${String(++counter).padStart(2, '0')}`;

async function query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
  return rt.database.query<T>(sql, params);
}

/** The customer writes; answers once Titan's webhook job has stored the message. */
async function inbound(from: string, spec: Partial<InboundSpec> = {}) {
  const { wamid, status } = await sim.sendInbound({
    from,
    name: 'Grace',
    type: 'text',
    text: 'Hello',
    ...spec,
  });
  expect(status).toBe(200);
  let conversationId = 0;
  await expect
    .poll(
      async () => {
        const [row] = await query<{ conversation_id: number }>(
          'select conversation_id from wa_messages where id = $1',
          [wamid],
        );
        conversationId = Number(row?.conversation_id ?? 0);
        return conversationId;
      },
      { timeout: 60_000, interval: 50 },
    )
    .toBeGreaterThan(0);
  return { wamid, conversationId };
}

const send = (conversationId: number, payload: object, options: Parameters<typeof api>[2] = {}) =>
  api('POST', `/api/whatsapp/conversations/${conversationId}/messages/`, { json: payload, ...options });

async function messageOf(conversationId: number, id: string): Promise<TMessage | undefined> {
  const res = await api('GET', `/api/msg/conversations/${conversationId}/messages/?limit=200`);
  return (await body<TMessage[]>(res)).result.find((m) => m.id === id);
}

const graphSends = () =>
  sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages')).length;

async function upload(bytes: Buffer, fileName: string, session?: Session, asBusiness?: TBusiness) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return api('POST', '/api/whatsapp/media/', { form, session, business: asBusiness });
}

// ---- Small but real files, recognised by their bytes ----

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

function mp4(): Buffer {
  const box = (type: string, payload: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payload.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, payload]);
  };
  const brands = Buffer.concat([Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41')]);
  return Buffer.concat([box('ftyp', brands), box('free', Buffer.alloc(8)), box('mdat', Buffer.alloc(16))]);
}

function mp3(): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]), frame, frame]);
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

const RANK: Record<string, number> = { accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

describe('free-form text', () => {
  it('opens a conversation on an inbound text, and a reply goes out and advances accepted → sent → delivered → read', async () => {
    const from = customer();
    const { wamid, conversationId } = await inbound(from, { text: 'Where is my order?' });
    const conversation = await body<{ channel: string; is_read: boolean; title: string }>(
      await api('GET', `/api/msg/conversations/${conversationId}/`),
    );
    expect(conversation.result).toMatchObject({
      channel: 'whatsapp',
      is_read: false,
      title: 'WhatsApp with Grace',
    });

    const res = await send(conversationId, {
      type: 'text',
      text: { body: 'On its way!' },
      context: { message_id: wamid },
    });
    expect(res.status).toBe(201);
    const message = (await body<TMessage>(res)).result;
    expect(message).toMatchObject({
      conversation_id: conversationId,
      content: 'On its way!',
      sender_type: 'staff',
      message_type: 'text',
      status: 'accepted',
      is_read: true,
    });
    expect(message.id).toMatch(/^wamid\./);
    expect(message.sender?.email).toBe(owner.email);
    expect(message.meta_data).toMatchObject({ type: 'text', text: { body: 'On its way!' } });

    const sent = sim.outbound.find((r) => r.wamid === message.id);
    expect(sent?.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: from,
      type: 'text',
      text: { body: 'On its way!' },
      context: { message_id: wamid },
    });

    const seen: string[] = [message.status!];
    await expect
      .poll(
        async () => {
          const status = (await messageOf(conversationId, message.id as string))?.status ?? '';
          if (seen.at(-1) !== status) seen.push(status);
          return status;
        },
        { timeout: 60_000, interval: 15 },
      )
      .toBe('read');
    for (let i = 1; i < seen.length; i++) expect(RANK[seen[i]!]).toBeGreaterThan(RANK[seen[i - 1]!]!);
    const events = await query<{ status: string }>(
      'select type as status from send_events where provider_message_id = $1 order by type',
      [message.id],
    );
    expect(events.map((e) => e.status)).toEqual(['delivered', 'read', 'sent']);
    const after = await body<{ business_replied: boolean }>(
      await api('GET', `/api/msg/conversations/${conversationId}/`),
    );
    expect(after.result.business_replied).toBe(true);
  });

  it('ends at read when statuses arrive out of order and twice', async () => {
    sim.set({ outOfOrder: true, duplicate: true });
    const { conversationId } = await inbound(customer());
    const res = await send(conversationId, { type: 'text', text: { body: 'Shuffled' } });
    expect(res.status).toBe(201);
    const message = (await body<TMessage>(res)).result;
    await sim.waitFor(() => sim.outbound.find((r) => r.wamid === message.id)?.statuses.length === 3, 10_000);
    // The simulator counts a status when it sends it; the delivery may still be on its way.
    // Wait for all three stored and every delivery processed, then read the outcome.
    const settled = async () => {
      const [row] = await query<{ statuses: number; pending: number }>(
        `select (select count(*)::int from send_events where provider_message_id = $1) as statuses,
                (select count(*)::int from whatsapp_webhook_events where processed_at is null) as pending`,
        [message.id],
      );
      return row!;
    };
    await expect.poll(settled, { timeout: 60_000, interval: 50 }).toEqual({ statuses: 3, pending: 0 });
    expect((await messageOf(conversationId, message.id as string))?.status).toBe('read');
  });

  it('shows a failed delivery with the reason in meta_data.errors', async () => {
    sim.set({
      failDeliveries: {
        code: 131026,
        title: 'Message undeliverable',
        message: 'Message undeliverable',
        details: 'The recipient is not on WhatsApp.',
      },
    });
    const { conversationId } = await inbound(customer());
    const message = (
      await body<TMessage>(await send(conversationId, { type: 'text', text: { body: 'Hi?' } }))
    ).result;
    await expect
      .poll(async () => (await messageOf(conversationId, message.id as string))?.status, {
        timeout: 10_000,
        interval: 30,
      })
      .toBe('failed');
    const failed = await messageOf(conversationId, message.id as string);
    expect((failed!.meta_data as { errors: unknown[] }).errors[0]).toMatchObject({
      code: 131026,
      title: 'Message undeliverable',
      error_data: { details: 'The recipient is not on WhatsApp.' },
    });
  });
});

describe('the 24-hour window', () => {
  it('is open after the customer writes, and says until when', async () => {
    const { conversationId } = await inbound(customer());
    const res = await api('GET', `/api/whatsapp/conversations/${conversationId}/window/`);
    expect(res.status).toBe(200);
    const window = (await body<TWhatsappWindow>(res)).result;
    expect(window.open).toBe(true);
    expect(Date.parse(window.expires_at!) - Date.parse(window.last_customer_message_at!)).toBe(
      24 * 60 * 60 * 1000,
    );
  });

  it('refuses a free-form send 25 hours after the customer wrote, without calling Meta', async () => {
    const from = customer();
    const { conversationId } = await inbound(from, {
      timestamp: Math.floor(Date.now() / 1000) - 25 * 60 * 60,
    });
    const window = (
      await body<TWhatsappWindow>(await api('GET', `/api/whatsapp/conversations/${conversationId}/window/`))
    ).result;
    expect(window).toMatchObject({ open: false, expires_at: null });
    expect(window.last_customer_message_at).not.toBeNull();

    const calls = graphSends();
    const res = await send(conversationId, { type: 'text', text: { body: 'Still there?' } });
    expect(res.status).toBe(409);
    expect((await body(res)).message).toBe(WINDOW_CLOSED_MESSAGE);
    expect(graphSends()).toBe(calls);
    expect(sim.outbound.filter((r) => r.to === from)).toHaveLength(0);
  });
});

describe('Graph errors', () => {
  it('retries throughput errors (130429) and then succeeds', async () => {
    const from = customer();
    const { conversationId } = await inbound(from);
    sim.failNextSends(130429, 2);
    const calls = graphSends();
    const res = await send(conversationId, { type: 'text', text: { body: 'Third time lucky' } });
    expect(res.status).toBe(201);
    expect(graphSends()).toBe(calls + 3);
    const message = (await body<TMessage>(res)).result;
    expect(sim.outbound.find((r) => r.wamid === message.id)?.to).toBe(from);
  });

  it('answers 429 with the reason when the pair rate limit (131056) persists, and logs the error', async () => {
    const { conversationId } = await inbound(customer());
    sim.failNextSends(131056, 5);
    const res = await send(conversationId, { type: 'text', text: { body: 'Too fast' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('10');
    expect((await body(res)).message).toBe(describeGraphError(131056));
    const logs = await query<{ status: string; error_code: number; error_message: string }>(
      "select (case when status = 'failed' and provider_message_id is null then 'error' else status end) as status, error_code::int as error_code, error_message from sends where conversation_id = $1",
      [conversationId],
    );
    expect(logs).toEqual([
      { status: 'error', error_code: 131056, error_message: describeGraphError(131056) },
    ]);
    const [stored] = await query<{ n: number }>(
      "select count(*)::int as n from wa_messages where conversation_id = $1 and sender_type = 'staff'",
      [conversationId],
    );
    expect(stored!.n).toBe(0);
  });

  it('maps an invalid parameter (100) to 400 and an expired token (190) to 409', async () => {
    const { conversationId } = await inbound(customer());
    sim.failNextSends(100);
    const invalid = await send(conversationId, { type: 'text', text: { body: 'Param trouble' } });
    expect(invalid.status).toBe(400);
    expect((await body(invalid)).message).toMatch(/^WhatsApp refused a parameter/);

    sim.failNextSends(190);
    const expired = await send(conversationId, { type: 'text', text: { body: 'Token trouble' } });
    expect(expired.status).toBe(409);
    expect((await body(expired)).message).toBe(describeGraphError(190));
  });
});

describe('sending media', () => {
  const cases = [
    {
      type: 'image',
      bytes: PNG,
      fileName: 'photo.png',
      mime: 'image/png',
      part: { caption: 'Your receipt' },
    },
    { type: 'video', bytes: mp4(), fileName: 'clip.mp4', mime: 'video/mp4', part: { caption: 'How to' } },
    { type: 'audio', bytes: mp3(), fileName: 'note.mp3', mime: 'audio/mpeg', part: {} },
    {
      type: 'document',
      bytes: PDF,
      fileName: 'invoice.pdf',
      mime: 'application/pdf',
      part: { caption: 'Invoice', filename: 'invoice-42.pdf' },
    },
  ] as const;

  for (const c of cases) {
    it(`uploads a ${c.type}, sends it by id and serves the kept copy`, async () => {
      const from = customer();
      const { conversationId } = await inbound(from);
      const uploaded = await upload(c.bytes, c.fileName);
      expect(uploaded.status).toBe(201);
      const media = (await body<TWhatsappMediaUpload>(uploaded)).result;
      expect(media).toEqual({
        id: expect.any(String),
        mime_type: c.mime,
        size: c.bytes.length,
        file_name: c.fileName,
        type: c.type,
      });
      expect(sim.uploads.get(media.id)?.bytes.equals(c.bytes)).toBe(true);

      const res = await send(conversationId, { type: c.type, [c.type]: { id: media.id, ...c.part } });
      expect(res.status).toBe(201);
      const message = (await body<TMessage>(res)).result;
      expect(message.message_type).toBe('file');
      expect(message.content).toBe('caption' in c.part ? c.part.caption : `[${c.type}]`);
      expect(message.meta_data).toMatchObject({
        type: c.type,
        [c.type]: { id: media.id },
        mime_type: c.mime,
      });
      expect(sim.outbound.find((r) => r.wamid === message.id)?.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: from,
        type: c.type,
        [c.type]: { id: media.id, ...c.part },
      });

      const served = await api('GET', `/api/whatsapp/media/${media.id}/`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(c.mime);
      expect(Buffer.from(await served.arrayBuffer()).equals(c.bytes)).toBe(true);
    });
  }

  it('sends a CSV as a plain-text document that keeps its name', async () => {
    const csv = Buffer.from('sku,qty\nA-1,2\n');
    const res = await upload(csv, 'order.csv');
    expect(res.status).toBe(201);
    const media = (await body<TWhatsappMediaUpload>(res)).result;
    expect(media).toMatchObject({ type: 'document', mime_type: 'text/csv', file_name: 'order.csv' });
    expect(sim.uploads.get(media.id)?.mime_type).toBe('text/plain');
  });

  it('takes documents well over the 10 MB limit of other uploads', async () => {
    const manual = Buffer.concat([PDF, Buffer.alloc(12 * 1024 * 1024, 0x20)]);
    const res = await upload(manual, 'manual.pdf');
    expect(res.status).toBe(201);
    const media = (await body<TWhatsappMediaUpload>(res)).result;
    expect(media).toMatchObject({ type: 'document', size: manual.length });
    expect(sim.uploads.get(media.id)?.bytes.length).toBe(manual.length);
    // Sent without a name, the document keeps the uploaded one rather than arriving "Untitled".
    const { conversationId } = await inbound(customer());
    const sent = (
      await body<TMessage>(await send(conversationId, { type: 'document', document: { id: media.id } }))
    ).result;
    expect(sent.content).toBe('manual.pdf');
    expect(sim.outbound.find((r) => r.wamid === sent.id)?.body.document).toEqual({
      id: media.id,
      filename: 'manual.pdf',
    });
  });

  it('refuses files WhatsApp does not take, and oversize ones, naming the limit', async () => {
    const uploads = sim.uploads.size;
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'huge.png');
    expect(big.status).toBe(413);
    const bigBody = await body<Record<string, string[]>>(big);
    expect(bigBody.message).toBe('Images sent on WhatsApp can be at most 5 MB.');
    expect(bigBody.result.file).toEqual([bigBody.message]);

    const longVideo = await upload(Buffer.concat([mp4(), Buffer.alloc(16 * 1024 * 1024)]), 'long.mp4');
    expect(longVideo.status).toBe(413);
    expect((await body(longVideo)).message).toBe('Videos sent on WhatsApp can be at most 16 MB.');

    const gif = await upload(GIF, 'funny.gif');
    expect(gif.status).toBe(400);
    expect((await body<Record<string, string[]>>(gif)).result.file).toEqual([
      WHATSAPP_SEND_ERRORS.unsupportedFile,
    ]);

    const empty = await api('POST', '/api/whatsapp/media/', { form: new FormData() });
    expect(empty.status).toBe(400);
    expect(sim.uploads.size).toBe(uploads);
  });

  it('only sends media this business uploaded, as the kind it is', async () => {
    const { conversationId } = await inbound(customer());
    const unknown = await send(conversationId, { type: 'image', image: { id: '999999999' } });
    expect(unknown.status).toBe(400);
    expect((await body<Record<string, string[]>>(unknown)).result['image.id']).toEqual([
      WHATSAPP_SEND_ERRORS.unknownMedia,
    ]);
    const pdf = (await body<TWhatsappMediaUpload>(await upload(PDF, 'a.pdf'))).result;
    const wrongKind = await send(conversationId, { type: 'image', image: { id: pdf.id } });
    expect(wrongKind.status).toBe(400);
    expect(Object.keys((await body<Record<string, string[]>>(wrongKind)).result)).toEqual(['image.id']);
    const audio = (await body<TWhatsappMediaUpload>(await upload(mp3(), 'b.mp3'))).result;
    const captioned = await send(conversationId, {
      type: 'audio',
      audio: { id: audio.id, caption: 'Listen' },
    });
    expect(captioned.status).toBe(400);
    expect((await body<Record<string, string[]>>(captioned)).result).toEqual({
      'audio.caption': [WHATSAPP_SEND_ERRORS.audioCaption],
    });
  });
});

describe("customers' media", () => {
  async function inboundMedia(spec: Partial<InboundSpec>) {
    const { wamid, conversationId } = await inbound(customer(), spec);
    const [row] = await query<{ meta_data: Record<string, { id: string }> }>(
      'select meta_data from wa_messages where id = $1',
      [wamid],
    );
    const mediaId = row!.meta_data[spec.type!]!.id;
    return { wamid, conversationId, mediaId };
  }

  const mediaRow = async (id: string) =>
    (
      await query<{
        storage_key: string | null;
        attempts: number;
        last_error: string | null;
        direction: string;
      }>('select storage_key, attempts, last_error, direction from whatsapp_media where id = $1', [id])
    )[0];

  it('fetches an inbound image with a job and serves the same bytes', async () => {
    const { mediaId } = await inboundMedia({ type: 'image', text: 'Broken item' });
    await expect
      .poll(async () => (await mediaRow(mediaId))?.storage_key, { timeout: 15_000 })
      .toMatch(new RegExp(`^public/whatsapp_media/${mediaId}/`));
    expect(await mediaRow(mediaId)).toMatchObject({ attempts: 1, last_error: null, direction: 'inbound' });
    const res = await api('GET', `/api/whatsapp/media/${mediaId}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(sim.uploads.get(mediaId)!.bytes)).toBe(true);
  });

  it('serves an inbound document inline with its file name', async () => {
    const { mediaId } = await inboundMedia({ type: 'document' });
    await expect.poll(async () => (await mediaRow(mediaId))?.storage_key, { timeout: 15_000 }).toBeTruthy();
    const res = await api('GET', `/api/whatsapp/media/${mediaId}/`);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''sample.pdf");
  });

  it('takes a fresh URL after failed downloads within one attempt', async () => {
    sim.failNextMediaDownloads(2);
    const { mediaId } = await inboundMedia({ type: 'image' });
    await expect.poll(async () => (await mediaRow(mediaId))?.storage_key, { timeout: 15_000 }).toBeTruthy();
    expect((await mediaRow(mediaId))!.attempts).toBe(1);
  });

  it('retries a failed fetch from the job: nothing blocks the next attempt', async () => {
    sim.failNextMediaDownloads(3);
    const { mediaId } = await inboundMedia({ type: 'image' });
    await expect.poll(async () => (await mediaRow(mediaId))?.last_error, { timeout: 15_000 }).toMatch(/500/);
    expect(await mediaRow(mediaId)).toMatchObject({ storage_key: null, attempts: 1 });
    await expect
      .poll(async () => (await mediaRow(mediaId))?.storage_key, { timeout: 40_000, interval: 250 })
      .toBeTruthy();
    expect(await mediaRow(mediaId)).toMatchObject({ attempts: 2, last_error: null });
    const res = await api('GET', `/api/whatsapp/media/${mediaId}/`);
    expect(Buffer.from(await res.arrayBuffer()).equals(sim.uploads.get(mediaId)!.bytes)).toBe(true);
  });

  it('fetches right away when the inbox asks before the job succeeded', async () => {
    sim.failNextMediaDownloads(3);
    const { mediaId } = await inboundMedia({ type: 'image' });
    await expect.poll(async () => (await mediaRow(mediaId))?.last_error, { timeout: 15_000 }).toBeTruthy();
    const res = await api('GET', `/api/whatsapp/media/${mediaId}/`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(sim.uploads.get(mediaId)!.bytes)).toBe(true);
    expect(await mediaRow(mediaId)).toMatchObject({ attempts: 2, last_error: null });
  });

  it('answers 404 with a readable message for media it cannot load', async () => {
    const res = await api('GET', '/api/whatsapp/media/123456789012345/');
    expect(res.status).toBe(404);
    expect((await body(res)).message).toBe(WHATSAPP_SEND_ERRORS.mediaUnavailable);
  });

  it('does not send a customer’s media back as if staff uploaded it', async () => {
    const { conversationId, mediaId } = await inboundMedia({ type: 'image' });
    const res = await send(conversationId, { type: 'image', image: { id: mediaId } });
    expect(res.status).toBe(400);
  });
});

describe('who may send', () => {
  it('hides conversations and media of another business (404)', async () => {
    const { conversationId } = await inbound(customer());
    const media = (await body<TWhatsappMediaUpload>(await upload(PNG, 'mine.png'))).result;
    const stranger = await signUp(rt.app!, rt.mailer);
    const theirs = await createBusiness(rt.app!, stranger, 'Elsewhere');
    const opts = { session: stranger, business: theirs };
    expect((await send(conversationId, { type: 'text', text: { body: 'Hi' } }, opts)).status).toBe(404);
    expect((await api('GET', `/api/whatsapp/conversations/${conversationId}/window/`, opts)).status).toBe(
      404,
    );
    expect((await api('GET', `/api/whatsapp/media/${media.id}/`, opts)).status).toBe(404);
  });

  it("hides a group's conversation from an agent outside that group (404)", async () => {
    const { conversationId } = await inbound(customer());
    const [group] = await query<{ id: number }>(
      "insert into chat_groups (business_id, name, slug) values ($1, 'VIP', $2) returning id",
      [business.id, `vip-${conversationId}`],
    );
    await query('update conversations set assigned_chat_group_id = $1 where id = $2', [
      group!.id,
      conversationId,
    ]);
    const agent = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
    const opts = { session: agent };
    const calls = graphSends();
    expect((await send(conversationId, { type: 'text', text: { body: 'Hi' } }, opts)).status).toBe(404);
    expect((await api('GET', `/api/whatsapp/conversations/${conversationId}/window/`, opts)).status).toBe(
      404,
    );
    expect(graphSends()).toBe(calls);

    const [agentRow] = await query<{ id: number }>('select id from users where email = $1', [agent.email]);
    await query('insert into chat_group_members (business_id, group_id, user_id) values ($1, $2, $3)', [
      business.id,
      group!.id,
      agentRow!.id,
    ]);
    expect((await send(conversationId, { type: 'text', text: { body: 'Hi' } }, opts)).status).toBe(201);
  });

  it('refuses a conversation of the own channel (409)', async () => {
    const own = await startConversation(rt.database.db, {
      businessId: business.id,
      channel: 'titan_message',
      initiatorId: null,
      title: 'Widget chat',
    });
    const res = await send(own.id, { type: 'text', text: { body: 'Hi' } });
    expect(res.status).toBe(409);
    expect((await body(res)).message).toBe(WHATSAPP_SEND_ERRORS.notWhatsapp);
  });

  it('refuses a reply to a message that is not in the conversation (400 on context.message_id)', async () => {
    const { conversationId } = await inbound(customer());
    const calls = graphSends();
    const res = await send(conversationId, {
      type: 'text',
      text: { body: 'Re: nothing' },
      context: { message_id: 'wamid.does-not-exist' },
    });
    expect(res.status).toBe(400);
    expect((await body<Record<string, string[]>>(res)).result).toEqual({
      'context.message_id': [WHATSAPP_SEND_ERRORS.unknownContext],
    });
    expect(graphSends()).toBe(calls);
  });
});

describe('who may see media', () => {
  // Agents see their chat groups' conversations and those of no group; owners and admins see all.
  let groupA: number;
  let groupB: number;
  let agentA: Session;
  let agentB: Session;
  let admin: Session;
  let stranger: Session;
  let strangersBusiness: TBusiness;

  async function newGroup(name: string) {
    const [row] = await query<{ id: number }>(
      'insert into chat_groups (business_id, name, slug) values ($1, $2, $3) returning id',
      [business.id, name, `${name.toLowerCase()}-${Date.now()}-${++counter}`],
    );
    return Number(row!.id);
  }

  async function agentOf(groupId: number) {
    const agent = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
    await query(
      `insert into chat_group_members (business_id, group_id, user_id)
       select $1, $2, id from users where email = $3`,
      [business.id, groupId, agent.email],
    );
    return agent;
  }

  const assign = (conversationId: number, groupId: number | null) =>
    query('update conversations set assigned_chat_group_id = $1 where id = $2', [groupId, conversationId]);

  /** A customer's image in a new conversation of `groupId` (null: no group). */
  async function inboundImage(groupId: number | null) {
    const { wamid, conversationId } = await inbound(customer(), { type: 'image' });
    const [row] = await query<{ meta_data: { image: { id: string } } }>(
      'select meta_data from wa_messages where id = $1',
      [wamid],
    );
    await assign(conversationId, groupId);
    return { conversationId, mediaId: row!.meta_data.image.id };
  }

  const fetchAs = (mediaId: string, session: Session, asBusiness: TBusiness = business) =>
    api('GET', `/api/whatsapp/media/${mediaId}/`, { session, business: asBusiness });

  /** Each caller's status for the media, in order. */
  const statuses = async (mediaId: string, callers: Session[]) => {
    const out: number[] = [];
    for (const who of callers) out.push((await fetchAs(mediaId, who)).status);
    return out;
  };

  beforeAll(async () => {
    groupA = await newGroup('Sales');
    groupB = await newGroup('Support');
    agentA = await agentOf(groupA);
    agentB = await agentOf(groupB);
    admin = await addMember(rt.app!, rt.mailer, owner, business, 'admin');
    stranger = await signUp(rt.app!, rt.mailer);
    strangersBusiness = await createBusiness(rt.app!, stranger, 'Other Co');
  });

  it("serves a customer's media to who may see its conversation, and 404 to anyone else", async () => {
    const ofA = await inboundImage(groupA);
    const unassigned = await inboundImage(null);

    expect(await statuses(ofA.mediaId, [owner, admin, agentA, agentB])).toEqual([200, 200, 200, 404]);
    expect(await statuses(unassigned.mediaId, [owner, admin, agentA, agentB])).toEqual([200, 200, 200, 200]);
    const hidden = await fetchAs(ofA.mediaId, agentB);
    // The same answer as for an id that does not exist: nothing tells the media is there.
    expect((await body(hidden)).message).toBe(WHATSAPP_SEND_ERRORS.mediaUnavailable);
    const served = await fetchAs(ofA.mediaId, agentA);
    expect(Buffer.from(await served.arrayBuffer()).equals(sim.uploads.get(ofA.mediaId)!.bytes)).toBe(true);

    // Another business's owner sees none of it.
    expect((await fetchAs(ofA.mediaId, stranger, strangersBusiness)).status).toBe(404);
    expect((await fetchAs(unassigned.mediaId, stranger, strangersBusiness)).status).toBe(404);

    // Access follows the conversation when it moves to another group.
    await assign(ofA.conversationId, groupB);
    expect(await statuses(ofA.mediaId, [owner, admin, agentA, agentB])).toEqual([200, 200, 404, 200]);
  });

  it('lets staff fetch an upload until it is sent, then who may see its conversation and the uploader', async () => {
    const { conversationId } = await inbound(customer());
    await assign(conversationId, groupA);
    const uploaded = await upload(PNG, 'quote.png', agentA);
    expect(uploaded.status).toBe(201);
    const media = (await body<TWhatsappMediaUpload>(uploaded)).result;

    // In the composer, before the send: any staff of the business, nobody else.
    const preview = await fetchAs(media.id, agentA);
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await statuses(media.id, [owner, admin, agentB])).toEqual([200, 200, 200]);
    expect((await fetchAs(media.id, stranger, strangersBusiness)).status).toBe(404);

    const sent = await send(conversationId, { type: 'image', image: { id: media.id } }, { session: agentA });
    expect(sent.status).toBe(201);
    // The message the inbox draws: its media is served to whoever sees the conversation.
    expect(await statuses(media.id, [owner, admin, agentA, agentB])).toEqual([200, 200, 200, 404]);

    // Out of the uploader's groups, their own file stays theirs.
    await assign(conversationId, groupB);
    expect(await statuses(media.id, [agentA, agentB])).toEqual([200, 200]);
    const otherOfA = await agentOf(groupA);
    expect((await fetchAs(media.id, otherOfA)).status).toBe(404);
  });

  it('does not let an agent send a media they may not see (it would become theirs)', async () => {
    const ofA = await inbound(customer());
    await assign(ofA.conversationId, groupA);
    const media = (await body<TWhatsappMediaUpload>(await upload(PNG, 'private.png'))).result;
    expect((await send(ofA.conversationId, { type: 'image', image: { id: media.id } })).status).toBe(201);

    const { conversationId: ofB } = await inbound(customer());
    await assign(ofB, groupB);
    const calls = graphSends();
    const res = await send(ofB, { type: 'image', image: { id: media.id } }, { session: agentB });
    expect(res.status).toBe(400);
    expect((await body<Record<string, string[]>>(res)).result).toEqual({
      'image.id': [WHATSAPP_SEND_ERRORS.unknownMedia],
    });
    expect(graphSends()).toBe(calls);
    expect((await fetchAs(media.id, agentB)).status).toBe(404);
  });
});

describe('read receipts', () => {
  it('marks the newest customer message read at Meta when staff open the conversation', async () => {
    const from = customer();
    const { conversationId } = await inbound(from, { text: 'First' });
    const { wamid: newest } = await inbound(from, { text: 'Second' });
    const res = await api('PUT', `/api/msg/conversations/${conversationId}/`, { json: { is_read: true } });
    expect(res.status).toBe(200);
    expect((await body<{ is_read: boolean }>(res)).result.is_read).toBe(true);
    await sim.waitFor(() => sim.markedRead.includes(newest), 10_000);
  });
});
