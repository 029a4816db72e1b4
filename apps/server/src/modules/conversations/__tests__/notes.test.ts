// Private notes (issue 29): staff write them with @mentions of members; they never reach the
// customer by any path — the widget's REST reads, the visitor realtime topics, WhatsApp, email —
// and a mention of a stranger is 404 naming the field, with nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ZEnvelope, ZMessage } from '@titan/contracts';
import type { TConversation, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';
import { mentionedIds } from '../notes.service';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let teammate: Session;
let url: string;
const clients: WsClient[] = [];
const SECRET = 'NOTE-ONLY-FOR-STAFF 7f3a';

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  s = await scopedBusiness(app, rt.mailer, 'Notes Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Notes Co');
  teammate = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await rt.destroy();
});

const note = (who: Session, id: number, content: string, shop = s.shop) =>
  app.inject({
    method: 'POST',
    url: `/api/msg/conversations/${id}/notes/`,
    headers: as(who, shop),
    payload: { content },
  });
const staffMessages = async (id: number, who: Session = s.boss) =>
  (
    await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${id}/messages/`,
      headers: as(who, s.shop),
    })
  ).json().result as TMessage[];

/** A widget visitor with a conversation of their own, through the public API. */
async function widgetVisitor(slug?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: s.shop.unique_code, name: 'Nia' },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: slug ? { group_slug: slug } : {},
  });
  return { token, conversation: started.json().result as TConversation };
}

describe('private notes', () => {
  it('parses mentions written @[Name](member:<id>)', () => {
    expect(mentionedIds('hi @[Ada L](member:12) and @[B](member:7), again @[Ada L](member:12)')).toEqual([
      12, 7,
    ]);
    expect(mentionedIds('@[x](member:abc) @Ada')).toEqual([]);
  });

  it('writes a note by its author, with its mentions, in the staff timeline and their realtime feed', async () => {
    const { conversation } = await widgetVisitor();
    const staff = await authenticated(url, teammate.access);
    clients.push(staff);
    staff.send({ type: 'subscribe', id: 'm', topic: 'messages', conversation_id: conversation.id });
    await staff.next((m) => m.type === 'subscribed');

    const content = `@[Ada Lovelace](member:${teammate.user.pk}) can you check? ${SECRET}`;
    const res = await note(s.boss, conversation.id, content);
    expect(res.statusCode, res.body).toBe(201);
    const written = ZEnvelope(ZMessage.strict()).parse(res.json()).result;
    expect(written).toMatchObject({
      message_type: 'note',
      sender_type: 'staff',
      sender_id: s.boss.user.pk,
      content,
      meta_data: { mentions: [teammate.user.pk] },
    });
    expect((await staffMessages(conversation.id)).map((m) => m.id)).toContain(written.id);
    const live = await staff.next((m) => m.type === 'change' && m.sub === 'm');
    expect(live.new).toMatchObject({ id: written.id, message_type: 'note' });
    // A note is no reply: the conversation still awaits one.
    const c = await app.inject({
      method: 'GET',
      url: `/api/msg/conversations/${conversation.id}/`,
      headers: as(s.boss, s.shop),
    });
    expect(c.json().result.business_replied).toBe(false);
  });

  it('never reaches a widget visitor: neither their REST reads nor their realtime topics', async () => {
    const { token, conversation } = await widgetVisitor();
    const ws = await authenticated(url, token);
    clients.push(ws);
    ws.send({ type: 'subscribe', id: 'msgs', topic: 'messages', conversation_id: conversation.id });
    ws.send({ type: 'subscribe', id: 'convs', topic: 'conversations', business_code: s.shop.unique_code });
    await ws.next((m) => m.type === 'subscribed' && m.id === 'msgs');
    await ws.next((m) => m.type === 'subscribed' && m.id === 'convs');

    expect((await note(s.boss, conversation.id, SECRET)).statusCode).toBe(201);
    // A real reply after it arrives, so the feed is known to be flowing.
    await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(s.boss, s.shop),
      payload: { message_type: 'text', content: 'A real answer' },
    });
    const reply = await ws.next((m) => m.type === 'change' && m.sub === 'msgs');
    expect(reply.new).toMatchObject({ content: 'A real answer' });
    const rest = await ws.quietFor(500);
    expect(JSON.stringify([reply, ...rest, ...ws.received])).not.toContain(SECRET);
    expect(ws.received.some((m) => (m.new as TMessage | undefined)?.message_type === 'note')).toBe(false);

    const read = await app.inject({
      method: 'GET',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: { authorization: `Visitor ${token}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(SECRET);
    expect(read.json().result.map((m: TMessage) => m.content)).toEqual(['A real answer']);
  });

  it('is never sent on WhatsApp nor by email: no send, no mail, and a note waits in the WhatsApp timeline', async () => {
    const [customer] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, external_id, name, phone) values ($1, 'wa:15550002222', 'Wes', '+15550002222') returning id`,
      [s.shop.id],
    );
    const [wa] = await rt.database.query<{ id: string }>(
      `insert into conversations (business_id, channel, initiator_id, title, last_message_at)
       values ($1, 'whatsapp', $2, 'WhatsApp', now()) returning id`,
      [s.shop.id, customer!.id],
    );
    const id = Number(wa!.id);
    const countSends = async () =>
      Number(
        (
          await rt.database.query<{ n: string }>(`select count(*) as n from sends where business_id = $1`, [
            s.shop.id,
          ])
        )[0]!.n,
      );
    const before = await countSends();
    const res = await note(s.boss, id, SECRET);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().result).toMatchObject({ message_type: 'note', status: null });
    expect(await countSends()).toBe(before);
    const mailed = await rt.database.query<{ body: string }>(
      `select row_to_json(o)::text as body from dev_outbox o`,
    );
    expect(mailed.map((m) => m.body).join('\n')).not.toContain(SECRET);
    const sent = await rt.database.query<{ body: string }>(
      `select row_to_json(x)::text as body from sends x where business_id = $1`,
      [s.shop.id],
    );
    expect(sent.map((m) => m.body).join('\n')).not.toContain(SECRET);
    expect((await staffMessages(id)).map((m) => m.content)).toContain(SECRET);
  });

  it('refuses a mention of a stranger with 404 naming content, and writes nothing', async () => {
    const { conversation } = await widgetVisitor();
    for (const stranger of [other.boss.user.pk, 99999999]) {
      const res = await note(s.boss, conversation.id, `@[Who](member:${stranger}) ${SECRET}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().result).toEqual({ content: ['Mention members of this business only.'] });
    }
    expect((await staffMessages(conversation.id)).filter((m) => m.message_type === 'note')).toEqual([]);
    const empty = await note(s.boss, conversation.id, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result).toHaveProperty('content');
  });

  it("keeps to the caller's scope: another business and an agent outside the group get 404", async () => {
    const { conversation } = await widgetVisitor('sales');
    expect((await note(other.boss, conversation.id, 'x', other.shop)).statusCode).toBe(404);
    expect((await note(s.agent, conversation.id, 'x')).statusCode).toBe(404);
    const { conversation: theirs } = await widgetVisitor('support');
    expect((await note(s.agent, theirs.id, 'mine to see')).statusCode).toBe(201);
  });
});
