// Business hours and the away message (issue 29, next-api.md "Team inbox"), with the runtime's clock
// moved by the test: a group's hours are saved and refused as bad input; the widget says whether
// the team answers and when it is back; a customer writing outside hours gets the away message once
// per conversation per closed period; auto-assignment waits for the hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type {
  TChatGroupSettings,
  TConversation,
  TMessage,
  TPublicChatInfo,
  TPublicMessage,
} from '@titan/contracts';
import { createTestRuntime, testDbKind, type TestRuntime } from '../../../testing/test-runtime';
import { as } from '../../../testing/identity';
import { scopedBusiness, type ScopedBusiness } from '../../../testing/inbox-scope';
import { isOpenAt, nextOpening } from '..';

// Berlin: CET (UTC+1) in winter. 2026-11-30 is a Monday.
const HOURS = {
  time_zone: 'Europe/Berlin',
  weekly: [
    { day: 'mon', start: '09:00', end: '17:00' },
    { day: 'tue', start: '09:00', end: '17:00' },
    { day: 'wed', start: '09:00', end: '12:00' },
    { day: 'wed', start: '13:00', end: '17:00' },
    { day: 'thu', start: '09:00', end: '17:00' },
    { day: 'fri', start: '09:00', end: '17:00' },
  ],
  holidays: ['2026-12-25'],
} as const;

describe('business hours (pure)', () => {
  const hours = { ...HOURS, weekly: [...HOURS.weekly], holidays: [...HOURS.holidays] };
  it('is open inside a range, closed at its end, over lunch, at weekends and on holidays', () => {
    expect(isOpenAt(hours, new Date('2026-11-30T08:00:00Z'))).toBe(true); // Mon 09:00 Berlin
    expect(isOpenAt(hours, new Date('2026-11-30T07:59:00Z'))).toBe(false); // Mon 08:59
    expect(isOpenAt(hours, new Date('2026-11-30T16:00:00Z'))).toBe(false); // Mon 17:00 (end excluded)
    expect(isOpenAt(hours, new Date('2026-12-02T11:30:00Z'))).toBe(false); // Wed 12:30 lunch
    expect(isOpenAt(hours, new Date('2026-12-05T10:00:00Z'))).toBe(false); // Saturday
    expect(isOpenAt(hours, new Date('2026-12-25T10:00:00Z'))).toBe(false); // Friday, a holiday
    expect(isOpenAt(null, new Date('2026-12-05T10:00:00Z'))).toBe(true); // no hours: always
  });
  it('names the next opening: after the weekend, after lunch, past a holiday, across a DST change', () => {
    expect(nextOpening(hours, new Date('2026-12-05T10:00:00Z'))?.toISOString()).toBe(
      '2026-12-07T08:00:00.000Z',
    );
    expect(nextOpening(hours, new Date('2026-12-02T11:30:00Z'))?.toISOString()).toBe(
      '2026-12-02T12:00:00.000Z',
    );
    expect(nextOpening(hours, new Date('2026-12-24T17:00:00Z'))?.toISOString()).toBe(
      '2026-12-28T08:00:00.000Z',
    );
    // Berlin moves to CEST (UTC+2) on Sunday 2027-03-28: Monday opens at 07:00 UTC.
    expect(nextOpening(hours, new Date('2027-03-27T12:00:00Z'))?.toISOString()).toBe(
      '2027-03-29T07:00:00.000Z',
    );
    const open = new Date('2026-11-30T09:00:00Z');
    expect(nextOpening(hours, open)).toEqual(open);
  });
});

let rt: TestRuntime;
let app: FastifyInstance;
let s: ScopedBusiness;
let other: ScopedBusiness;
let groups: Record<string, number>;
const setNow = (iso: string) => {
  rt.services.clock.now = () => new Date(iso);
};

const putGroup = (id: number, payload: object, who = s) =>
  app.inject({ method: 'PUT', url: `/api/msg/chat-groups/${id}/`, headers: as(who.boss, who.shop), payload });
const info = async (slug: string) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/public/chat-groups/${s.shop.unique_code}/${slug}/`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TPublicChatInfo;
};

async function visitorIn(slug: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: { business_code: s.shop.unique_code, name: `Visitor ${slug}` },
  });
  const { token } = res.json().result as { token: string };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: { authorization: `Visitor ${token}` },
    payload: { group_slug: slug },
  });
  expect(started.statusCode, started.body).toBe(201);
  return { token, id: (started.json().result as TConversation).id };
}
const write = async (v: { token: string; id: number }, content: string) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${v.id}/messages/`,
    headers: { authorization: `Visitor ${v.token}` },
    payload: { message_type: 'text', content },
  });
  expect(res.statusCode, res.body).toBe(201);
  await settled();
};
const visitorSees = async (v: { token: string; id: number }) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/public/conversations/${v.id}/messages/`,
    headers: { authorization: `Visitor ${v.token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as TPublicMessage[];
};
const staffSees = async (id: number) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/msg/conversations/${id}/messages/`,
    headers: as(s.boss, s.shop),
  });
  return res.json().result as TMessage[];
};
const conversation = async (id: number) =>
  (
    await app.inject({ method: 'GET', url: `/api/msg/conversations/${id}/`, headers: as(s.boss, s.shop) })
  ).json().result as TConversation;

/** The away responder and assigner run on the feed: wait until they are done with what they heard. */
async function settled() {
  for (let i = 0; i < 4; i++) {
    await new Promise((r) => setTimeout(r, 50));
    await rt.away.idle();
    await rt.assigner.idle();
  }
}

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  s = await scopedBusiness(app, rt.mailer, 'Hours Co');
  other = await scopedBusiness(app, rt.mailer, 'Elsewhere Co');
  const g = await app.inject({ method: 'GET', url: '/api/msg/chat-groups/', headers: as(s.boss, s.shop) });
  groups = Object.fromEntries((g.json().result as { id: number; slug: string }[]).map((r) => [r.slug, r.id]));
});
afterAll(async () => {
  await rt.destroy();
});

describe('a chat group’s business hours', () => {
  it('are saved with the away message and answered by the group’s routes', async () => {
    const res = await putGroup(groups.support!, {
      business_hours: HOURS,
      away_message: 'We are out — back on Monday at 9.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const group = res.json().result as TChatGroupSettings;
    expect(group.business_hours).toEqual(HOURS);
    expect(group.away_message).toBe('We are out — back on Monday at 9.');
    // Untouched by a PUT of another field; null turns them off.
    const renamed = await putGroup(groups.support!, { greeting: 'Hi' });
    expect((renamed.json().result as TChatGroupSettings).business_hours).toEqual(HOURS);
    const sales = await putGroup(groups.sales!, { business_hours: null });
    expect((sales.json().result as TChatGroupSettings).business_hours).toBeNull();
  });

  it('refuses bad hours with the field named, and another business’s group is not found', async () => {
    const bad = await putGroup(groups.support!, {
      business_hours: {
        time_zone: 'Mars/Olympus',
        weekly: [
          { day: 'mon', start: '17:00', end: '09:00' },
          { day: 'someday', start: '9', end: '10:00' },
        ],
        holidays: ['2026-02-30'],
      },
      away_message: 'x'.repeat(1001),
    });
    expect(bad.statusCode).toBe(400);
    const fields = Object.keys(bad.json().result);
    expect(fields).toEqual(
      expect.arrayContaining([
        'business_hours.time_zone',
        'business_hours.weekly.0.end',
        'business_hours.weekly.1.day',
        'business_hours.weekly.1.start',
        'business_hours.holidays.0',
        'away_message',
      ]),
    );
    const empty = await putGroup(groups.support!, { business_hours: { time_zone: 'UTC', weekly: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result).toHaveProperty(['business_hours.weekly']);
    const foreign = await putGroup(groups.support!, { business_hours: HOURS }, other);
    expect(foreign.statusCode).toBe(404);
    const still = await app.inject({
      method: 'GET',
      url: `/api/msg/chat-groups/${groups.support}/`,
      headers: as(s.boss, s.shop),
    });
    expect((still.json().result as TChatGroupSettings).business_hours).toEqual(HOURS);
  });

  it('tell the widget whether the team answers now and when it is back; nobody is "online" outside them', async () => {
    const online = await app.inject({
      method: 'PUT',
      url: '/api/users/presence/',
      headers: as(s.agent),
      payload: { status: 'online' },
    });
    expect(online.statusCode).toBe(200);
    setNow('2026-11-30T10:00:00Z'); // Monday 11:00 in Berlin
    expect(await info('support')).toMatchObject({
      staff_online: true,
      availability: { open: true, reopens_at: null, away_message: '' },
    });
    setNow('2026-12-05T10:00:00Z'); // Saturday
    expect(await info('support')).toMatchObject({
      staff_online: false,
      availability: {
        open: false,
        reopens_at: '2026-12-07T08:00:00.000Z',
        away_message: 'We are out — back on Monday at 9.',
      },
    });
    // A group without hours is always open.
    expect((await info('sales')).availability.open).toBe(true);
  });
});

describe('the away message', () => {
  it('answers a visitor once per closed period, never inside hours, and is no reply of the team’s', async () => {
    setNow('2026-12-05T10:00:00Z'); // Saturday: closed until Monday 09:00
    const v = await visitorIn('support');
    await write(v, 'Hello, anyone there?');
    await write(v, 'Still there?');
    const seen = await visitorSees(v);
    expect(seen.map((m) => [m.sender_type, m.content])).toEqual([
      ['customer', 'Hello, anyone there?'],
      ['system', 'We are out — back on Monday at 9.'],
      ['customer', 'Still there?'],
    ]);
    const staff = await staffSees(v.id);
    expect(staff.find((m) => m.sender_type === 'system')?.meta_data).toMatchObject({
      away: true,
      reopens_at: '2026-12-07T08:00:00.000Z',
    });
    // The conversation still awaits the team's answer.
    expect(await conversation(v.id)).toMatchObject({ business_replied: false, is_read: false });

    setNow('2026-12-07T09:00:00Z'); // Monday 10:00: open
    await write(v, 'Monday now');
    setNow('2026-12-07T17:30:00Z'); // Monday 18:30: the next closed period
    await write(v, 'Evening!');
    await write(v, 'Evening again');
    const after = (await visitorSees(v)).map((m) => m.sender_type);
    expect(after).toEqual(['customer', 'system', 'customer', 'customer', 'customer', 'system', 'customer']);
  });

  it('is not sent without an away message, nor for a conversation of a group without hours', async () => {
    setNow('2026-12-05T10:00:00Z');
    const v = await visitorIn('sales');
    await write(v, 'Weekend question');
    expect((await visitorSees(v)).map((m) => m.sender_type)).toEqual(['customer']);
  });

  // PGlite is one process's database: two runtimes share PostgreSQL only.
  it.runIf(testDbKind === 'postgres')('is sent once when two instances hear the same message', async () => {
    const second = await createTestRuntime({ store: rt.store, http: false });
    try {
      second.services.clock.now = () => new Date('2026-12-12T10:00:00Z'); // another Saturday
      setNow('2026-12-12T10:00:00Z');
      const v = await visitorIn('support');
      await write(v, 'Two instances?');
      await second.away.idle();
      await settled();
      await second.away.idle();
      expect((await visitorSees(v)).filter((m) => m.sender_type === 'system')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('auto-assignment and business hours', () => {
  it('waits outside hours and assigns once the group opens', async () => {
    const put = await putGroup(groups.support!, { assignment: { mode: 'round_robin', capacity: 5 } });
    expect(put.statusCode).toBe(200);
    setNow('2026-12-05T10:00:00Z');
    const v = await visitorIn('support');
    await settled();
    expect((await conversation(v.id)).assignee).toBeNull();
    setNow('2026-12-07T09:00:00Z');
    // What the sweep does every 30 s: look at the waiting conversations again.
    await rt.assigner.sweep();
    await settled();
    expect((await conversation(v.id)).assignee?.id).toBe(s.agent.user.pk);
    // Stays assigned; the away rows are per conversation.
    const rows = await rt.services.db.execute(
      sql`select count(*)::int as n from conversation_away_replies where conversation_id = ${v.id}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
