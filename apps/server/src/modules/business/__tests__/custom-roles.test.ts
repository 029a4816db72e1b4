// Custom roles (issue 34): a role is a set of the existing permissions, and every route's check
// reads the permission, so a role holding only `engage.read` is refused every write route. The
// write routes come from the route table as the app registers them: a new route is covered the day
// it is added. Also: defining roles (validation, no widening of one's own rights, in use → 409),
// assigning them to members and API keys, and the audit rows written in the change's transaction.
import type { FastifyContextConfig, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUSTOM_ROLE_IN_USE,
  CUSTOM_ROLE_NAME_TAKEN,
  type TBusiness,
  type TMember,
  type TRoleInfo,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import {
  addMember,
  as,
  createBusiness,
  keyFromOutbox,
  signUp,
  type Session,
} from '../../../testing/identity';
import { ROLE_ERRORS } from '../business.roles';

/**
 * Business-scoped writes a read-only role may make, each with why: they change only the caller's
 * own view or nothing of the business. Anything else refused to `engage.read` alone.
 */
const READ_ONLY_WRITES: Record<string, string> = {
  'POST /api/template/preview/': 'renders a draft the caller sends; stores nothing',
  'POST /api/template/:id/preview/': 'renders a template with sample data; stores nothing',
  'POST /api/campaigns/audience/count/': 'counts the audience a draft would reach; stores nothing',
  'POST /api/business/customer-lists/segments/count/': 'counts who draft segment rules match; stores nothing',
};

const collected: RouteOptions[] = [];
let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
let reader: Session;
let readerKey: string;
let roleId: number;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  rt.app!.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const asOwner = () => as(owner, business);

beforeAll(async () => {
  rt = await createTestRuntime({ onRoute: (route) => collected.push(route) });
  await rt.app!.ready();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Roles');
  const role = await call('POST', '/api/business/roles/', asOwner(), {
    name: 'Viewer',
    permissions: ['engage.read'],
  });
  expect(role.statusCode, role.body).toBe(201);
  roleId = role.json().result.id;
  reader = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
  const members = (await call('GET', '/api/business/users/', asOwner())).json().result as TMember[];
  const membership = members.find((m) => m.user.pk === reader.user.pk)!;
  const changed = await call('PUT', `/api/business/users/${membership.id}/`, asOwner(), { role: roleId });
  expect(changed.statusCode, changed.body).toBe(200);
  expect(changed.json().result.role).toBe(roleId);
  const key = await call('POST', '/api/auth/api-keys/', asOwner(), { name: 'viewer key', role: roleId });
  expect(key.statusCode, key.body).toBe(201);
  expect(key.json().result.role).toBe(roleId);
  readerKey = key.json().result.key;
}, 120_000);
afterAll(() => rt?.destroy());

const writeRoutes = () =>
  collected
    .flatMap((o) => (Array.isArray(o.method) ? o.method : [o.method]).map((m) => ({ method: m, options: o })))
    .filter(({ method, options }) => {
      const config = (options.config ?? {}) as FastifyContextConfig;
      return config.business && !config.public && !['GET', 'HEAD', 'OPTIONS'].includes(method);
    });

describe('a custom role with only engage.read', () => {
  it('is refused (403) every business-scoped write route, as a member and as an API key', async () => {
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const { method, options } of routes) {
      const key = `${method} ${options.url}`;
      if (key in READ_ONLY_WRITES) continue;
      // The guard answers before the path or body is read: any id will do.
      const url = options.url.replace(/:[A-Za-z_]+/g, '1');
      for (const [who, headers] of [
        ['member', as(reader, business)],
        ['API key', { authorization: `Api-Key ${readerKey}` }],
      ] as const) {
        const res = await call(method as Method, url, headers, {});
        if (res.statusCode !== 403)
          failures.push(`${key} (${who}) → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('still reads what engage.read allows', async () => {
    for (const headers of [as(reader, business), { authorization: `Api-Key ${readerKey}` }]) {
      const res = await call('GET', '/api/agents/', headers);
      expect(res.statusCode, res.body).toBe(200);
    }
    // The roles list names it, so the web app knows what the member may do.
    const roles = (await call('GET', '/api/business/roles/', as(reader, business))).json()
      .result as TRoleInfo[];
    expect(roles.find((r) => r.value === roleId)).toMatchObject({ label: 'Viewer', custom: true });
    const profile = (await call('GET', '/api/users/profile/', as(reader))).json().result;
    expect(JSON.stringify(profile)).toContain(`"role":${roleId}`);
  });

  it('is refused the inbox (no inbox.use)', async () => {
    const res = await call('GET', '/api/msg/conversations/', as(reader, business));
    expect(res.statusCode).toBe(403);
  });
});

describe('defining custom roles', () => {
  it('validates names, permissions and chat groups', async () => {
    const dup = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'viewer',
      permissions: ['engage.read'],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result.name).toEqual([CUSTOM_ROLE_NAME_TAKEN]);
    const builtIn = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Admin',
      permissions: ['engage.read'],
    });
    expect(builtIn.statusCode).toBe(400);
    const ownerOnly = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Biller',
      permissions: ['billing.manage'],
    });
    expect(ownerOnly.statusCode).toBe(400);
    const unknownKey = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'X',
      permissions: ['engage.read'],
      colour: 'red',
    });
    expect(unknownKey.statusCode).toBe(400);
    const other = await signUp(rt.app!, rt.mailer);
    const otherBusiness = await createBusiness(rt.app!, other, 'Other');
    const group = (
      await call('POST', '/api/msg/chat-groups/', as(other, otherBusiness), {
        name: 'Theirs',
        slug: 'theirs',
      })
    ).json().result;
    const foreign = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Scoped',
      permissions: ['inbox.use'],
      chat_group_ids: [group.id],
    });
    // Another business's chat group is not found, with the field named.
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result.chat_group_ids).toEqual([ROLE_ERRORS.unknownGroup]);
  });

  it('never lets a role manager grant permissions they lack', async () => {
    const manager = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Team lead',
      permissions: ['team.manage', 'engage.read'],
    });
    expect(manager.statusCode).toBe(201);
    const lead = await addMember(rt.app!, rt.mailer, owner, business, 'agent');
    const members = (await call('GET', '/api/business/users/', asOwner())).json().result as TMember[];
    const leadMembership = members.find((m) => m.user.pk === lead.user.pk)!;
    await call('PUT', `/api/business/users/${leadMembership.id}/`, asOwner(), {
      role: manager.json().result.id,
    });
    const wider = await call('POST', '/api/business/roles/', as(lead, business), {
      name: 'Sender',
      permissions: ['engage.send'],
    });
    expect(wider.statusCode).toBe(403);
    const toAdmin = await call('PUT', `/api/business/users/${leadMembership.id}/`, as(lead, business), {
      role: 'admin',
    });
    expect(toAdmin.statusCode).toBe(403);
    const same = await call('POST', '/api/business/roles/', as(lead, business), {
      name: 'Reader 2',
      permissions: ['engage.read'],
    });
    expect(same.statusCode).toBe(201);
  });

  it('changes take effect at once, a role in use cannot be deleted, and each change is audited', async () => {
    const widened = await call('PUT', `/api/business/roles/${roleId}/`, asOwner(), {
      name: 'Viewer',
      permissions: ['engage.read', 'inbox.use'],
    });
    expect(widened.statusCode, widened.body).toBe(200);
    expect((await call('GET', '/api/msg/conversations/', as(reader, business))).statusCode).toBe(200);
    const inUse = await call('DELETE', `/api/business/roles/${roleId}/`, asOwner());
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(CUSTOM_ROLE_IN_USE);
    const spare = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Spare',
      permissions: ['engage.read'],
    });
    expect(
      (await call('DELETE', `/api/business/roles/${spare.json().result.id}/`, asOwner())).statusCode,
    ).toBe(200);
    const log = (await call('GET', '/api/audit-log/?object_type=role', asOwner())).json().result;
    const actions = (log.results as { action: string }[]).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['role.created', 'role.updated', 'role.deleted']));
    // One row per change (the hook does not add a second).
    expect(actions.filter((a) => a === 'role.deleted')).toHaveLength(1);
    const members = (await call('GET', '/api/audit-log/?object_type=member', asOwner())).json().result;
    expect((members.results as { action: string }[]).some((r) => r.action === 'member.updated')).toBe(true);
  });

  it("answers 404 for another business's role", async () => {
    const other = await signUp(rt.app!, rt.mailer);
    const otherBusiness = await createBusiness(rt.app!, other, 'Other 2');
    const res = await call('PUT', `/api/business/roles/${roleId}/`, as(other, otherBusiness), {
      name: 'Mine',
      permissions: ['engage.read'],
    });
    expect(res.statusCode).toBe(404);
    const assign = await call('POST', '/api/auth/api-keys/', as(other, otherBusiness), {
      name: 'k',
      role: roleId,
    });
    expect(assign.statusCode).toBe(400);
  });

  it('is offered by an invitation and on approving a join request; deleting it withdraws open invitations', async () => {
    const triage = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Triage',
      permissions: ['inbox.use', 'engage.read'],
    });
    expect(triage.statusCode, triage.body).toBe(201);
    const triageId = triage.json().result.id as number;

    // An invitation offers the custom role by id; the mail and the invitation page name it.
    const invitee = await signUp(rt.app!, rt.mailer);
    const invited = await call('POST', '/api/business/users/', asOwner(), {
      email: invitee.email,
      role: triageId,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().result.role).toBe(triageId);
    const [mail] = await rt.mailer.listOutbox(invitee.email);
    expect(mail?.text).toContain('as Triage.');
    const token = await keyFromOutbox(rt.mailer, invitee.email, '/invite-user/join/');
    const info = await call('GET', `/api/business/users/invitation/?token=${encodeURIComponent(token)}`, {});
    expect(info.json().result).toMatchObject({ role: triageId, role_label: 'Triage' });
    const joined = await call('POST', '/api/business/users/assign/', as(invitee), { token });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().result.role).toBe(triageId);
    const members = (await call('GET', '/api/business/users/', asOwner())).json().result as TMember[];
    expect(members.find((m) => m.user.pk === invitee.user.pk)?.role).toBe(triageId);
    // The role's rights hold at once: it reads the inbox and may not write customers.
    expect((await call('GET', '/api/msg/conversations/', as(invitee, business))).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/business/customer-lists/', as(invitee, business), { name: 'X' })).statusCode,
    ).toBe(403);

    // A join request approved with the custom role.
    const asker = await signUp(rt.app!, rt.mailer);
    const asked = await call('POST', '/api/business/users/assign/', as(asker), {
      unique_code: business.unique_code,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const requests = (await call('GET', '/api/business/users/join-requests/', asOwner())).json().result as {
      id: number;
      user: { pk: number };
    }[];
    const request = requests.find((r) => r.user.pk === asker.user.pk)!;
    const approved = await call('POST', `/api/business/users/join-requests/${request.id}/`, asOwner(), {
      approve: true,
      role: triageId,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const after = (await call('GET', '/api/business/users/', asOwner())).json().result as TMember[];
    expect(after.find((m) => m.user.pk === asker.user.pk)?.role).toBe(triageId);

    // Another business's role id is refused by name, and nothing is sent.
    const other = await signUp(rt.app!, rt.mailer);
    const otherBusiness = await createBusiness(rt.app!, other, 'Other 3');
    const foreign = await call('POST', '/api/business/users/', as(other, otherBusiness), {
      email: 'someone@example.com',
      role: triageId,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().result.role).toEqual([ROLE_ERRORS.unknownRole]);
    expect(await rt.mailer.listOutbox('someone@example.com')).toEqual([]);

    // A role only offered by an open invitation can be deleted; the invitation goes with it.
    const spare = await call('POST', '/api/business/roles/', asOwner(), {
      name: 'Offered',
      permissions: ['engage.read'],
    });
    const spareId = spare.json().result.id as number;
    const later = await signUp(rt.app!, rt.mailer);
    expect(
      (await call('POST', '/api/business/users/', asOwner(), { email: later.email, role: spareId }))
        .statusCode,
    ).toBe(201);
    const laterToken = await keyFromOutbox(rt.mailer, later.email, '/invite-user/join/');
    expect((await call('DELETE', `/api/business/roles/${spareId}/`, asOwner())).statusCode).toBe(200);
    const open = (await call('GET', '/api/business/users/invitations/', asOwner())).json().result as {
      email: string;
    }[];
    expect(open.some((i) => i.email === later.email)).toBe(false);
    const stale = await call('POST', '/api/business/users/assign/', as(later), { token: laterToken });
    expect(stale.statusCode).toBe(400);
  });
});
