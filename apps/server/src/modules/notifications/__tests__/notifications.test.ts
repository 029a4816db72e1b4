// Alerts (issue 29): notifications made from assignment, @mentions in notes and customer messages;
// listed, read and counted per member; live on the `notifications` topic; pushed to the member's
// browsers (a local push service decrypts what arrives); mailed once when unread 15 minutes. Never
// across businesses, never to an agent about a conversation outside their groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startPushSim, type PushSim } from '@titan/push-sim';
import type { TConversation, TNotification, TNotificationPage, TPushPayload } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, type Session } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { authenticated, type WsClient } from '../../../testing/ws-client';
import type { Change } from '../../../platform/change-feed';
import { deriveClaimed, deriveFromChange, deriveFromChanges } from '../notifications.derive';
import { emailUnreadNotifications } from '../notifications.email';
import { catchUpNotifications, sweepNotifications } from '../notifications.jobs';

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let ann: Session;
let bob: Session;
let sim: PushSim;
let url: string;
const clients: WsClient[] = [];

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/api/realtime/`;
  sim = await startPushSim();
  s = await scopedBusiness(app, rt.mailer, 'Alerts Co');
  other = await scopedBusiness(app, rt.mailer, 'Other Alerts Co');
  ann = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
  bob = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await sim?.close();
  await rt.destroy();
});

type Who = Session;
const call = (
  who: Who,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
  shop = s.shop,
) => app.inject({ method, url: path, headers: as(who, shop), ...(payload ? { payload } : {}) });
const page = async (who: Who, query = '', shop = s.shop) => {
  const res = await call(who, 'GET', `/api/notifications/${query}`, undefined, shop);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TNotificationPage;
};
async function until<T>(
  what: string,
  get: () => Promise<T>,
  done: (v: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const userId = (who: Who) => who.user.pk;

/** A widget visitor with a conversation in `slug` (null: no group), through the public API. */
async function visitorConversation(slug: string | null, shop = s.shop) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: shop.unique_code, name: 'Vic Visitor' },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { title: `Order ${Math.floor(Math.random() * 1e6)}`, ...(slug ? { group_slug: slug } : {}) },
  });
  expect(started.statusCode, started.body).toBe(201);
  const conversation = started.json().result as TConversation;
  const say = async (content: string) => {
    const r = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conversation.id}/messages/`,
      headers: { authorization: `Visitor ${token}` },
      payload: { message_type: 'text', content },
    });
    expect(r.statusCode, r.body).toBe(201);
  };
  return { conversation, say };
}
const assign = async (by: Who, conversationId: number, to: number | null) => {
  const res = await call(by, 'PUT', `/api/msg/conversations/${conversationId}/`, { assignee_id: to });
  expect(res.statusCode, res.body).toBe(200);
};
const note = async (by: Who, conversationId: number, content: string) => {
  const res = await call(by, 'POST', `/api/msg/conversations/${conversationId}/notes/`, { content });
  expect(res.statusCode, res.body).toBe(201);
};
const ofConversation = (p: TNotificationPage, id: number) =>
  p.results.filter((n) => n.conversation_id === id);

describe('notifications', () => {
  it('tells the assignee (live on their topic, not on anyone else’s), never the one who assigned themself', async () => {
    const annSocket = await authenticated(url, ann.access);
    const bobSocket = await authenticated(url, bob.access);
    clients.push(annSocket, bobSocket);
    for (const [socket, id] of [
      [annSocket, 'a'],
      [bobSocket, 'b'],
    ] as const) {
      socket.send({ type: 'subscribe', id, topic: 'notifications', business_code: s.shop.unique_code });
      await socket.next((m) => m.type === 'subscribed');
    }
    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(ann));
    const live = await annSocket.next((m) => m.type === 'change' && m.table === 'notifications');
    const n = live.new as TNotification;
    expect(n).toMatchObject({
      type: 'assigned',
      conversation_id: conversation.id,
      read: false,
      actor: { id: userId(s.boss) },
    });
    expect(n.title).toContain(`assigned you “${conversation.title}”`);
    expect((await bobSocket.quietFor(300)).filter((m) => m.type === 'change')).toEqual([]);
    const annPage = await page(ann, '?unread=true');
    expect(ofConversation(annPage, conversation.id)).toHaveLength(1);
    expect(annPage.unread_count).toBeGreaterThanOrEqual(1);

    // Bob takes it himself: nobody is told (he did it), and Ann is not told of losing it.
    await assign(bob, conversation.id, userId(bob));
    await new Promise((r) => setTimeout(r, 300));
    expect(ofConversation(await page(bob), conversation.id)).toHaveLength(0);

    // Read: the other tab hears it; the count drops.
    const read = await call(ann, 'POST', '/api/notifications/read/', { ids: [n.id] });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().result.updated).toBe(1);
    const update = await annSocket.next((m) => m.type === 'change' && m.event === 'UPDATE');
    expect(update.new).toMatchObject({ id: n.id, read: true });
    expect(ofConversation(await page(ann, '?unread=true'), conversation.id)).toHaveLength(0);
  });

  it('tells the members a note mentions — but an agent only about conversations of their groups', async () => {
    const support = await visitorConversation('support');
    const sales = await visitorConversation('sales');
    const agentId = userId(s.agent);
    await note(
      s.boss,
      support.conversation.id,
      `Can you take this @[Agent](member:${agentId}) and @[Ann](member:${userId(ann)})?`,
    );
    await note(s.boss, sales.conversation.id, `FYI @[Agent](member:${agentId})`);
    const agentPage = await until(
      'the agent is told',
      () => page(s.agent),
      (p) => ofConversation(p, support.conversation.id).length === 1,
    );
    const [mention] = ofConversation(agentPage, support.conversation.id);
    expect(mention).toMatchObject({ type: 'mentioned', actor: { id: userId(s.boss) } });
    expect(mention!.body).toBe('Can you take this @Agent and @Ann?');
    await until(
      'Ann is told',
      () => page(ann),
      (p) => ofConversation(p, support.conversation.id).length === 1,
    );
    // The sales conversation is outside the agent's groups: no notification, whatever the note says.
    await catchUpNotifications(rt.services.notifications);
    expect(ofConversation(await page(s.agent), sales.conversation.id)).toEqual([]);
  });

  it('tells the assignee when the customer writes, once per message however many instances derive it', async () => {
    const { conversation, say } = await visitorConversation('support');
    await assign(s.boss, conversation.id, userId(s.agent));
    await say('Where is my parcel?');
    const p = await until(
      'the agent hears the customer',
      () => page(s.agent),
      (v) => ofConversation(v, conversation.id).some((n) => n.type === 'new_message'),
    );
    const message = ofConversation(p, conversation.id).find((n) => n.type === 'new_message')!;
    expect(message.title).toBe(`New message from Vic Visitor in “${conversation.title}”`);
    expect(message.body).toBe('Where is my parcel?');
    // A second instance (the sweep, a re-heard change) makes nothing new.
    const [change] = await rt.database.query<{ seq: string; row_id: string }>(
      `select seq, row_id from change_log where table_name = 'messages' and conversation_id = $1 and op = 'INSERT' order by seq desc limit 1`,
      [conversation.id],
    );
    const again = await Promise.all(
      [0, 1].map(() =>
        deriveFromChange(rt.services.notifications, {
          table: 'messages',
          op: 'INSERT',
          id: change!.row_id,
          business_id: String(s.shop.id),
          conversation_id: String(conversation.id),
        }),
      ),
    );
    expect(again).toEqual([0, 0]);
    expect(await catchUpNotifications(rt.services.notifications)).toBe(0);
    const dropNotification = () =>
      rt.database.query(`delete from notifications where conversation_id = $1 and type = 'new_message'`, [
        conversation.id,
      ]);
    const heard: Change = {
      table: 'messages',
      op: 'INSERT',
      id: change!.row_id,
      business_id: String(s.shop.id),
      conversation_id: String(conversation.id),
      seq: Number(change!.seq),
      sender_type: 'customer',
      message_type: 'text',
    };
    // The change was claimed and derived once: an instance hearing it again passes it by, reading
    // nothing — even with the notification gone (deriving it would make it again, as above).
    const [claim] = await rt.database.query<{ done: boolean }>(
      `select done_at is not null as done from notification_derivations where seq = $1`,
      [change!.seq],
    );
    expect(claim?.done).toBe(true);
    await dropNotification();
    expect(await deriveClaimed(rt.services.notifications, [heard])).toBe(0);
    expect(await catchUpNotifications(rt.services.notifications)).toBe(0);
    // What a feed dropped (heard by no instance: no claim) the catch-up makes.
    await rt.database.query(`delete from notification_derivations where seq = $1`, [change!.seq]);
    expect(await catchUpNotifications(rt.services.notifications)).toBe(1);
    // Two instances hearing it at once: one claims and makes it, the other passes it by.
    await dropNotification();
    await rt.database.query(`delete from notification_derivations where seq = $1`, [change!.seq]);
    const both = await Promise.all([0, 1].map(() => deriveClaimed(rt.services.notifications, [heard])));
    expect(both.sort()).toEqual([0, 1]);
    // An instance that claimed it and died mid-batch: nobody takes it while the lease holds; once
    // it lapses, the minute's sweep derives it.
    await dropNotification();
    await rt.database.query(
      `update notification_derivations set done_at = null, lease_until = now() + interval '1 minute' where seq = $1`,
      [change!.seq],
    );
    expect(await catchUpNotifications(rt.services.notifications)).toBe(0);
    await sweepNotifications(rt.services.notifications);
    expect(
      ofConversation(await page(s.agent), conversation.id).filter((n) => n.type === 'new_message'),
    ).toHaveLength(0);
    await rt.database.query(
      `update notification_derivations set lease_until = now() - interval '1 second' where seq = $1`,
      [change!.seq],
    );
    await sweepNotifications(rt.services.notifications);
    expect(
      ofConversation(await page(s.agent), conversation.id).filter((n) => n.type === 'new_message'),
    ).toHaveLength(1);
    const [retaken] = await rt.database.query<{ done: boolean }>(
      `select done_at is not null as done from notification_derivations where seq = $1`,
      [change!.seq],
    );
    expect(retaken?.done).toBe(true);
  });

  it('keeps businesses apart: lists, reads and the topic', async () => {
    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(ann));
    const mine = await until(
      'Ann is told',
      () => page(ann),
      (p) => ofConversation(p, conversation.id).length === 1,
    );
    const id = ofConversation(mine, conversation.id)[0]!.id;
    // The other business's owner: not a member here (403), and Ann's ids are unknown there (404).
    expect((await call(other.boss, 'GET', '/api/notifications/')).statusCode).toBe(403);
    const foreign = await call(other.boss, 'POST', '/api/notifications/read/', { ids: [id] }, other.shop);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result).toEqual({ ids: ['One or more of these notifications were not found.'] });
    // A member's own ids only, even within the business; nothing half-written.
    const mixed = await call(bob, 'POST', '/api/notifications/read/', { ids: [id] });
    expect(mixed.statusCode).toBe(404);
    expect(ofConversation(await page(ann, '?unread=true'), conversation.id)).toHaveLength(1);
    expect((await page(other.boss, '', other.shop)).results).toEqual([]);
    const socket = await authenticated(url, other.boss.access);
    clients.push(socket);
    socket.send({ type: 'subscribe', id: 'x', topic: 'notifications', business_code: s.shop.unique_code });
    expect(await socket.next((m) => m.type === 'error' || m.type === 'subscribed')).toMatchObject({
      type: 'error',
    });
    // All: every one of Ann's, none of anyone else's.
    const all = await call(ann, 'POST', '/api/notifications/read/', { all: true });
    expect(all.json().result.unread_count).toBe(0);
  });

  it('refuses bad input with the field named, and API keys', async () => {
    const cases: [string, string, object | undefined, string][] = [
      ['GET', '/api/notifications/?unread=maybe', undefined, 'unread'],
      ['GET', '/api/notifications/?colour=red', undefined, ''],
      ['POST', '/api/notifications/read/', {}, 'ids'],
      ['POST', '/api/notifications/read/', { ids: [1], all: true }, 'ids'],
      ['POST', '/api/notifications/read/', { all: false }, 'all'],
      ['PUT', '/api/notifications/preferences/', { assigned: { in_app: true } }, 'assigned.push'],
      ['PUT', '/api/notifications/preferences/', { nagging: { in_app: true, push: true, email: true } }, ''],
      [
        'POST',
        '/api/notifications/push-subscriptions/',
        { endpoint: 'ftp://x', keys: { p256dh: 'a', auth: 'b' } },
        'endpoint',
      ],
      [
        'POST',
        '/api/notifications/push-subscriptions/',
        { ...sim.subscribe(), keys: { p256dh: 'AAAA', auth: 'AAAA' } },
        'keys.p256dh',
      ],
      [
        'DELETE',
        '/api/notifications/push-subscriptions/',
        { endpoint: 'https://push.example/none' },
        'endpoint',
      ],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await call(ann, method as 'GET', path, body);
      expect(res.statusCode, `${method} ${path} ${JSON.stringify(body)}: ${res.body}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(res.statusCode).toBeLessThan(500);
      if (field) expect(Object.keys(res.json().result ?? {}), res.body).toContain(field);
    }
    const key = await call(s.boss, 'POST', '/api/auth/api-keys/', { name: 'alerts' });
    const res = await app.inject({
      method: 'GET',
      url: '/api/notifications/',
      headers: { authorization: `Api-Key ${key.json().result.key}` },
    });
    expect(res.statusCode).toBe(403);
  });

  it('follows the member’s preferences: in-app off keeps it out of the bell', async () => {
    const got = await call(bob, 'GET', '/api/notifications/preferences/');
    expect(got.json().result.assigned).toEqual({ in_app: true, push: true, email: true });
    const put = await call(bob, 'PUT', '/api/notifications/preferences/', {
      assigned: { in_app: false, push: false, email: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().result.assigned).toEqual({ in_app: false, push: false, email: false });
    expect(put.json().result.mentioned).toEqual({ in_app: true, push: true, email: true });
    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(bob));
    await catchUpNotifications(rt.services.notifications);
    const stored = (conversationId: number) =>
      rt.database.query<{ in_app: boolean; mailed: boolean }>(
        `select in_app, email_claimed_at is null as mailed from notifications
         where user_id = $1 and conversation_id = $2`,
        [userId(bob), conversationId],
      );
    // Every channel off: nothing is made at all (once the assignment's line is derived).
    await until(
      'the assignment is derived',
      () =>
        rt.database.query<{ done: boolean }>(
          `select d.done_at is not null as done from notification_derivations d
           join change_log c on c.seq = d.seq
           where c.conversation_id = $1 and c.table_name = 'messages' and c.op = 'INSERT'`,
          [conversation.id],
        ),
      (rows) => rows.length > 0 && rows.every((r) => r.done),
    );
    expect(await stored(conversation.id)).toEqual([]);
    // Asked once the derivation is done (asked before, an empty bell proved nothing).
    expect(ofConversation(await page(bob), conversation.id)).toEqual([]);
    // Only the email on: made (to be mailed), never in the bell.
    await call(bob, 'PUT', '/api/notifications/preferences/', {
      assigned: { in_app: false, push: false, email: true },
    });
    const second = await visitorConversation(null);
    await assign(s.boss, second.conversation.id, userId(bob));
    const made = await until(
      'the email-only notification is made',
      () => stored(second.conversation.id),
      (rows) => rows.length > 0,
    );
    expect(made).toEqual([{ in_app: false, mailed: true }]);
    expect(ofConversation(await page(bob), second.conversation.id)).toEqual([]);
    await call(bob, 'PUT', '/api/notifications/preferences/', {
      assigned: { in_app: true, push: true, email: true },
    });
  });

  it('makes one notification of a change heard twice in one batch', async () => {
    const { conversation } = await visitorConversation(null);
    await note(s.boss, conversation.id, `Look @[Ann](member:${userId(ann)})`);
    await until(
      'Ann is told',
      () => page(ann),
      (p) => ofConversation(p, conversation.id).length === 1,
    );
    const [change] = await rt.database.query<{ row_id: string }>(
      `select row_id from change_log where table_name = 'messages' and conversation_id = $1 and op = 'INSERT'
       order by seq desc limit 1`,
      [conversation.id],
    );
    await rt.database.query(`delete from notifications where conversation_id = $1`, [conversation.id]);
    const heard: Change = {
      table: 'messages',
      op: 'INSERT',
      id: change!.row_id,
      business_id: String(s.shop.id),
      conversation_id: String(conversation.id),
    };
    // The same change twice in one batch (the feed and a catch-up): one statement, one notification.
    expect(await deriveFromChanges(rt.services.notifications, [heard, heard])).toBe(1);
    expect(ofConversation(await page(ann), conversation.id)).toHaveLength(1);
  });
});

describe('web push', () => {
  it('pushes to the member’s browser, encrypted for it, until they sign out', async () => {
    const carl = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
    const setup = await call(carl, 'GET', '/api/notifications/push-subscriptions/');
    expect(setup.statusCode, setup.body).toBe(200);
    const vapid = setup.json().result.vapid_public_key as string;
    expect(Buffer.from(vapid, 'base64url')).toHaveLength(65);
    // The private key is stored sealed, never in the clear.
    const [keys] = await rt.database.query<{ private_key_sealed: string }>(
      'select private_key_sealed from web_push_keys',
    );
    expect(keys!.private_key_sealed).toMatch(/^v1\./);

    const subscription = sim.subscribe();
    const saved = await call(carl, 'POST', '/api/notifications/push-subscriptions/', subscription);
    expect(saved.statusCode, saved.body).toBe(201);

    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(carl));
    const push = await sim.next(subscription.endpoint);
    const payload = JSON.parse(push.text) as TPushPayload;
    expect(payload).toMatchObject({
      type: 'assigned',
      conversation_id: conversation.id,
      business_code: s.shop.unique_code,
      unread_count: 1,
    });
    expect(payload.title).toContain(conversation.title);
    expect(push.vapid.publicKey).toBe(vapid);

    // Signed out: nothing more is pushed there, and the subscription goes.
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      payload: { refresh: carl.refresh },
    });
    expect(out.statusCode, out.body).toBe(200);
    const next = await visitorConversation(null);
    await assign(s.boss, next.conversation.id, userId(carl));
    await until(
      'Carl is told in the app',
      async () => {
        const [row] = await rt.database.query<{ n: string }>(
          'select count(*) as n from notifications where user_id = $1 and conversation_id = $2',
          [userId(carl), next.conversation.id],
        );
        return Number(row!.n);
      },
      (n) => n === 1,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(sim.received.filter((p) => p.token === push.token)).toHaveLength(1);
    await sweepNotifications(rt.services.notifications);
    const [left] = await rt.database.query<{ n: string }>(
      'select count(*) as n from push_subscriptions where user_id = $1',
      [userId(carl)],
    );
    expect(Number(left!.n)).toBe(0);
  });

  it('removes a subscription the push service says is gone (410)', async () => {
    const subscription = sim.subscribe();
    expect((await call(ann, 'POST', '/api/notifications/push-subscriptions/', subscription)).statusCode).toBe(
      201,
    );
    sim.expire(subscription.endpoint);
    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(ann));
    await until(
      'the gone subscription is removed',
      async () =>
        (await call(ann, 'GET', '/api/notifications/push-subscriptions/')).json().result
          .subscriptions as unknown[],
      (subs) => subs.length === 0,
    );
  });

  it('deletes a subscription by endpoint (the browser unsubscribing, or signing out)', async () => {
    const subscription = sim.subscribe();
    await call(bob, 'POST', '/api/notifications/push-subscriptions/', subscription);
    // Another member cannot remove it.
    expect(
      (
        await call(ann, 'DELETE', '/api/notifications/push-subscriptions/', {
          endpoint: subscription.endpoint,
        })
      ).statusCode,
    ).toBe(404);
    const res = await call(bob, 'DELETE', '/api/notifications/push-subscriptions/', {
      endpoint: subscription.endpoint,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the unread email', () => {
  it('mails what stays unread 15 minutes, once, even with two instances claiming at the same time', async () => {
    const dora = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
    const { conversation } = await visitorConversation(null);
    const second = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(dora));
    await assign(s.boss, second.conversation.id, userId(dora));
    const p = await until(
      'Dora is told twice',
      () => page(dora),
      (v) => v.count === 2,
    );
    // One of them she reads; the other stays unread past 15 minutes.
    await call(dora, 'POST', '/api/notifications/read/', {
      ids: [ofConversation(p, second.conversation.id)[0]!.id],
    });
    const mails = () => rt.mailer.listOutbox(dora.email);
    const before = (await mails()).length;
    // Not yet due.
    expect(await emailUnreadNotifications(rt.services.notifications)).toBe(0);
    await rt.database.query(
      `update notifications set created_at = now() - interval '16 minutes' where user_id = $1`,
      [userId(dora)],
    );
    const sent = await Promise.all([
      emailUnreadNotifications(rt.services.notifications),
      emailUnreadNotifications(rt.services.notifications),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await emailUnreadNotifications(rt.services.notifications)).toBe(0);
    const inbox = await mails();
    expect(inbox.length - before).toBe(1);
    expect(inbox[0]!.subject).toContain(conversation.title);
    expect(inbox[0]!.text).toContain(`/messages?conversation=${conversation.id}`);
    expect(inbox[0]!.text).not.toContain(second.conversation.title);
  });

  it('sends none to a member who turned email off for that type', async () => {
    const eve = await addMember(app, rt.mailer, s.boss, s.shop, 'admin');
    await call(eve, 'PUT', '/api/notifications/preferences/', {
      assigned: { in_app: true, push: true, email: false },
    });
    const { conversation } = await visitorConversation(null);
    await assign(s.boss, conversation.id, userId(eve));
    await until(
      'Eve is told',
      () => page(eve),
      (v) => v.count === 1,
    );
    await rt.database.query(
      `update notifications set created_at = now() - interval '16 minutes' where user_id = $1`,
      [userId(eve)],
    );
    await emailUnreadNotifications(rt.services.notifications);
    expect((await rt.mailer.listOutbox(eve.email)).filter((m) => m.subject.includes('nread'))).toEqual([]);
  });
});
