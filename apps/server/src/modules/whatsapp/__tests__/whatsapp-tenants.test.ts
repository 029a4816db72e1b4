// Two businesses on one Titan, each with its own number, app secret and simulator: whatever one
// business's number reports (signed with its own secret) stays in that business. A wamid or media
// id the other business also uses is a different message, status or media there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWhatsappCloudSim, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TMessage } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';

/** Business B's number, connected to the same Titan with its own secrets. */
const B_ACCOUNT = {
  phone_number_id: '106540352299901',
  waba_id: '102290129399901',
  display_phone_number: '+1 555 0999',
  verify_token: 'verify-token-tenant-b-please',
  access_token: 'EAAG-simulated-access-token-tenant-b-0123456789',
  app_secret: 'sim-app-secret-tenant-b-0123456789abcdef',
};

let bench: WhatsappBench;
let rt: TestRuntime;
let base: string;
let simA: WhatsappCloudSim;
let simB: WhatsappCloudSim;
let ownerA: Session;
let businessA: TBusiness;
let ownerB: Session;
let businessB: TBusiness;

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Tenant A' });
  ({ sim: simA, rt, base, owner: ownerA, business: businessA } = bench);
  ownerB = await signUp(rt.app!, rt.mailer);
  businessB = await createBusiness(rt.app!, ownerB, 'Tenant B');
  const res = await rt.app!.inject({
    method: 'PUT',
    url: '/api/whatsapp/account/',
    headers: as(ownerB, businessB),
    payload: B_ACCOUNT,
  });
  expect(res.statusCode).toBe(200);
  simB = await startWhatsappCloudSim({
    accessToken: B_ACCOUNT.access_token,
    appSecret: B_ACCOUNT.app_secret,
    phoneNumberId: B_ACCOUNT.phone_number_id,
    wabaId: B_ACCOUNT.waba_id,
    displayPhoneNumber: B_ACCOUNT.display_phone_number,
    statusDelayMs: 5,
  });
  simB.setWebhookUrl(`${base}/api/whatsapp/webhook/`);
});
afterAll(async () => {
  await simB?.close();
  await bench?.close();
});

const query = <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  rt.database.query<T>(sql, params);

async function api<T>(who: Session, inBusiness: TBusiness, method: string, path: string, json?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...as(who, inBusiness),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, result: ((await res.json()) as { result: T }).result };
}

/** A delivery as B's number would send it: B's metadata, signed by B's simulator with B's secret. */
function fromB(value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: B_ACCOUNT.waba_id,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '15550999',
                phone_number_id: B_ACCOUNT.phone_number_id,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** The same for A's number (signed with A's secret by A's simulator). */
function fromA(value: Record<string, unknown>) {
  const payload = fromB(value);
  payload.entry[0]!.id = bench.account.waba_id;
  payload.entry[0]!.changes[0]!.value.metadata = {
    display_phone_number: '15550001',
    phone_number_id: bench.account.phone_number_id,
  };
  return payload;
}

/** Polls a row of `business`'s wa_messages until it is there. */
async function storedMessage(businessId: number, wamid: string) {
  let row: { conversation_id: number; content: string } | undefined;
  await expect
    .poll(
      async () => {
        [row] = await query<{ conversation_id: number; content: string }>(
          'select conversation_id, content from wa_messages where business_id = $1 and id = $2',
          [businessId, wamid],
        );
        return row !== undefined;
      },
      { timeout: 60_000, interval: 50 },
    )
    .toBe(true);
  return { conversationId: Number(row!.conversation_id), content: row!.content };
}

let counter = 0;
const customer = () => `4917${String(Date.now()).slice(-6)}${String(++counter).padStart(2, '0')}`;

describe("a status from another business's number", () => {
  it("never touches this business's message or its log", async () => {
    simA.set({ autoStatuses: false });
    try {
      // A's customer writes and A's staff reply: A's message and log, accepted.
      const { wamid: inboundId } = await simA.sendInbound({ from: customer(), type: 'text', text: 'Hi A' });
      const { conversationId } = await storedMessage(businessA.id, inboundId);
      const sent = await api<TMessage>(
        ownerA,
        businessA,
        'POST',
        `/api/whatsapp/conversations/${conversationId}/messages/`,
        {
          type: 'text',
          text: { body: 'Hello from A' },
        },
      );
      expect(sent.status).toBe(201);
      const wamid = sent.result.id;

      // B's number, signing with B's own secret, reports A's wamid as failed.
      const { status } = await simB.sendRaw(
        fromB({
          statuses: [
            {
              id: wamid,
              status: 'failed',
              timestamp: String(Math.floor(Date.now() / 1000)),
              recipient_id: '15551230002',
              errors: [{ code: 131026, title: 'Message undeliverable', message: 'spoofed by B' }],
            },
          ],
        }),
      );
      expect(status).toBe(200);
      // Processed: the status is kept, as B's.
      await expect
        .poll(
          async () =>
            (
              await query<{ business_id: number }>(
                'select business_id from send_events where provider_message_id = $1 and type = $2',
                [wamid, 'failed'],
              )
            ).map((r) => Number(r.business_id)),
          { timeout: 60_000, interval: 50 },
        )
        .toEqual([businessB.id]);

      const [message] = await query<{ status: string; meta_data: Record<string, unknown> }>(
        'select status, meta_data from wa_messages where business_id = $1 and id = $2',
        [businessA.id, wamid],
      );
      expect(message!.status).toBe('accepted');
      expect(message!.meta_data.errors).toBeUndefined();
      const [log] = await query<{ status: string; error_code: number | null; error_message: string | null }>(
        'select status, error_code::int as error_code, error_message from sends where business_id = $1 and provider_message_id = $2',
        [businessA.id, wamid],
      );
      expect(log).toEqual({ status: 'accepted', error_code: null, error_message: null });
      // A's own report of the same status still applies to A's message.
      await simA.sendRaw(
        fromA({
          statuses: [
            {
              id: wamid,
              status: 'delivered',
              timestamp: String(Math.floor(Date.now() / 1000)),
              recipient_id: '15551230002',
            },
          ],
        }),
      );
      await expect
        .poll(
          async () =>
            (
              await query<{ status: string }>(
                'select status from sends where business_id = $1 and provider_message_id = $2',
                [businessA.id, wamid],
              )
            )[0]?.status,
          { timeout: 60_000, interval: 50 },
        )
        .toBe('delivered');
    } finally {
      simA.reset();
    }
  });
});

describe("a wamid another business's number delivered first", () => {
  it("does not drop this business's message with the same wamid", async () => {
    const wamid = `wamid.HBgTENANT${Date.now()}AA==`;
    // B's number delivers the wamid first: stored for B, in B's conversation.
    expect(
      (await simB.sendInbound({ from: customer(), id: wamid, type: 'text', text: 'from B' })).status,
    ).toBe(200);
    const stolen = await storedMessage(businessB.id, wamid);
    expect(stolen.content).toBe('from B');

    // A's customer's real message with the same wamid is stored for A all the same.
    const from = customer();
    expect((await simA.sendInbound({ from, id: wamid, type: 'text', text: 'the real one' })).status).toBe(
      200,
    );
    const real = await storedMessage(businessA.id, wamid);
    expect(real.content).toBe('the real one');
    const listed = await api<TMessage[]>(
      ownerA,
      businessA,
      'GET',
      `/api/msg/conversations/${real.conversationId}/messages/?limit=50`,
    );
    expect(listed.result.map((m) => [m.id, m.content])).toEqual([[wamid, 'the real one']]);

    // Each business sees its own message under that id, and only its own.
    const theirs = await api<TMessage[]>(
      ownerB,
      businessB,
      'GET',
      `/api/msg/conversations/${stolen.conversationId}/messages/?limit=50`,
    );
    expect(theirs.result.map((m) => [m.id, m.content])).toEqual([[wamid, 'from B']]);

    // A redelivery of A's message is still recognised as one (deduped within A).
    await simA.sendRaw(
      fromA({
        contacts: [{ profile: { name: 'A customer' }, wa_id: from }],
        messages: [
          {
            from,
            id: wamid,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'the real one' },
          },
        ],
      }),
    );
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>(
              'select count(*)::int as n from whatsapp_webhook_events where processed_at is null',
            )
          )[0]!.n,
        { timeout: 60_000, interval: 50 },
      )
      .toBe(0);
    const [count] = await query<{ n: number }>('select count(*)::int as n from wa_messages where id = $1', [
      wamid,
    ]);
    expect(count!.n).toBe(2);
  });
});

describe("a media id another business's number delivered first", () => {
  it("does not keep this business's customer's media from being recorded, fetched and served", async () => {
    // A media A's number really has at its Graph (an id B's number names too).
    const { wamid: sample } = await simA.sendInbound({ from: customer(), type: 'image', text: 'sample' });
    await storedMessage(businessA.id, sample);
    const mediaId = `9${Date.now()}`;
    const [sampleId] = [...simA.uploads.keys()].slice(-1);
    simA.uploads.set(mediaId, simA.uploads.get(sampleId!)!);
    const image = (text: string, from: string) => ({
      contacts: [{ profile: { name: 'Someone' }, wa_id: from }],
      messages: [
        {
          from,
          id: `wamid.HBgMEDIA${Date.now()}${++counter}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'image',
          image: { id: mediaId, mime_type: 'image/png', caption: text },
        },
      ],
    });

    // B's number names that media id first.
    const fromBCustomer = customer();
    const b = image('B first', fromBCustomer);
    await simB.sendRaw(fromB(b));
    await storedMessage(businessB.id, b.messages[0]!.id);

    // Then A's customer sends it for real: recorded for A, fetched with A's token, served to A.
    const a = image('A for real', customer());
    await simA.sendRaw(fromA(a));
    await storedMessage(businessA.id, a.messages[0]!.id);
    await expect
      .poll(
        async () =>
          (
            await query<{ storage_key: string | null }>(
              'select storage_key from whatsapp_media where business_id = $1 and id = $2',
              [businessA.id, mediaId],
            )
          )[0]?.storage_key ?? null,
        { timeout: 60_000, interval: 50 },
      )
      .toMatch(new RegExp(`^public/whatsapp_media/${mediaId}/`));
    const res = await fetch(`${base}/api/whatsapp/media/${mediaId}/`, { headers: as(ownerA, businessA) });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(simA.uploads.get(mediaId)!.bytes)).toBe(true);
    // B's row is B's: B's token cannot fetch A's media at A's Graph, and B is never served A's bytes.
    const [rowB] = await query<{ storage_key: string | null }>(
      'select storage_key from whatsapp_media where business_id = $1 and id = $2',
      [businessB.id, mediaId],
    );
    expect(rowB?.storage_key ?? null).toBeNull();
    const resB = await fetch(`${base}/api/whatsapp/media/${mediaId}/`, { headers: as(ownerB, businessB) });
    expect(resB.status).toBe(404);
  });
});
