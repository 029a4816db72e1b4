// The inbox list's extras (issue 29). The one-line preview: each conversation carries its newest
// customer or team message, never a note or an activity line, the same in the list, its own GET
// and the staff realtime feed, cut to LAST_MESSAGE_PREVIEW_MAX; visitors never get one. The
// sidebar's per-label counts, within what the caller may see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  LAST_MESSAGE_PREVIEW_MAX,
  ZConversation,
  type TConversation,
  type TConversationCounts,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let url: string;
const clients: WsClient[] = [];
const SECRET = 'NOTE-NOT-A-PREVIEW 91c2';

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  s = await scopedBusiness(app, rt.mailer, 'Preview Co');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

async function visitorConversation() {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: s.shop.unique_code, name: 'Pia' },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: {},
  });
  return { token, conversation: started.json().result as TConversation };
}

const listRow = async (id: number) => {
  const res = await app.inject({
    method: 'GET',
    url: '/api/msg/conversations/',
    headers: as(s.boss, s.shop),
  });
  return (res.json().result.results as TConversation[]).find((c) => c.id === id)!;
};
const single = async (id: number) =>
  (
    await app.inject({ method: 'GET', url: `/api/msg/conversations/${id}/`, headers: as(s.boss, s.shop) })
  ).json().result as TConversation;

describe('last message preview', () => {
  it('is the newest customer or team message, never a note, alike in the list, the GET and the feed', async () => {
    const { token, conversation } = await visitorConversation();
    expect((await single(conversation.id)).last_message_preview).toBeNull();

    const visitorSays = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: { authorization: `Visitor ${token}` },
      payload: { message_type: 'text', content: 'Where is my parcel?' },
    });
    expect(visitorSays.statusCode, visitorSays.body).toBe(201);
    expect((await listRow(conversation.id)).last_message_preview).toEqual({
      sender_type: 'customer',
      message_type: 'text',
      content: 'Where is my parcel?',
    });

    const ws = await authenticated(url, s.boss.access);
    clients.push(ws);
    ws.send({ type: 'subscribe', id: 'convs', topic: 'conversations', business_code: s.shop.unique_code });
    await ws.next((m) => m.type === 'subscribed' && m.id === 'convs');

    const long = `On its way. ${'x'.repeat(400)}`;
    const reply = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(s.boss, s.shop),
      payload: { message_type: 'text', content: long },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const change = await ws.next(
      (m) => m.type === 'change' && (m.new as TConversation | undefined)?.id === conversation.id,
    );
    expect((change.new as TConversation).last_message_preview).toEqual({
      sender_type: 'staff',
      message_type: 'text',
      content: long.slice(0, LAST_MESSAGE_PREVIEW_MAX),
    });

    const noted = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/notes/`,
      headers: as(s.boss, s.shop),
      payload: { content: SECRET },
    });
    expect(noted.statusCode, noted.body).toBe(201);
    const row = await listRow(conversation.id);
    expect(row.last_message_preview?.content).toBe(long.slice(0, LAST_MESSAGE_PREVIEW_MAX));
    expect(ZConversation.strict().parse(row)).toEqual(await single(conversation.id));

    // The visitor's own reads carry no preview at all.
    const mine = await app.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).toContain(`"id":${conversation.id}`);
    expect(mine.body).not.toContain('Where is my parcel?');
    expect(mine.body).not.toContain(SECRET);
  });

  it('reads a WhatsApp conversation from its WhatsApp messages', async () => {
    const [customer] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, external_id, name, phone) values ($1, 'wa:15550003333', 'Wu', '+15550003333') returning id`,
      [s.shop.id],
    );
    const [wa] = await rt.database.query<{ id: string }>(
      `insert into conversations (business_id, channel, initiator_id, title, last_message_at)
       values ($1, 'whatsapp', $2, 'WhatsApp', now()) returning id`,
      [s.shop.id, customer!.id],
    );
    const id = Number(wa!.id);
    await rt.database.query(
      `insert into wa_messages (id, business_id, conversation_id, content, message_type, sender_type, sender_id)
       values ('wamid.1', $1, $2, 'Photo of the box', 'file', 'customer', $3),
              ('wamid.2', $1, $2, 'team only', 'note', 'staff', null)`,
      [s.shop.id, id, customer!.id],
    );
    expect((await listRow(id)).last_message_preview).toEqual({
      sender_type: 'customer',
      message_type: 'file',
      content: 'Photo of the box',
    });
    expect((await single(id)).last_message_preview?.content).toBe('Photo of the box');
  });
});

describe('label counts', () => {
  it('counts each label over the conversations the caller may see, by status too', async () => {
    const label = async (name: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/msg/labels/',
        headers: as(s.boss, s.shop),
        payload: { name, color: '#ff0000' },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().result.id as number;
    };
    const [vip, late] = [await label('VIP'), await label('Late')];
    await s.visitor('Lou', ['support', 'sales', null]);
    const rows = await rt.database.query<{ id: string; grp: string | null }>(
      `select c.id, g.slug as grp from conversations c join customers u on u.id = c.initiator_id
       left join chat_groups g on g.id = c.assigned_chat_group_id where u.name = 'Lou' order by c.id`,
    );
    const ids = rows.map((r) => Number(r.id));
    const bySlug = Object.fromEntries(rows.map((r) => [r.grp ?? 'none', Number(r.id)]));
    const labelled = await app.inject({
      method: 'POST',
      url: '/api/msg/conversations/bulk/',
      headers: as(s.boss, s.shop),
      payload: { ids, label_ids: [vip] },
    });
    expect(labelled.statusCode, labelled.body).toBe(200);
    await app.inject({
      method: 'PUT',
      url: `/api/msg/conversations/${bySlug.sales}/`,
      headers: as(s.boss, s.shop),
      payload: { label_ids: [vip, late], status: 'resolved' },
    });
    const counts = async (who = s.boss, query = '') => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/msg/conversations/counts/${query}`,
        headers: as(who, s.shop),
      });
      expect(res.statusCode, res.body).toBe(200);
      const labels = (res.json().result as TConversationCounts).labels;
      return Object.fromEntries(labels.map((l) => [l.id, l.count]));
    };
    expect(await counts()).toEqual({ [vip]: 3, [late]: 1 });
    expect(await counts(s.boss, '?status=active')).toEqual({ [vip]: 2 });
    // The agent of "support" sees support's and the group-less conversation, not sales'.
    expect(await counts(s.agent)).toEqual({ [vip]: 2 });
  });
});
