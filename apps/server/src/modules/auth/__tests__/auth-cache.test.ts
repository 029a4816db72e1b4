import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { openDatabase } from '../../../db/client';
import { ChangeFeed } from '../../../platform/change-feed';
import { addMember, as, createBusiness, keyFromOutbox, signUp } from '../../../testing/identity';
import {
  createTestRuntime,
  createTestStore,
  testDbKind,
  type TestRuntime,
  type TestStore,
} from '../../../testing/test-runtime';
import { AuthCache, type Revocation, type SessionLookup } from '../auth-cache';
import * as repo from '../auth.repository';

// The guard's lookups, wrapped so a test can see whether a request reached the database.
vi.mock('../auth.repository', async (importOriginal) => {
  const actual = await importOriginal<typeof repo>();
  return {
    ...actual,
    findSessionWithMembership: vi.fn(actual.findSessionWithMembership),
    findLiveSession: vi.fn(actual.findLiveSession),
  };
});
const lookups = () =>
  vi.mocked(repo.findSessionWithMembership).mock.calls.length +
  vi.mocked(repo.findLiveSession).mock.calls.length;
function resetLookups(): void {
  vi.mocked(repo.findSessionWithMembership).mockClear();
  vi.mocked(repo.findLiveSession).mockClear();
}

let store: TestStore;
let rt: TestRuntime;
let app: FastifyInstance;
beforeAll(async () => {
  store = await createTestStore();
  rt = await createTestRuntime({ store });
  app = rt.app!;
  await app.ready();
});
afterAll(async () => {
  await rt.close();
  await store.destroy();
});
beforeEach(() => resetLookups());

const get = (target: FastifyInstance, url: string, headers: Record<string, string>) =>
  target.inject({ method: 'GET', url, headers }).then((r) => r.statusCode);
const post = (target: FastifyInstance, url: string, payload: object) =>
  target.inject({ method: 'POST', url, payload, remoteAddress: '198.51.100.7' });
const MEMBERS = '/api/business/users/';
/** Needs team.manage: admins and owners only. */
const INVITATIONS = '/api/business/users/invitations/';
const PROFILE = '/api/users/profile/';

async function membershipId(runtime: TestRuntime, business: TBusiness, email: string): Promise<number> {
  const [row] = await runtime.database.query<{ id: string }>(
    `select m.id from memberships m join users u on u.id = m.user_id
      join businesses b on b.id = m.business_id where b.unique_code = $1 and u.email = $2`,
    [business.unique_code, email],
  );
  return Number(row!.id);
}

describe('auth guard cache', () => {
  it('answers a repeated request with the same token without looking the session up again', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner);
    resetLookups();

    expect(await get(app, MEMBERS, as(owner, business))).toBe(200);
    expect(lookups()).toBe(1);
    expect(await get(app, MEMBERS, as(owner, business))).toBe(200);
    expect(await get(app, INVITATIONS, as(owner, business))).toBe(200);
    expect(lookups()).toBe(1);

    // Without a business the session check is remembered on its own.
    const other = await signUp(app, rt.mailer);
    expect(await get(app, PROFILE, as(other))).toBe(200);
    expect(await get(app, PROFILE, as(other))).toBe(200);
    expect(lookups()).toBe(2);
  });

  it('does not remember refusals: a business the caller is not in is asked about every time', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner);
    const stranger = await signUp(app, rt.mailer);
    resetLookups();
    expect(await get(app, MEMBERS, as(stranger, business))).toBe(403);
    expect(await get(app, MEMBERS, as(stranger, business))).toBe(403);
    expect(lookups()).toBe(2);
  });

  it('drops entries on the change feed for writes it did not make (another instance, or SQL)', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner);
    const admin = await addMember(app, rt.mailer, owner, business, 'admin');
    expect(await get(app, INVITATIONS, as(admin, business))).toBe(200);
    expect(await get(app, PROFILE, as(owner))).toBe(200);
    expect(await get(app, MEMBERS, as(owner, business))).toBe(200);

    await rt.database.query(
      `update memberships set role = 'agent' where user_id = (select id from users where email = $1)`,
      [admin.email],
    );
    await expect.poll(() => get(app, INVITATIONS, as(admin, business)), { timeout: 10_000 }).toBe(403);

    await rt.database.query(
      `update sessions set revoked_at = now() where user_id = (select id from users where email = $1)`,
      [owner.email],
    );
    await expect.poll(() => get(app, PROFILE, as(owner)), { timeout: 10_000 }).toBe(401);
    await expect.poll(() => get(app, MEMBERS, as(owner, business)), { timeout: 10_000 }).toBe(401);
  });

  it('forgets a business whose code changes or that is deleted', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner);
    expect(await get(app, MEMBERS, as(owner, business))).toBe(200);
    await rt.database.query(`update businesses set unique_code = unique_code || 'x' where unique_code = $1`, [
      business.unique_code,
    ]);
    await expect.poll(() => get(app, MEMBERS, as(owner, business)), { timeout: 10_000 }).toBe(403);

    const renamed = { unique_code: `${business.unique_code}x` };
    expect(await get(app, MEMBERS, as(owner, renamed))).toBe(200);
    await rt.database.query(`delete from businesses where unique_code = $1`, [renamed.unique_code]);
    await expect.poll(() => get(app, MEMBERS, as(owner, renamed)), { timeout: 10_000 }).toBe(403);
  });
});

// With the change feed silenced, only the writer's own synchronous invalidation can drop an entry.
describe('a write on this instance, with the change feed silenced', () => {
  let quiet: TestRuntime;
  let qApp: FastifyInstance;
  beforeAll(async () => {
    quiet = await createTestRuntime();
    qApp = quiet.app!;
    await qApp.ready();
    await quiet.feed.stop();
  });
  afterAll(() => quiet.destroy());

  it('(control) a change the instance did not make goes unseen while the entry is warm', async () => {
    const s = await signUp(qApp, quiet.mailer);
    expect(await get(qApp, PROFILE, as(s))).toBe(200);
    await quiet.database.query(
      `update sessions set revoked_at = now() where user_id = (select id from users where email = $1)`,
      [s.email],
    );
    expect(await get(qApp, PROFILE, as(s))).toBe(200);
  });

  it('logout ends a warm session at once, and leaves the user’s other sessions working', async () => {
    const s = await signUp(qApp, quiet.mailer);
    const other = (
      await post(qApp, '/api/auth/login/', { email: s.email, password: 'correct horse battery staple' })
    ).json().result as { access: string };
    expect(await get(qApp, PROFILE, as(s))).toBe(200);
    expect(await get(qApp, PROFILE, as(other))).toBe(200);
    expect(await get(qApp, PROFILE, as(s))).toBe(200);
    expect(lookups()).toBe(2); // both warm

    expect((await post(qApp, '/api/auth/logout/', { refresh: s.refresh })).statusCode).toBe(200);
    expect(await get(qApp, PROFILE, as(s))).toBe(401);
    expect(await get(qApp, PROFILE, as(other))).toBe(200);
  });

  it('reusing a rotated refresh token ends the warm session at once', async () => {
    const s = await signUp(qApp, quiet.mailer);
    const pair = (await post(qApp, '/api/auth/refresh/', { refresh: s.refresh })).json().result as {
      access: string;
    };
    expect(await get(qApp, PROFILE, as(pair))).toBe(200);
    expect(await get(qApp, PROFILE, as(pair))).toBe(200);
    expect((await post(qApp, '/api/auth/refresh/', { refresh: s.refresh })).statusCode).toBe(401);
    expect(await get(qApp, PROFILE, as(pair))).toBe(401);
  });

  it('a password reset ends every warm session of the user at once', async () => {
    const owner = await signUp(qApp, quiet.mailer);
    const business = await createBusiness(qApp, owner);
    expect(await get(qApp, MEMBERS, as(owner, business))).toBe(200);
    expect(await get(qApp, PROFILE, as(owner))).toBe(200);
    await post(qApp, '/api/auth/password/forgot/', { email: owner.email });
    const key = await keyFromOutbox(quiet.mailer, owner.email, '/forgot-password/');
    const reset = await post(qApp, '/api/auth/password/reset/', {
      email: owner.email,
      key,
      password: 'a brand new passphrase',
    });
    expect(reset.statusCode).toBe(200);
    expect(await get(qApp, MEMBERS, as(owner, business))).toBe(401);
    expect(await get(qApp, PROFILE, as(owner))).toBe(401);
  });

  it('a role change applies to the member’s very next request', async () => {
    const owner = await signUp(qApp, quiet.mailer);
    const business = await createBusiness(qApp, owner);
    const admin = await addMember(qApp, quiet.mailer, owner, business, 'admin');
    expect(await get(qApp, INVITATIONS, as(admin, business))).toBe(200);
    expect(await get(qApp, INVITATIONS, as(admin, business))).toBe(200);

    const id = await membershipId(quiet, business, admin.email);
    const demoted = await qApp.inject({
      method: 'PUT',
      url: `${MEMBERS}${id}/`,
      headers: as(owner, business),
      payload: { role: 'agent' },
    });
    expect(demoted.statusCode).toBe(200);
    expect(await get(qApp, INVITATIONS, as(admin, business))).toBe(403);
    expect(await get(qApp, MEMBERS, as(admin, business))).toBe(200);
    // The owner's own warm entry for this business is untouched.
    const before = lookups();
    expect(await get(qApp, INVITATIONS, as(owner, business))).toBe(200);
    expect(lookups()).toBe(before);
  });

  it('a removed member is refused on the very next request', async () => {
    const owner = await signUp(qApp, quiet.mailer);
    const business = await createBusiness(qApp, owner);
    const agent = await addMember(qApp, quiet.mailer, owner, business, 'agent');
    expect(await get(qApp, MEMBERS, as(agent, business))).toBe(200);
    expect(await get(qApp, MEMBERS, as(agent, business))).toBe(200);

    const id = await membershipId(quiet, business, agent.email);
    const removed = await qApp.inject({
      method: 'DELETE',
      url: `${MEMBERS}${id}/`,
      headers: as(owner, business),
    });
    expect(removed.statusCode).toBe(200);
    expect(await get(qApp, MEMBERS, as(agent, business))).toBe(403);
  });
});

describe('AuthCache', () => {
  const live = (businessId: number | null, expiresInMs = 60_000): SessionLookup => ({
    expiresAt: new Date(clock + expiresInMs),
    membership: businessId === null ? null : { businessId, uniqueCode: `b${businessId}`, role: 'admin' },
  });
  let clock = 1_000_000;
  const now = () => clock;

  it('keeps an answer for the TTL, and never past the session’s own expiry', async () => {
    const cache = new AuthCache({ ttlMs: 10_000, now });
    const load = vi.fn(async () => live(1));
    await cache.lookup('s1', 1, 'b1', load);
    clock += 9_000;
    await cache.lookup('s1', 1, 'b1', load);
    expect(load).toHaveBeenCalledTimes(1);
    clock += 2_000;
    await cache.lookup('s1', 1, 'b1', load);
    expect(load).toHaveBeenCalledTimes(2);

    const ending = vi.fn(async () => live(null, 500));
    await cache.lookup('s2', 1, null, ending);
    clock += 600;
    await cache.lookup('s2', 1, null, ending);
    expect(ending).toHaveBeenCalledTimes(2);
  });

  it('stays within its size, dropping the least recently used', async () => {
    const cache = new AuthCache({ maxEntries: 2, now });
    const load = vi.fn(async () => live(1));
    await cache.lookup('a', 1, 'b1', load);
    await cache.lookup('b', 1, 'b1', load);
    await cache.lookup('a', 1, 'b1', load); // a is now the most recent
    await cache.lookup('c', 1, 'b1', load); // drops b
    expect(cache.size).toBe(2);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.lookup('a', 1, 'b1', load);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.lookup('b', 1, 'b1', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('does not keep an answer read before an invalidation that happened while it was loading', async () => {
    const cache = new AuthCache({ now });
    let release!: (v: SessionLookup) => void;
    const pending = cache.lookup('s1', 1, 'b1', () => new Promise((r) => (release = r)));
    cache.forgetSession('s1'); // e.g. logout committed while the lookup was in flight
    release(live(1));
    expect(await pending).not.toBeNull();
    expect(cache.size).toBe(0);
  });

  it('forgets by session, by user, by membership and by business', async () => {
    const cache = new AuthCache({ now });
    const fill = async () => {
      cache.clear();
      await cache.lookup('s1', 1, 'b1', async () => live(1));
      await cache.lookup('s1', 1, 'b2', async () => live(2));
      await cache.lookup('s2', 2, 'b1', async () => live(1));
      await cache.lookup('s3', 1, null, async () => live(null));
    };
    await fill();
    cache.forgetSession('s1');
    expect(cache.size).toBe(2);
    await fill();
    cache.forgetUser(1);
    expect(cache.size).toBe(1);
    await fill();
    cache.forgetMembership(1, 1);
    expect(cache.size).toBe(3);
    await fill();
    cache.forgetBusiness(1);
    expect(cache.size).toBe(2);
  });
});

describe('AuthCache revocation announcements', () => {
  it('announces every invalidation, after its entries are gone, and stops when unsubscribed', async () => {
    const cache = new AuthCache();
    const heard: Revocation[] = [];
    let sizeWhenHeard = -1;
    const stop = cache.onRevoke((r) => {
      heard.push(r);
      sizeWhenHeard = cache.size;
    });
    await cache.lookup('s1', 1, null, async () => ({
      expiresAt: new Date(Date.now() + 60_000),
      membership: null,
    }));
    cache.forgetSession('s1');
    expect(sizeWhenHeard).toBe(0);
    cache.forgetUser(1);
    cache.forgetMembership(2, 1);
    cache.forgetBusiness(2);
    cache.forgetCustomer(7);
    expect(heard).toEqual([
      { kind: 'session', sessionId: 's1' },
      { kind: 'user', userId: 1 },
      { kind: 'membership', businessId: 2, userId: 1 },
      { kind: 'business', businessId: 2 },
      { kind: 'customer', customerId: 7 },
    ]);
    stop();
    cache.forgetUser(1);
    expect(heard).toHaveLength(5);
  });
});

describe.runIf(testDbKind === 'postgres')('across instances', () => {
  it('a session revoked or a member demoted on one instance is refused by another at once', async () => {
    const b = await createTestRuntime({ store });
    try {
      const appB = b.app!;
      await appB.ready();
      const owner = await signUp(app, rt.mailer);
      const business = await createBusiness(app, owner);
      const admin = await addMember(app, rt.mailer, owner, business, 'admin');
      expect(await get(appB, INVITATIONS, as(admin, business))).toBe(200);
      expect(await get(appB, MEMBERS, as(owner, business))).toBe(200);
      resetLookups();
      expect(await get(appB, MEMBERS, as(owner, business))).toBe(200);
      expect(lookups()).toBe(0); // B answers from its cache

      const id = await membershipId(rt, business, admin.email);
      const demoted = await app.inject({
        method: 'PUT',
        url: `${MEMBERS}${id}/`,
        headers: as(owner, business),
        payload: { role: 'agent' },
      });
      expect(demoted.statusCode).toBe(200);
      await expect.poll(() => get(appB, INVITATIONS, as(admin, business)), { timeout: 10_000 }).toBe(403);

      expect((await post(app, '/api/auth/logout/', { refresh: owner.refresh })).statusCode).toBe(200);
      await expect.poll(() => get(appB, MEMBERS, as(owner, business)), { timeout: 10_000 }).toBe(401);
    } finally {
      await b.close();
    }
  });

  it('clears the cache when the feed connection drops, and caches again once it is back', async () => {
    const database = await openDatabase({ kind: 'postgres', url: store.env.DATABASE_URL! });
    const feed = new ChangeFeed(database, pino({ level: 'silent' }), { heartbeatMs: 50, timeoutMs: 1_000 });
    await feed.start();
    const cache = new AuthCache();
    const detach = cache.attach(feed);
    const resets = vi.fn();
    feed.onReset(resets);
    const load = async (): Promise<SessionLookup> => ({
      expiresAt: new Date(Date.now() + 60_000),
      membership: null,
    });
    try {
      await cache.lookup('s1', 1, null, load);
      expect(cache.size).toBe(1);
      // Drop every LISTEN connection of this database; the listeners reconnect with backoff.
      await database.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
      );
      await expect.poll(() => resets.mock.calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(cache.size).toBe(0);
      await expect.poll(() => feed.healthy, { timeout: 10_000 }).toBe(true);
      await cache.lookup('s1', 1, null, load);
      expect(cache.size).toBe(1);
    } finally {
      detach();
      await feed.stop();
      await database.close();
    }
  });
});
