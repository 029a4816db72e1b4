// Staff replies on Titan's own chat are titan_message sends on the spine, and every channel's new
// message changes its conversation through one function (inbound, outbound, reopening, set-based).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TMessage } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createStorage } from '../../../platform/storage';
import { insertCustomer } from '../../directory/directory.repository';
import * as sendsRepoLogs from '../../sends/sends.logs.repository';
import * as repo from '../conversations.repository';
import {
  applyMessageToConversations,
  businessScope,
  deliverTitanSend,
  receiveCustomerMessage,
  startConversation,
} from '../conversations.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Spine Chat Co');
});
afterAll(() => rt.destroy());

const deps = () => ({ db: rt.database.db, storage: createStorage(rt.config) });

async function visitorConversation(b: TBusiness, title = 'Where is my order?') {
  const customer = await insertCustomer(rt.database.db, { businessId: b.id, name: 'Vera Visitor' });
  const conversation = await startConversation(rt.database.db, {
    businessId: b.id,
    channel: 'titan_message',
    initiatorId: customer.id,
    title,
  });
  await receiveCustomerMessage(deps(), {
    businessId: b.id,
    conversationId: conversation.id,
    customerId: customer.id,
    message: { message_type: 'text', content: 'Hello?' },
  });
  return { customer, conversation };
}

const sendsOf = (conversationId: number) =>
  rt.database.query<{ channel: string; cause: string; status: string; provider_message_id: string | null }>(
    `select channel, cause, status, provider_message_id from sends where conversation_id = $1`,
    [conversationId],
  );

const stateOf = async (id: number) => {
  const [row] = await rt.database.query<{
    status: string;
    is_read: boolean;
    business_replied: boolean;
    last_message_at: Date | string | null;
  }>(`select status, is_read, business_replied, last_message_at from conversations where id = $1`, [id]);
  return { ...row!, last_message_at: row!.last_message_at && new Date(row!.last_message_at).toISOString() };
};

describe('a staff reply on the Titan chat', () => {
  it('leaves one titan_message send, sent, in the shared logs query and not in the WhatsApp logs', async () => {
    const { customer, conversation } = await visitorConversation(business);
    const res = await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'On its way!' },
    });
    expect(res.statusCode).toBe(201);
    const message = res.json().result as TMessage;

    // The visitor's own message is no send.
    expect(await sendsOf(conversation.id)).toEqual([
      {
        channel: 'titan_message',
        cause: 'staff_reply',
        status: 'sent',
        provider_message_id: String(message.id),
      },
    ]);

    const { rows, count } = await sendsRepoLogs.listLogs(
      rt.database.db,
      'titan_message',
      businessScope(business.id),
      {},
      10,
      0,
    );
    expect(count).toBe(1);
    expect(rows[0]).toMatchObject({
      conversation_id: expect.anything(),
      recipient: String(customer.id),
      status: 'sent',
      created_by: expect.anything(),
      sender_email: owner.email,
    });
    expect(Number(rows[0]!.conversation_id)).toBe(conversation.id);

    const whatsapp = await app.inject({
      method: 'GET',
      url: '/api/whatsapp/events/',
      headers: as(owner, business),
    });
    expect(whatsapp.statusCode).toBe(200);
    expect(whatsapp.json().result).toMatchObject({ count: 0, results: [] });
  });

  it('delivers a send once: a second claim (the recovery job) finds it taken', async () => {
    const { conversation } = await visitorConversation(business);
    await app.inject({
      method: 'POST',
      url: `/api/msg/conversations/${conversation.id}/messages/`,
      headers: as(owner, business),
      payload: { message_type: 'text', content: 'Once only' },
    });
    const [send] = await rt.database.query<{ id: string }>(
      `select id from sends where conversation_id = $1`,
      [conversation.id],
    );
    expect(await deliverTitanSend(rt.database.db, send!.id)).toBe(false);
    expect((await sendsOf(conversation.id)).map((s) => s.status)).toEqual(['sent']);
  });
});

describe('applyMessageToConversations', () => {
  it('inbound: unread, awaiting a reply, reopened when resolved; outbound: replied and read', async () => {
    const { conversation } = await visitorConversation(business);
    const id = conversation.id;
    const businessId = business.id;
    await repo.updateConversation(rt.database.db, businessId, id, {
      status: 'resolved',
      isRead: true,
      businessReplied: true,
    });

    const t1 = new Date(Date.now() + 60_000);
    await rt.database.db.transaction((tx) =>
      applyMessageToConversations(tx, 'inbound', [{ businessId, conversationId: id, at: t1 }]),
    );
    expect(await stateOf(id)).toEqual({
      status: 'active',
      is_read: false,
      business_replied: false,
      last_message_at: t1.toISOString(),
    });

    const t2 = new Date(t1.getTime() + 1000);
    await applyMessageToConversations(rt.database.db, 'outbound', [
      { businessId, conversationId: id, at: t2 },
    ]);
    expect(await stateOf(id)).toEqual({
      status: 'active',
      is_read: true,
      business_replied: true,
      last_message_at: t2.toISOString(),
    });

    // Outbound never reopens; a late message never moves the time back.
    await repo.updateConversation(rt.database.db, businessId, id, { status: 'resolved' });
    await applyMessageToConversations(rt.database.db, 'outbound', [
      { businessId, conversationId: id, at: t1 },
    ]);
    expect(await stateOf(id)).toMatchObject({ status: 'resolved', last_message_at: t2.toISOString() });
  });

  it('takes a set in one call, the latest time per conversation, and only within each business', async () => {
    const other = await createBusiness(app, owner, 'Other Spine Co');
    const a = (await visitorConversation(business)).conversation.id;
    const b = (await visitorConversation(business)).conversation.id;
    const foreign = (await visitorConversation(other)).conversation.id;
    for (const id of [a, b])
      await repo.updateConversation(rt.database.db, business.id, id, { status: 'resolved' });
    const before = await stateOf(foreign);
    const late = new Date(Date.now() + 120_000);
    const early = new Date(late.getTime() - 5000);

    await applyMessageToConversations(rt.database.db, 'inbound', [
      { businessId: business.id, conversationId: a, at: early },
      { businessId: business.id, conversationId: a, at: late },
      { businessId: business.id, conversationId: b, at: early },
      // The wrong business names the other's conversation: nothing changes.
      { businessId: business.id, conversationId: foreign, at: late },
    ]);
    expect(await stateOf(a)).toMatchObject({
      status: 'active',
      is_read: false,
      last_message_at: late.toISOString(),
    });
    expect(await stateOf(b)).toMatchObject({ status: 'active', last_message_at: early.toISOString() });
    expect(await stateOf(foreign)).toEqual(before);

    // The count triggers followed: the list's counts equal its rows.
    const res = await app.inject({
      method: 'GET',
      url: '/api/msg/conversations/?status=active&is_read=false',
      headers: as(owner, business),
    });
    const page = res.json().result as { count: number; results: { id: number }[] };
    const [{ n }] = (await rt.database.query<{ n: number }>(
      `select count(*)::int as n from conversations where business_id = $1 and status = 'active' and is_read = false`,
      [business.id],
    )) as [{ n: number }];
    expect(page.count).toBe(n);
    expect(page.results.map((r) => r.id)).toEqual(expect.arrayContaining([a, b]));
  });
});
