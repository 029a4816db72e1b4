// The audit log: one row per change people and API keys make, secrets masked, filters, CSV, the
// business's rows only, owners and admins only, and no path in the server that alters a row.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { AUDIT_MASK, type TAuditEntry, type TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { purgeAuditLog, recordAudit } from '..';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer, { firstName: 'Olive' });
  business = await createBusiness(app, owner, 'Audited');
});
afterAll(() => rt.destroy());

async function entries(query = '', who: Session = owner, biz = business): Promise<TAuditEntry[]> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/audit-log/?page_size=100${query}`,
    headers: as(who, biz),
  });
  expect(res.statusCode).toBe(200);
  return res.json().result.results as TAuditEntry[];
}
const latest = async (action: string) => (await entries(`&action=${action}`))[0];

describe('audit log', () => {
  it('records settings, with before and after of the changed fields', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/business/',
      headers: { ...as(owner, business), 'user-agent': 'AuditTest/1.0' },
      payload: { name: 'Audited Ltd', require_2fa: false },
    });
    expect(res.statusCode).toBe(200);
    const row = await latest('business.updated');
    expect(row).toMatchObject({
      actor: { type: 'member', id: owner.user.pk, name: expect.stringContaining('Olive') },
      object_type: 'business',
      object_id: String(business.id),
      changes: { name: { before: 'Audited', after: 'Audited Ltd' } },
      user_agent: 'AuditTest/1.0',
      ip: expect.any(String),
    });
    // An unchanged field is not a change.
    expect(row!.changes).not.toHaveProperty('require_2fa');
  });

  it('records members, API keys (the key masked), domains, channels (secrets masked), templates and agents', async () => {
    const member = await addMember(app, rt.mailer, owner, business, 'agent');
    expect(await latest('member.created')).toMatchObject({ changes: { email: { after: member.email } } });
    const members = (
      await app.inject({ method: 'GET', url: '/api/business/users/', headers: as(owner, business) })
    ).json().result as Array<{ id: number; user: { pk: number } }>;
    const membership = members.find((m) => m.user.pk === member.user.pk)!;
    const promoted = await app.inject({
      method: 'PUT',
      url: `/api/business/users/${membership.id}/`,
      headers: as(owner, business),
      payload: { role: 'admin' },
    });
    expect(promoted.statusCode).toBe(200);
    expect(await latest('member.updated')).toMatchObject({
      object_id: String(membership.id),
      changes: { role: { before: 'agent', after: 'admin' } },
    });

    const key = await app.inject({
      method: 'POST',
      url: '/api/auth/api-keys/',
      headers: as(owner, business),
      payload: { name: 'Zapier' },
    });
    expect(key.statusCode).toBe(201);
    const plain = key.json().result.key as string;
    const keyRow = await latest('api_key.created');
    expect(keyRow).toMatchObject({
      object_type: 'api_key',
      changes: { name: { before: null, after: 'Zapier' } },
    });
    expect(JSON.stringify(keyRow)).not.toContain(plain);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/auth/api-keys/${key.json().result.id}/`,
      headers: as(owner, business),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await latest('api_key.deleted')).toMatchObject({ object_id: String(key.json().result.id) });

    const domain = await app.inject({
      method: 'POST',
      url: '/api/email/domains/',
      headers: as(owner, business),
      payload: { domain: 'mail.audited.example' },
    });
    expect(domain.statusCode).toBe(201);
    expect(await latest('email_domain.created')).toMatchObject({
      changes: { domain: { after: 'mail.audited.example' } },
    });

    const on = await app.inject({
      method: 'PUT',
      url: '/api/msg/widget-settings/',
      headers: as(owner, business),
      payload: { identity_verification: true },
    });
    expect(on.statusCode).toBe(200);
    const rotated = await app.inject({
      method: 'POST',
      url: '/api/msg/widget-settings/rotate-secret/',
      headers: as(owner, business),
    });
    const secret = rotated.json().result.identity_secret as string;
    expect(secret.length).toBeGreaterThan(10);
    const rotateRow = await latest('widget.rotate_secret');
    expect(rotateRow!.changes).toMatchObject({ identity_secret: { after: AUDIT_MASK } });
    expect(JSON.stringify(await entries())).not.toContain(secret);

    const template = await app.inject({
      method: 'POST',
      url: '/api/template/',
      headers: as(owner, business),
      payload: { name: 'Welcome', subject: 'Hi', format: 'html', content: '<p>Hello</p>' },
    });
    expect(template.statusCode).toBe(201);
    expect(await latest('template.created')).toMatchObject({ changes: { name: { after: 'Welcome' } } });

    const agent = await app.inject({
      method: 'POST',
      url: '/api/agents/',
      headers: as(owner, business),
      payload: { name: 'Helper' },
    });
    expect(agent.statusCode).toBe(201);
    expect(await latest('agent.created')).toMatchObject({ object_id: String(agent.json().result.id) });
  });

  it('records the inbox, consent, knowledge and audience settings', async () => {
    const post = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, headers: as(owner, business), payload });
      expect(res.statusCode, `${url} ${res.body}`).toBe(201);
      return res.json().result as { id: number };
    };
    const topic = await post('/api/consent/topics/', { name: 'Product news' });
    expect(await latest('consent_topic.created')).toMatchObject({
      object_id: String(topic.id),
      changes: { name: { after: 'Product news' } },
    });
    await post('/api/msg/labels/', { name: 'vip', color: '#aa0000' });
    expect(await latest('label.created')).toMatchObject({ changes: { name: { after: 'vip' } } });
    await post('/api/msg/canned-responses/', { short_code: 'HOURS', content: 'We open at 9.' });
    expect(await latest('canned_response.created')).toMatchObject({
      changes: { short_code: { after: 'hours' } },
    });
    const list = await post('/api/business/customer-lists/', { name: 'Regulars', kind: 'static' });
    expect(await latest('customer_list.created')).toMatchObject({ object_id: String(list.id) });
    // A search is a read, though knowledge has its own area: nothing recorded for it.
    const searched = await app.inject({
      method: 'GET',
      url: '/api/kb/search/?q=hours',
      headers: as(owner, business),
    });
    expect(searched.statusCode).toBe(200);
    expect((await entries()).some((e) => e.action.startsWith('kb_'))).toBe(false);
  });

  it('records an API key as the actor, by its name', async () => {
    const key = (
      await app.inject({
        method: 'POST',
        url: '/api/auth/api-keys/',
        headers: as(owner, business),
        payload: { name: 'CI bot' },
      })
    ).json().result as { id: number };
    await recordAudit(rt.database.db, {
      businessId: business.id,
      actor: { type: 'api_key', id: key.id },
      action: 'template.updated',
      objectType: 'template',
      objectId: 7,
      before: { subject: 'Old', smtp_password: 'hunter2' },
      after: { subject: 'New', smtp_password: 'hunter3' },
    });
    const [row] = await entries(`&actor=api_key:${key.id}`);
    expect(row).toMatchObject({
      actor: { type: 'api_key', id: key.id, name: 'CI bot' },
      changes: {
        subject: { before: 'Old', after: 'New' },
        smtp_password: { before: AUDIT_MASK, after: AUDIT_MASK },
      },
    });
  });

  it('filters, pages and downloads as CSV', async () => {
    const byType = await entries('&object_type=api_key');
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((e) => e.object_type === 'api_key')).toBe(true);
    const future = await entries('&created_at__gte=2999-01-01');
    expect(future).toEqual([]);
    const mine = await entries(`&actor=member:${owner.user.pk}`);
    expect(mine.every((e) => e.actor.id === owner.user.pk && e.actor.type === 'member')).toBe(true);
    const page = await app.inject({
      method: 'GET',
      url: '/api/audit-log/?page_size=2',
      headers: as(owner, business),
    });
    expect(page.json().result).toMatchObject({ next: 2, previous: null });
    expect(page.json().result.results).toHaveLength(2);

    const csv = await app.inject({
      method: 'GET',
      url: '/api/audit-log/download/?object_type=business',
      headers: as(owner, business),
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,actor_type,actor_id,actor_name,action,object_type,object_id,changes,ip,user_agent',
    );
    expect(lines[1]).toContain('business.updated');
  });

  it('shows a business only its own rows, and only to owners and admins', async () => {
    const stranger = await signUp(app, rt.mailer);
    const other = await createBusiness(app, stranger, 'Other');
    const theirs = await entries('', stranger, other);
    expect(theirs).toEqual([]);
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const denied = await app.inject({ method: 'GET', url: '/api/audit-log/', headers: as(agent, business) });
    expect(denied.statusCode).toBe(403);
    const crossed = await app.inject({
      method: 'GET',
      url: '/api/audit-log/',
      headers: as(stranger, business),
    });
    expect(crossed.statusCode).toBe(403);
  });

  it('purges only rows older than the retention', async () => {
    const before = (await entries()).length;
    expect(await purgeAuditLog(rt.database.db, 0)).toBe(0);
    expect(await purgeAuditLog(rt.database.db, 30, Date.now())).toBe(0);
    expect((await entries()).length).toBe(before);
    expect(await purgeAuditLog(rt.database.db, 1, Date.now() + 3 * 24 * 3600 * 1000)).toBeGreaterThanOrEqual(
      before,
    );
    expect(await entries()).toEqual([]);
  });

  it('has no path in the server that updates or deletes audit rows but the retention purge and the erasure scrub', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== '__tests__' && name !== 'testing') walk(full);
        } else if (/\.(ts|sql)$/.test(name) && !name.endsWith('.test.ts')) files.push(full);
      }
    };
    walk(root);
    walk(path.resolve(root, '../drizzle'));
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const patterns = [
        /update\s*\(\s*auditLog\b/i,
        /delete\s*\(\s*auditLog\b/i,
        /\bupdate\s+"?audit_log"?/i,
        /\bdelete\s+from\s+"?audit_log"?/i,
        /\btruncate\b[^;]*\baudit_log\b/i,
      ];
      for (const p of patterns) {
        const m = p.exec(text);
        if (m) offenders.push(`${path.relative(root, file)}: ${m[0]}`);
      }
    }
    // The retention purge deletes old rows; a customer's erasure (GDPR art. 17) empties the values
    // their rows held and nothing else (who, what and when stay).
    expect(offenders.sort()).toEqual([
      'modules/audit/audit.repository.ts: delete(auditLog',
      'modules/audit/audit.repository.ts: update(auditLog',
    ]);
    const repo = readFileSync(path.join(root, 'modules/audit/audit.repository.ts'), 'utf8');
    expect(repo).toMatch(/scrubObjectChanges[\s\S]*?\.update\(auditLog\)\s*\.set\(\{ changes: \{\} \}\)/);
    expect(repo).toMatch(/purgeAuditBefore[\s\S]*delete\(auditLog\)\.where\(lt\(auditLog\.createdAt/);
  });
});
