// Broadcasts: a list fanned out into one queued send per customer, in batches that each commit
// with the cursor; a fan-out stopped mid-way resumes and records nothing twice; a cancelled one
// stops and cancels what was not yet sent; another business's batch is not found.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBroadcast, TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createMany } from '../../sends/sends.service';
import {
  broadcastSendKey,
  cancelBroadcast,
  fanOut,
  startBroadcast,
  type BroadcastChannel,
  type BroadcastDeps,
} from '../broadcasts.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let listId: number;
const customerIds: number[] = [];

/** A channel that records an email send per customer with an address, and what was dispatched. */
function emailLike(failOnBatch?: number) {
  const dispatched: string[] = [];
  let batches = 0;
  const channel: BroadcastChannel = {
    async queueBatch(tx, broadcast, customers) {
      if (++batches === failOnBatch) throw new Error('the process stopped here');
      const withEmail = customers.filter((c) => c.email);
      const written = await createMany(
        tx,
        withEmail.map((c) => ({
          id: randomUUID(),
          status: 'queued' as const,
          businessId: broadcast.businessId,
          channel: 'email' as const,
          cause: 'broadcast' as const,
          causeId: broadcast.id,
          customerId: c.id,
          recipient: c.email!,
          idempotencyKey: broadcastSendKey(broadcast.id, c.id),
          providerRequest: { subject: String(broadcast.request.subject) },
        })),
      );
      return {
        sendIds: written.map((w) => w.id),
        skipped: { 'no email address': customers.length - withEmail.length },
      };
    },
    async dispatch(ids) {
      dispatched.push(...ids);
    },
  };
  return { channel, dispatched };
}

function deps(channel: BroadcastChannel): BroadcastDeps {
  return { ...rt.services.broadcasts, channels: new Map([['email', channel]]), batchSize: 3 };
}

const sendsOf = (id: string) =>
  rt.database.query<{ customer_id: string; status: string }>(
    `select customer_id, status from sends where cause = 'broadcast' and cause_id = $1 order by customer_id`,
    [id],
  );

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Broadcast Co');
  for (let i = 0; i < 8; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: {
        business_code: business.unique_code,
        name: `P${i}`,
        ...(i === 4 ? {} : { email: `p${i}@example.test` }),
      },
    });
    customerIds.push(res.json().result.customer.id);
  }
  const list = await app.inject({
    method: 'POST',
    url: '/api/business/customer-lists/',
    headers: as(owner, business),
    payload: { name: 'Everyone' },
  });
  listId = list.json().result.id;
  await app.inject({
    method: 'POST',
    url: `/api/business/customer-lists/${listId}/members/`,
    headers: as(owner, business),
    payload: { customer_ids: customerIds },
  });
});
afterAll(() => rt.destroy());

const start = (d: BroadcastDeps) =>
  startBroadcast(d, {
    businessId: business.id,
    channel: 'email',
    listId,
    request: { subject: 'Hi' },
    createdBy: null,
  });

describe('broadcasts', () => {
  it('records one queued send per customer with an address, counts the others by reason, and dispatches them', async () => {
    const { channel, dispatched } = emailLike();
    const d = deps(channel);
    const started = await start(d);
    expect(started).toMatchObject({ status: 'queued', total: 8, queued: 0, list_id: listId });
    await fanOut(d, started.id);
    const res = await app.inject({
      method: 'GET',
      url: `/api/broadcasts/${started.id}/`,
      headers: as(owner, business),
    });
    const done: TBroadcast = res.json().result;
    expect(done).toMatchObject({
      status: 'done',
      total: 8,
      queued: 7,
      skipped: 1,
      skipped_reasons: { 'no email address': 1 },
      sends: { queued: 7 },
    });
    expect(done.finished_at).not.toBeNull();
    expect(dispatched).toHaveLength(7);
    expect((await sendsOf(started.id)).map((s) => Number(s.customer_id))).toEqual(
      customerIds.filter((_, i) => i !== 4),
    );
  });

  it('resumes a fan-out stopped mid-way from its cursor, and records nobody twice even from the start', async () => {
    const failing = emailLike(2);
    const d1 = deps(failing.channel);
    const started = await start(d1);
    await expect(fanOut(d1, started.id)).rejects.toThrow('the process stopped here');
    // The first batch (3 customers) committed with the cursor; the second did not.
    expect(await sendsOf(started.id)).toHaveLength(3);
    const again = emailLike();
    await fanOut(deps(again.channel), started.id);
    expect(await sendsOf(started.id)).toHaveLength(7);
    expect(again.dispatched).toHaveLength(4);
    // Even with its cursor lost, a re-run records nothing twice: the idempotency keys hold.
    await rt.database.query(`update broadcasts set status = 'running', cursor = 0 where id = $1`, [
      started.id,
    ]);
    const third = emailLike();
    await fanOut(deps(third.channel), started.id);
    expect(await sendsOf(started.id)).toHaveLength(7);
    expect(third.dispatched).toEqual([]);
  });

  it('cancels: no further batches, and sends not yet claimed are cancelled', async () => {
    const { channel } = emailLike();
    const d = deps(channel);
    const started = await start(d);
    // One batch goes out, then the business cancels before the sender claimed any of it.
    const oneBatch: BroadcastChannel = {
      ...channel,
      dispatch: async () => {
        await cancelBroadcast(rt.database.db, business.id, started.id);
      },
    };
    await fanOut(deps(oneBatch), started.id);
    const after = (
      await app.inject({ method: 'GET', url: `/api/broadcasts/${started.id}/`, headers: as(owner, business) })
    ).json().result as TBroadcast;
    expect(after.status).toBe('cancelled');
    // The first batch's sends are cancelled; the second batch was never recorded.
    expect(after.sends).toEqual({ cancelled: 3 });
    expect(after.queued).toBe(3);
  });

  it('refuses an unknown list with a field message, and another business’s batch is not found', async () => {
    const { channel } = emailLike();
    await expect(
      startBroadcast(deps(channel), {
        businessId: business.id,
        channel: 'email',
        listId: 999_999,
        request: {},
        createdBy: null,
      }),
    ).rejects.toMatchObject({ code: 'bad_request', result: { list_id: ['No such list.'] } });
    const started = await start(deps(channel));
    const intruder = await signUp(app, rt.mailer);
    const theirs = await createBusiness(app, intruder, 'Intruder Co');
    for (const [method, url] of [
      ['GET', `/api/broadcasts/${started.id}/`],
      ['POST', `/api/broadcasts/${started.id}/cancel/`],
    ] as const) {
      expect((await app.inject({ method, url, headers: as(intruder, theirs) })).statusCode).toBe(404);
    }
    const bad = await app.inject({
      method: 'GET',
      url: '/api/broadcasts/not-a-uuid/',
      headers: as(owner, business),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.id).toEqual(['Not a valid batch id.']);
  });
});
