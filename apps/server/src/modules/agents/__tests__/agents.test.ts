// Agents through the API: CRUD with avatars and analytics, config versions that never change once
// written, field errors, schedules with next_run_at in their time zone, suggestions from the
// business's own data, roles, and another business refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  AGENT_ERRORS as M,
  DATE_MESSAGE,
  type TAgent,
  type TAgentConfig,
  type TAgentConfigRequest,
  type TBusiness,
  type TSuggestedAgent,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { findRecentEvents } from '../../analytics/analytics.service';

const PNG_DOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness; list: number; template: number };
let list: number;
let template: number;

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  s = owner,
  b = business,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });

async function setup(s: Session, b: TBusiness) {
  const l = await call('POST', '/api/business/customer-lists/', { name: 'Regulars' }, s, b);
  const t = await call(
    'POST',
    '/api/template/',
    { name: 'Hello', subject: 'Hi', format: 'html', content: '<p>Hi</p>' },
    s,
    b,
  );
  return { list: l.json().result.id as number, template: t.json().result.id as number };
}

const config = (over: Partial<TAgentConfigRequest> = {}): TAgentConfigRequest => ({
  instructions: 'Be kind and brief.',
  goal: 'Bring customers back',
  audience: { list_ids: [list] },
  channels: [{ channel: 'email', template_id: template, from: 'hello@shop.test' }],
  tools: [{ source: 'builtin', name: 'lookup_customer', approval: 'auto' }],
  limits: { max_sends_per_run: 50, per_recipient_per_week: 1, max_steps: 8, max_tokens: 2000 },
  send_mode: 'review',
  quiet_hours: { start: '21:00', end: '08:00' },
  ...over,
});

function upload(url: string, bytes: Buffer, fileName: string, s = owner, b = business) {
  const boundary = '----agentsTest';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...as(s, b), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Agents Co');
  ({ list, template } = await setup(owner, business));
  const otherOwner = await signUp(app, rt.mailer);
  const otherBusiness = await createBusiness(app, otherOwner, 'Other Agents Co');
  other = { owner: otherOwner, business: otherBusiness, ...(await setup(otherOwner, otherBusiness)) };
});
afterAll(() => rt.destroy());

describe('agents', () => {
  it('creates, lists, reads, updates and deletes an agent, recording analytics', async () => {
    const res = await call('POST', '/api/agents/', { name: 'Win-back', description: 'Old friends' });
    expect(res.statusCode).toBe(201);
    const agent: TAgent = res.json().result;
    expect(agent).toMatchObject({
      name: 'Win-back',
      description: 'Old friends',
      avatar_url: null,
      status: 'draft',
      config: null,
      schedule: null,
      last_run: null,
    });
    expect(
      (await findRecentEvents(rt.database.db, 'user_created_agent')).map((e) => e.properties),
    ).toContainEqual({
      agent_id: agent.id,
    });
    const listed: TAgent[] = (await call('GET', '/api/agents/')).json().result;
    expect(listed.map((a) => a.id)).toContain(agent.id);
    const renamed = await call('PUT', `/api/agents/${agent.id}/`, { name: 'Win back', status: 'paused' });
    expect(renamed.json().result).toMatchObject({ name: 'Win back', status: 'paused' });
    expect((await call('GET', `/api/agents/${agent.id}/`)).json().result.name).toBe('Win back');
    expect((await call('DELETE', `/api/agents/${agent.id}/`)).statusCode).toBe(204);
    expect((await call('GET', `/api/agents/${agent.id}/`)).statusCode).toBe(404);
    expect(
      (await findRecentEvents(rt.database.db, 'user_deleted_agent')).map((e) => e.properties),
    ).toContainEqual({
      agent_id: agent.id,
    });
  });

  it('refuses to activate an agent without a config, and activates it with one', async () => {
    const bad = await call('POST', '/api/agents/', { name: 'Eager', status: 'active' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result.status).toEqual([M.activeNeedsConfig]);
    const draft: TAgent = (await call('POST', '/api/agents/', { name: 'Later' })).json().result;
    expect(
      (await call('PUT', `/api/agents/${draft.id}/`, { status: 'active' })).json().result.status,
    ).toEqual([M.activeNeedsConfig]);
    const ready = await call('POST', '/api/agents/', { name: 'Ready', status: 'active', config: config() });
    expect(ready.statusCode).toBe(201);
    expect(ready.json().result).toMatchObject({
      status: 'active',
      config: { version: 1, goal: 'Bring customers back' },
    });
  });

  it('stores avatars under agent_images/ (images only, 2 MB at most) and removes them', async () => {
    const agent: TAgent = (await call('POST', '/api/agents/', { name: 'Face' })).json().result;
    const res = await upload(`/api/agents/${agent.id}/avatar/`, PNG_DOT, 'me.png');
    expect(res.statusCode).toBe(200);
    const url: string = res.json().result.avatar_url;
    expect(url).toContain(`agent_images/${business.id}/`);
    const image = await app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG_DOT)).toBe(true);

    const text = await upload(`/api/agents/${agent.id}/avatar/`, Buffer.from('not an image'), 'me.png');
    expect(text.statusCode).toBe(400);
    expect(text.json().result.file).toEqual([M.notAnImage]);
    const big = Buffer.concat([PNG_DOT, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await upload(`/api/agents/${agent.id}/avatar/`, big, 'big.png');
    expect(tooBig.statusCode).toBe(413);
    const notMultipart = await call('POST', `/api/agents/${agent.id}/avatar/`, { file: 'x' });
    expect(notMultipart.json().result.file).toEqual([M.multipartOnly]);

    const removed = await call('PUT', `/api/agents/${agent.id}/`, { avatar_url: null });
    expect(removed.json().result.avatar_url).toBeNull();
    expect((await app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') })).statusCode).toBe(
      404,
    );
  });

  it('writes config versions that never change: an update is version n+1, the old one reads the same', async () => {
    const agent: TAgent = (await call('POST', '/api/agents/', { name: 'Versioned', config: config() })).json()
      .result;
    expect(agent.config?.version).toBe(1);
    const v1: TAgentConfig = (await call('GET', `/api/agents/${agent.id}/config-versions/`)).json().result[0];
    const res = await call(
      'POST',
      `/api/agents/${agent.id}/update-agent-config/`,
      config({ goal: 'Collect reviews', send_mode: 'dry_run' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().result.config).toMatchObject({
      version: 2,
      goal: 'Collect reviews',
      send_mode: 'dry_run',
    });
    const versions: TAgentConfig[] = (await call('GET', `/api/agents/${agent.id}/config-versions/`)).json()
      .result;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[1]).toEqual(v1);
    expect(v1.goal).toBe('Bring customers back');
    // The database itself refuses to change a version.
    await expect(
      rt.database.query(`update agent_config_versions set config = '{}' where agent_id = $1`, [agent.id]),
    ).rejects.toThrow(/immutable/);
    // Defaults are filled in and kept.
    const minimal = await call('POST', `/api/agents/${agent.id}/update-agent-config/`, {
      instructions: '',
      goal: 'Say hi',
      audience: { segment: { has_email: true } },
      channels: [{ channel: 'sms' }],
    });
    expect(minimal.json().result.config).toMatchObject({
      version: 3,
      audience: { list_ids: [], segment: { has_email: true } },
      tools: [],
      limits: { max_sends_per_run: 100, per_recipient_per_week: 1, max_steps: 10, max_tokens: 4000 },
      send_mode: 'review',
      quiet_hours: null,
    });
    // A segment with date conditions is kept as given and answered back (it once failed the answer).
    const dated = await call('POST', `/api/agents/${agent.id}/update-agent-config/`, {
      instructions: '',
      goal: 'Win back',
      audience: { segment: { last_seen_at__lte: '2026-01-31', created_at__gte: '2025-01-01T00:00:00.000Z' } },
      channels: [{ channel: 'sms' }],
    });
    expect(dated.statusCode, dated.body).toBe(200);
    expect(dated.json().result.config.audience.segment).toEqual({
      last_seen_at__lte: '2026-01-31',
      created_at__gte: '2025-01-01T00:00:00.000Z',
    });
    expect((await call('GET', `/api/agents/${agent.id}/config-versions/`)).statusCode).toBe(200);
    const feb30 = await call('POST', `/api/agents/${agent.id}/update-agent-config/`, {
      instructions: '',
      goal: 'Win back',
      audience: { segment: { last_seen_at__lte: '2026-02-30' } },
      channels: [{ channel: 'sms' }],
    });
    expect(feb30.statusCode).toBe(400);
    expect(feb30.json().result['audience.segment.last_seen_at__lte']).toEqual([DATE_MESSAGE]);
  });

  it('answers field errors for an invalid config', async () => {
    const agent: TAgent = (await call('POST', '/api/agents/', { name: 'Strict' })).json().result;
    const url = `/api/agents/${agent.id}/update-agent-config/`;
    const res = await call(
      'POST',
      url,
      config({
        instructions: 'x'.repeat(25 * 1024 + 1),
        audience: { list_ids: [] },
        channels: [{ channel: 'email', from: 'not-an-address' }, { channel: 'fax' as 'sms' }],
        tools: [{ source: 'builtin', name: 'rm_rf', approval: 'auto' }],
        limits: { max_sends_per_run: 0, per_recipient_per_week: 1, max_steps: 99, max_tokens: 2000 },
        quiet_hours: { start: '25:00', end: '08:00' },
      }),
    );
    expect(res.statusCode).toBe(400);
    const errors = res.json().result;
    expect(errors.instructions).toEqual([M.instructionsTooLong]);
    expect(errors['audience.list_ids']).toEqual([M.noAudience]);
    expect(errors['channels.0.from']).toEqual([M.invalidFromEmail]);
    expect(errors['channels.1.channel']).toBeDefined();
    expect(errors['tools.0.name']).toEqual([M.unknownBuiltinTool]);
    expect(errors['limits.max_sends_per_run']).toEqual([M.limitRange(1, 10_000)]);
    expect(errors['limits.max_steps']).toEqual([M.limitRange(1, 50)]);
    expect(errors['quiet_hours.start']).toEqual([M.timeOfDay]);

    // Lists and templates must be this business's.
    const foreign = await call(
      'POST',
      url,
      config({
        audience: { list_ids: [list, other.list] },
        channels: [
          { channel: 'email', template_id: other.template },
          { channel: 'sms', template_id: template },
        ],
        tools: [{ source: 'mcp', server_id: 1, name: 'search', approval: 'review' }],
      }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().result).toEqual({
      'audience.list_ids': [`${M.unknownLists} (${other.list})`],
      'channels.0.template_id': [M.unknownTemplate],
      'channels.1.template_id': [M.smsHasNoTemplates],
      'tools.0.server_id': [M.unknownServer],
    });
    expect((await call('GET', `/api/agents/${agent.id}/config-versions/`)).json().result).toEqual([]);
  });

  it('sets schedules with next_run_at in their time zone, and validates them', async () => {
    const agent: TAgent = (await call('POST', '/api/agents/', { name: 'Timed' })).json().result;
    const url = `/api/agents/${agent.id}/schedule/`;
    expect((await call('GET', url)).json().result).toBeNull();
    // 09:30 in Berlin, from a start in winter time: 08:30 UTC.
    const res = await call('PUT', url, {
      kind: 'cron',
      cron: '30 9 * * *',
      timezone: 'Europe/Berlin',
      start_at: '2031-01-10T00:00:00Z',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({
      kind: 'cron',
      cron: '30 9 * * *',
      timezone: 'Europe/Berlin',
      missed: 'skip',
      next_run_at: '2031-01-10T08:30:00.000Z',
    });
    // In New York in summer: 13:30 UTC.
    const ny = await call('PUT', url, {
      kind: 'cron',
      cron: '30 9 * * *',
      timezone: 'America/New_York',
      start_at: '2031-07-01T00:00:00Z',
    });
    expect(ny.json().result.next_run_at).toBe('2031-07-01T13:30:00.000Z');
    const got: TAgent = (await call('GET', `/api/agents/${agent.id}/`)).json().result;
    expect(got.schedule?.next_run_at).toBe('2031-07-01T13:30:00.000Z');

    const once = await call('PUT', url, {
      kind: 'once',
      run_at: '2031-05-05T10:00:00+02:00',
      timezone: 'UTC',
    });
    expect(once.json().result).toMatchObject({
      kind: 'once',
      cron: null,
      next_run_at: '2031-05-05T08:00:00.000Z',
    });

    const bad = await call('PUT', url, {
      kind: 'cron',
      timezone: 'Mars/Olympus',
      start_at: '2031-02-01T00:00:00Z',
      end_at: '2031-01-01T00:00:00Z',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().result).toMatchObject({
      timezone: [M.invalidTimezone],
      cron: [M.cronRequired],
      end_at: [M.endBeforeStart],
    });
    expect(
      (await call('PUT', url, { kind: 'cron', cron: '61 * * * *', timezone: 'UTC' })).json().result,
    ).toEqual({
      cron: [M.invalidCron],
    });
    expect((await call('PUT', url, { kind: 'interval', timezone: 'UTC' })).json().result).toEqual({
      every_minutes: [M.everyMinutesRequired],
    });
    expect(
      (await call('PUT', url, { kind: 'once', run_at: '2001-01-01T00:00:00Z', timezone: 'UTC' })).json()
        .result,
    ).toEqual({ run_at: [M.runAtPast] });
    expect(
      (
        await call('PUT', url, {
          kind: 'interval',
          every_minutes: 60,
          timezone: 'UTC',
          start_at: '2001-01-01T00:00:00Z',
          end_at: '2001-01-02T00:00:00Z',
        })
      ).json().result,
    ).toEqual({ end_at: [M.neverRuns] });
    // The last good schedule stands.
    expect((await call('GET', url)).json().result.kind).toBe('once');
  });

  it('lets the agent role read agents but not change them', async () => {
    const agentRole = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await call('GET', '/api/agents/', undefined, agentRole)).statusCode).toBe(200);
    expect((await call('POST', '/api/agents/', { name: 'Nope' }, agentRole)).statusCode).toBe(403);
  });

  it("refuses another business's agents on every route", async () => {
    const mine: TAgent = (await call('POST', '/api/agents/', { name: 'Mine', config: config() })).json()
      .result;
    const theirs = (...args: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object]) =>
      call(args[0], args[1], args[2], other.owner, other.business);
    const id = mine.id;
    const statuses = [
      (await theirs('GET', `/api/agents/${id}/`)).statusCode,
      (await theirs('PUT', `/api/agents/${id}/`, { name: 'Taken' })).statusCode,
      (await theirs('DELETE', `/api/agents/${id}/`)).statusCode,
      (
        await theirs(
          'POST',
          `/api/agents/${id}/update-agent-config/`,
          config({ audience: { list_ids: [other.list] }, channels: [{ channel: 'sms' }] }),
        )
      ).statusCode,
      (await theirs('GET', `/api/agents/${id}/config-versions/`)).statusCode,
      (await theirs('GET', `/api/agents/${id}/schedule/`)).statusCode,
      (
        await theirs('PUT', `/api/agents/${id}/schedule/`, {
          kind: 'interval',
          every_minutes: 5,
          timezone: 'UTC',
        })
      ).statusCode,
      (await upload(`/api/agents/${id}/avatar/`, PNG_DOT, 'x.png', other.owner, other.business)).statusCode,
    ];
    expect(statuses).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    expect(((await theirs('GET', '/api/agents/')).json().result as TAgent[]).map((a) => a.id)).not.toContain(
      id,
    );
    const after: TAgent = (await call('GET', `/api/agents/${id}/`)).json().result;
    expect(after).toMatchObject({ name: 'Mine', config: { version: 1 }, schedule: null, avatar_url: null });
  });
});

describe('suggested agents', () => {
  it('proposes only what the business data supports, with counts and ready draft configs', async () => {
    const s = await signUp(app, rt.mailer);
    const b = await createBusiness(app, s, 'Suggest Co');
    const suggest = async () =>
      (await call('GET', '/api/agents/get-suggested-agents/', undefined, s, b)).json()
        .result as TSuggestedAgent[];
    expect(await suggest()).toEqual([]);

    const visitor = async (name: string, email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: b.unique_code, name, email },
      });
      return res.json().result as { customer: { id: number }; token: string };
    };
    const old = [await visitor('Olive Old', 'olive@x.test'), await visitor('Otto Old', 'otto@x.test')];
    for (const v of old) {
      await rt.database.query(
        `update customers set last_seen_at = now() - interval '90 days' where id = $1`,
        [v.customer.id],
      );
    }
    const asker = await visitor('Quinn Question', 'quinn@x.test');
    const headers = { authorization: `Visitor ${asker.token}` };
    const conv = await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers,
      payload: { title: 'Q' },
    });
    expect(conv.statusCode).toBe(201);
    await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conv.json().result.id}/messages/`,
      headers,
      payload: { message_type: 'text', content: 'Do you open on Sundays?' },
    });
    await rt.database.query(`update customers set last_seen_at = now() where id = $1`, [asker.customer.id]);

    const raw = await call('GET', '/api/agents/get-suggested-agents/', undefined, s, b);
    expect(raw.statusCode, raw.body).toBe(200);
    const got = await suggest();
    const byKey = new Map(got.map((g) => [g.key, g]));
    expect([...byKey.keys()].sort()).toEqual(['review_request', 'unanswered_follow_up', 'win_back']);
    expect(byKey.get('win_back')).toMatchObject({ audience_count: 2 });
    expect(byKey.get('win_back')!.reason).toContain('2 customers have not been seen for 60 days');
    expect(byKey.get('unanswered_follow_up')).toMatchObject({ audience_count: 1 });
    expect(byKey.get('review_request')).toMatchObject({ audience_count: 1 });

    // A list with members adds a reminder for it.
    const l = (await call('POST', '/api/business/customer-lists/', { name: 'Members' }, s, b)).json().result;
    await call(
      'POST',
      `/api/business/customer-lists/${l.id}/members/`,
      { customer_ids: [old[0]!.customer.id] },
      s,
      b,
    );
    const reminder = (await suggest()).find((g) => g.key === 'reminder')!;
    expect(reminder).toMatchObject({ name: 'Reminder for Members', audience_count: 1 });
    expect(reminder.config.audience.list_ids).toEqual([l.id]);

    // Each draft opens as an agent as it is.
    for (const g of await suggest()) {
      const created = await call(
        'POST',
        '/api/agents/',
        { name: g.name, description: g.description, config: g.config },
        s,
        b,
      );
      expect(created.statusCode).toBe(201);
      expect(created.json().result).toMatchObject({ status: 'draft', config: { version: 1 } });
    }
  });
});
