import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import {
  as,
  createBusiness,
  keyFromOutbox,
  signUp,
  uniqueEmail,
  type Session,
} from '../../../testing/identity';
import { findRecentEvents } from '../../analytics/analytics.service';
import { TEAM_ERRORS } from '../team.service';

let rt: TestRuntime;
let app: FastifyInstance;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
});
afterAll(() => rt.destroy());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, s: Session, b?: TBusiness, payload?: object) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });

/** An owner with a business, plus a member invited with `role` who accepted. */
async function teamWith(role: 'admin' | 'agent') {
  const owner = await signUp(app, rt.mailer, { firstName: 'Owner' });
  const business = await createBusiness(app, owner, `Team ${role}`);
  const member = await signUp(app, rt.mailer, { firstName: 'Member' });
  await req('POST', '/api/business/users/', owner, business, { email: member.email, role });
  const token = await keyFromOutbox(rt.mailer, member.email, '/invite-user/join/');
  const joined = await req('POST', '/api/business/users/assign/', member, undefined, { token });
  expect(joined.statusCode).toBe(200);
  return { owner, member, business };
}

describe('businesses', () => {
  it('creates a business owned by its creator, with the spec defaults and an unguessable code', async () => {
    const s = await signUp(app, rt.mailer);
    const res = await req('POST', '/api/business/', s, undefined, {
      name: 'Acme',
      phone_number: '555 0100',
      dial_code: '+1',
    });
    expect(res.statusCode).toBe(201);
    const b = res.json().result as TBusiness;
    expect(b).toMatchObject({
      name: 'Acme',
      phone_number: '555 0100',
      dial_code: '+1',
      sms_count: 0,
      email_count: 0,
      whatsapp_count: 0,
      subscription_status: 'inactive',
      created_by: s.user.pk,
    });
    expect(b.unique_code).toMatch(/^[0-9a-z]{20}$/);
    const profile = await req('GET', '/api/users/profile/', s);
    expect(profile.json().result.businesses).toEqual([
      { id: b.id, name: 'Acme', unique_code: b.unique_code, role: 'owner', subscription_status: 'inactive' },
    ]);
    const events = await findRecentEvents(rt.database.db, 'user_created_business');
    expect(events.some((e) => e.properties !== undefined)).toBe(true);
  });

  it('reads and updates the business named by X-Business-Code, and validates fields', async () => {
    const s = await signUp(app, rt.mailer);
    const b = await createBusiness(app, s);
    expect((await req('GET', '/api/business/', s, b)).json().result.name).toBe('Acme');
    const upd = await req('PUT', '/api/business/', s, b, { name: 'Acme Ltd', dial_code: '+44' });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().result).toMatchObject({ name: 'Acme Ltd', dial_code: '+44', updated_by: s.user.pk });
    const bad = await req('PUT', '/api/business/', s, b, { name: '', dial_code: '44' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({
      name: ['This field may not be blank.'],
      dial_code: ['Enter a dial code like +1 or +44.'],
    });
  });

  it('keeps a time zone: asked at creation (UTC when left out), editable, a listed IANA name only', async () => {
    const s = await signUp(app, rt.mailer);
    const made = await req('POST', '/api/business/', s, undefined, {
      name: 'Berlin',
      time_zone: 'Europe/Berlin',
    });
    expect(made.statusCode, made.body).toBe(201);
    const b = made.json().result as TBusiness;
    expect(b.time_zone).toBe('Europe/Berlin');
    expect((await createBusiness(app, s, 'Plain')).time_zone).toBe('UTC');
    const bad = await req('POST', '/api/business/', s, undefined, { name: 'X', time_zone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toEqual({
      time_zone: ['Choose a time zone from the list, such as Europe/Berlin.'],
    });
    const upd = await req('PUT', '/api/business/', s, b, { time_zone: 'America/Sao_Paulo' });
    expect(upd.json().result.time_zone).toBe('America/Sao_Paulo');
    const wrong = await req('PUT', '/api/business/', s, b, { time_zone: 'GMT+5' });
    expect(wrong.statusCode).toBe(400);
    expect((await req('GET', '/api/business/', s, b)).json().result.time_zone).toBe('America/Sao_Paulo');
  });

  it('answers 400 without X-Business-Code', async () => {
    const s = await signUp(app, rt.mailer);
    const res = await req('GET', '/api/business/', s);
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ non_field_errors: ['The X-Business-Code header is required.'] });
  });

  it('lists the roles and their permissions', async () => {
    const s = await signUp(app, rt.mailer);
    // The business's own roles join the built-in ones (custom-roles.test.ts): a business is named.
    const b = await createBusiness(app, s, 'Roles list');
    const roles = (await req('GET', '/api/business/roles/', s, b)).json().result as {
      value: string;
      permissions: string[];
    }[];
    expect(roles.map((r) => r.value)).toEqual(['owner', 'admin', 'agent']);
    const perms = Object.fromEntries(roles.map((r) => [r.value, r.permissions]));
    expect(perms.owner).toContain('billing.manage');
    expect(perms.admin).not.toContain('billing.manage');
    expect(perms.admin).toContain('team.manage');
    expect(perms.agent).toEqual(['inbox.use', 'engage.read']);
  });
});

describe('tenant isolation', () => {
  it("never lets a member of one business read or change another business's data", async () => {
    const a = await teamWith('agent');
    const b = await teamWith('admin');
    // b's owner invites someone so that b has an invitation id to probe.
    const inv = (
      await req('POST', '/api/business/users/', b.owner, b.business, { email: uniqueEmail(), role: 'agent' })
    ).json().result;
    const bMembers = (await req('GET', '/api/business/users/', b.owner, b.business)).json().result as {
      id: number;
    }[];

    // Naming the other business in the header: 403, nothing revealed.
    for (const [method, url, payload] of [
      ['GET', '/api/business/', undefined],
      ['PUT', '/api/business/', { name: 'pwned' }],
      ['GET', '/api/business/users/', undefined],
      ['GET', '/api/business/users/invitations/', undefined],
      ['GET', '/api/auth/api-keys/', undefined],
    ] as const) {
      const res = await req(method, url, a.owner, b.business, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // Naming its own business but another business's ids: 404, never acted upon.
    for (const [method, url, payload] of [
      ['PUT', `/api/business/users/${bMembers[0]!.id}/`, { role: 'agent' }],
      ['DELETE', `/api/business/users/${bMembers[1]!.id}/`, undefined],
      ['DELETE', `/api/business/users/invitations/${inv.id}/`, undefined],
    ] as const) {
      const res = await req(method, url, a.owner, a.business, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await req('GET', '/api/business/', b.owner, b.business)).json().result.name).toBe('Team admin');
    expect((await req('GET', '/api/business/users/', b.owner, b.business)).json().result).toHaveLength(2);
    expect(
      (await req('GET', '/api/business/users/invitations/', b.owner, b.business)).json().result,
    ).toHaveLength(1);
  });

  it('keeps API keys inside their business', async () => {
    const a = await teamWith('agent');
    const b = await teamWith('agent');
    const createdKey = (await req('POST', '/api/auth/api-keys/', a.owner, a.business, { name: 'CI' })).json()
      .result;
    const key = createdKey.key as string;
    const inOwn = await app.inject({
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: `Api-Key ${key}` },
    });
    expect(inOwn.statusCode).toBe(200);
    expect(inOwn.json().result.id).toBe(a.business.id);
    const inOther = await app.inject({
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: `Api-Key ${key}`, 'x-business-code': b.business.unique_code },
    });
    expect(inOther.statusCode).toBe(403);
    // Another business cannot revoke it by id, and it keeps working.
    expect(
      (await req('DELETE', `/api/auth/api-keys/${createdKey.id}/`, b.owner, b.business)).statusCode,
    ).toBe(404);
    expect((await req('GET', '/api/auth/api-keys/', b.owner, b.business)).json().result).toEqual([]);
    const still = await app.inject({
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: `Api-Key ${key}` },
    });
    expect(still.statusCode).toBe(200);
  });
});

describe('invitations', () => {
  it('invites by mail; the invitee sees the invitation, accepts with the matching email and joins as agent', async () => {
    const owner = await signUp(app, rt.mailer, { firstName: 'Olive' });
    const business = await createBusiness(app, owner, 'Invite Co');
    const inviteeEmail = uniqueEmail('invitee');
    const created = await req('POST', '/api/business/users/', owner, business, {
      email: inviteeEmail,
      role: 'agent',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().result).toMatchObject({
      email: inviteeEmail,
      role: 'agent',
      invited_by: { pk: owner.user.pk },
    });

    const [mail] = await rt.mailer.listOutbox(inviteeEmail);
    expect(mail!.subject).toBe('Olive Lovelace invited you to Invite Co on Titan');
    expect(mail!.links[0]).toMatch(/^https:\/\/titan\.example\.com\/invite-user\/join\/[\w-]{40,}$/);
    const token = mail!.links[0]!.split('/').at(-1)!;

    const info = await app.inject({ method: 'GET', url: `/api/business/users/invitation/?token=${token}` });
    expect(info.statusCode).toBe(200);
    expect(info.json().result).toMatchObject({
      business: { name: 'Invite Co', unique_code: business.unique_code },
      email: inviteeEmail,
      role: 'agent',
    });

    const stranger = await signUp(app, rt.mailer);
    const wrong = await req('POST', '/api/business/users/assign/', stranger, undefined, { token });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe(TEAM_ERRORS.otherEmail);

    const invitee = await signUp(app, rt.mailer, { email: inviteeEmail });
    const accepted = await req('POST', '/api/business/users/assign/', invitee, undefined, { token });
    expect(accepted.json().result).toEqual({
      status: 'joined',
      business: { id: business.id, name: 'Invite Co', unique_code: business.unique_code },
      role: 'agent',
    });
    const members = (await req('GET', '/api/business/users/', owner, business)).json().result as {
      user: { email: string };
      role: string;
    }[];
    expect(members.map((m) => [m.user.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [inviteeEmail, 'agent'],
    ]);
    // Used: neither the lookup nor a second accept works any more.
    expect(
      (await app.inject({ method: 'GET', url: `/api/business/users/invitation/?token=${token}` })).statusCode,
    ).toBe(404);
    expect((await req('POST', '/api/business/users/assign/', invitee, undefined, { token })).statusCode).toBe(
      400,
    );
  });

  it('refuses expired and revoked invitations, and a member cannot be invited twice', async () => {
    const { owner, member, business } = await teamWith('agent');
    const dup = await req('POST', '/api/business/users/', owner, business, {
      email: member.email,
      role: 'agent',
    });
    expect(dup.json().result).toEqual({ email: [TEAM_ERRORS.alreadyMember] });

    const email = uniqueEmail('late');
    const inv = (await req('POST', '/api/business/users/', owner, business, { email, role: 'agent' })).json()
      .result;
    const token = await keyFromOutbox(rt.mailer, email, '/invite-user/join/');
    await rt.database.query(`update invitations set expires_at = now() - interval '1 second' where id = $1`, [
      inv.id,
    ]);
    expect(
      (await app.inject({ method: 'GET', url: `/api/business/users/invitation/?token=${token}` })).statusCode,
    ).toBe(404);

    const email2 = uniqueEmail('revoked');
    const inv2 = (
      await req('POST', '/api/business/users/', owner, business, { email: email2, role: 'agent' })
    ).json().result;
    expect(
      (await req('GET', '/api/business/users/invitations/', owner, business))
        .json()
        .result.map((i: { id: number }) => i.id),
    ).toEqual([inv2.id]);
    expect(
      (await req('DELETE', `/api/business/users/invitations/${inv2.id}/`, owner, business)).statusCode,
    ).toBe(200);
    const token2 = await keyFromOutbox(rt.mailer, email2, '/invite-user/join/');
    const late = await signUp(app, rt.mailer, { email: email2 });
    expect(
      (await req('POST', '/api/business/users/assign/', late, undefined, { token: token2 })).statusCode,
    ).toBe(400);
  });

  it('lets only owners grant the owner role, and agents not invite at all', async () => {
    const admin = await teamWith('admin');
    const asAdmin = await req('POST', '/api/business/users/', admin.member, admin.business, {
      email: uniqueEmail(),
      role: 'owner',
    });
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json().message).toBe(TEAM_ERRORS.ownerOnly);
    expect(
      (
        await req('POST', '/api/business/users/', admin.member, admin.business, {
          email: uniqueEmail(),
          role: 'agent',
        })
      ).statusCode,
    ).toBe(201);
    const agent = await teamWith('agent');
    expect(
      (
        await req('POST', '/api/business/users/', agent.member, agent.business, {
          email: uniqueEmail(),
          role: 'agent',
        })
      ).statusCode,
    ).toBe(403);
    expect((await req('GET', '/api/business/users/', agent.member, agent.business)).statusCode).toBe(200);
  });
});

describe('join requests', () => {
  it('files a request by business code that an owner approves, and refuses unknown codes', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Join Co');
    const joiner = await signUp(app, rt.mailer);
    const filed = await req('POST', '/api/business/users/assign/', joiner, undefined, {
      unique_code: business.unique_code,
    });
    expect(filed.json().result).toMatchObject({
      status: 'pending',
      role: null,
      business: { name: 'Join Co' },
    });
    // Not a member yet.
    expect((await req('GET', '/api/business/', joiner, business)).statusCode).toBe(403);

    const unknown = await req('POST', '/api/business/users/assign/', joiner, undefined, {
      unique_code: 'nope',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().result).toEqual({ unique_code: [TEAM_ERRORS.unknownCode] });

    const pending = (await req('GET', '/api/business/users/join-requests/', owner, business)).json().result;
    expect(pending).toHaveLength(1);
    expect(pending[0].user.email).toBe(joiner.email);
    const decided = await req(
      'POST',
      `/api/business/users/join-requests/${pending[0].id}/`,
      owner,
      business,
      { approve: true },
    );
    expect(decided.json().result.status).toBe('approved');
    expect((await req('GET', '/api/business/', joiner, business)).statusCode).toBe(200);
    const again = await req('POST', `/api/business/users/join-requests/${pending[0].id}/`, owner, business, {
      approve: false,
    });
    expect(again.statusCode).toBe(404);
    const twice = await req('POST', '/api/business/users/assign/', joiner, undefined, {
      unique_code: business.unique_code,
    });
    expect(twice.statusCode).toBe(409);
  });
});

describe('members and roles', () => {
  it('changes roles and removes members, but never the last owner', async () => {
    const { owner, member, business } = await teamWith('agent');
    const members = (await req('GET', '/api/business/users/', owner, business)).json().result as {
      id: number;
      role: string;
    }[];
    const ownerRow = members.find((m) => m.role === 'owner')!;
    const memberRow = members.find((m) => m.role === 'agent')!;

    const demote = await req('PUT', `/api/business/users/${ownerRow.id}/`, owner, business, {
      role: 'admin',
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(TEAM_ERRORS.lastOwner);
    expect((await req('DELETE', `/api/business/users/${ownerRow.id}/`, owner, business)).statusCode).toBe(
      409,
    );

    const promote = await req('PUT', `/api/business/users/${memberRow.id}/`, owner, business, {
      role: 'owner',
    });
    expect(promote.json().result.role).toBe('owner');
    // Two owners now: the first may step down.
    expect(
      (await req('PUT', `/api/business/users/${ownerRow.id}/`, owner, business, { role: 'admin' }))
        .statusCode,
    ).toBe(200);
    expect((await req('DELETE', `/api/business/users/${ownerRow.id}/`, member, business)).statusCode).toBe(
      200,
    );
    expect((await req('GET', '/api/business/', owner, business)).statusCode).toBe(403);
    const bad = await req('PUT', `/api/business/users/${memberRow.id}/`, member, business, { role: 'boss' });
    expect(bad.json().result).toEqual({ role: ['Select a valid choice: owner, admin, agent.'] });
  });
});

describe('API keys', () => {
  it('shows a key once, stores only its hash, authenticates with it and stops after revoke', async () => {
    const { owner, member, business } = await teamWith('agent');
    const created = await req('POST', '/api/auth/api-keys/', owner, business, { name: 'Zapier' });
    expect(created.statusCode).toBe(201);
    const key = created.json().result.key as string;
    expect(key).toMatch(/^titan_[\w-]{40,}$/);
    expect(created.json().result.prefix).toBe(key.slice(0, 14));

    const list = (await req('GET', '/api/auth/api-keys/', owner, business)).json().result;
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('key');
    expect(JSON.stringify(list)).not.toContain(key);
    const [stored] = await rt.database.query<{ key_hash: string }>(
      'select key_hash from api_keys where id = $1',
      [list[0].id],
    );
    expect(stored!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const used = await app.inject({
      method: 'GET',
      url: '/api/business/users/',
      headers: { authorization: `Api-Key ${key}` },
    });
    expect(used.statusCode).toBe(200);
    const firstUse = (await req('GET', '/api/auth/api-keys/', owner, business)).json().result[0]
      .last_used_at as string | null;
    expect(firstUse).not.toBeNull();
    // Use is recorded at most once a minute: a second call within it leaves the time alone, one
    // after it (the stored time moved back) records the new use.
    const useKey = () =>
      app.inject({
        method: 'GET',
        url: '/api/business/users/',
        headers: { authorization: `Api-Key ${key}` },
      });
    expect((await useKey()).statusCode).toBe(200);
    expect((await req('GET', '/api/auth/api-keys/', owner, business)).json().result[0].last_used_at).toBe(
      firstUse,
    );
    await rt.database.query(`update api_keys set last_used_at = now() - interval '2 minutes' where id = $1`, [
      list[0].id,
    ]);
    expect((await useKey()).statusCode).toBe(200);
    const later = (await req('GET', '/api/auth/api-keys/', owner, business)).json().result[0]
      .last_used_at as string;
    expect(Date.now() - new Date(later).getTime()).toBeLessThan(60_000);
    // The agent role plus sending: no team management, no user-only routes.
    const invite = await app.inject({
      method: 'POST',
      url: '/api/business/users/',
      headers: { authorization: `Api-Key ${key}` },
      payload: { email: uniqueEmail(), role: 'agent' },
    });
    expect(invite.statusCode).toBe(403);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/users/profile/',
          headers: { authorization: `Api-Key ${key}` },
        })
      ).statusCode,
    ).toBe(403);
    // Agents cannot manage keys.
    expect((await req('GET', '/api/auth/api-keys/', member, business)).statusCode).toBe(403);

    expect((await req('DELETE', `/api/auth/api-keys/${list[0].id}/`, owner, business)).statusCode).toBe(200);
    const revoked = await app.inject({
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: `Api-Key ${key}` },
    });
    expect(revoked.statusCode).toBe(401);
    expect((await req('GET', '/api/auth/api-keys/', owner, business)).json().result).toEqual([]);
  });

  it('refuses an expiry in the past and stops an expired key', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner);
    const past = await req('POST', '/api/auth/api-keys/', owner, business, {
      name: 'Old',
      expires_at: '2020-01-01T00:00:00Z',
    });
    expect(past.json().result).toEqual({ expires_at: ['The expiry must be in the future.'] });
    const soon = new Date(Date.now() + 60_000).toISOString();
    const created = (
      await req('POST', '/api/auth/api-keys/', owner, business, { name: 'Soon', expires_at: soon })
    ).json().result;
    await rt.database.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [
      created.id,
    ]);
    const res = await app.inject({
      method: 'GET',
      url: '/api/business/',
      headers: { authorization: `Api-Key ${created.key}` },
    });
    expect(res.statusCode).toBe(401);
  });
});
