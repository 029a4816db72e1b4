// Chat groups, staff and widget settings as the API answers them, and a fake of those endpoints that
// keeps what the tests change and records what the app sent.
import {
  DEFAULT_AI_RESPONDER,
  type TChatGroupSettings,
  type TChatGroupUser,
  type TMember,
  type TWidgetSettings,
} from '@titan/contracts';
import { http } from 'msw';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { server } from '../../../test/server';

export function chatGroup(overrides: Partial<TChatGroupSettings> = {}): TChatGroupSettings {
  return {
    id: 3,
    name: 'Support',
    slug: 'support',
    greeting: 'Hi there!',
    color: '#1f6feb',
    launcher_position: 'right',
    visitor_form: [],
    allowed_origins: [],
    created_at: '2026-03-01T09:00:00.000Z',
    assignment: { mode: 'off', capacity: 10 },
    locale: 'en',
    strings: {},
    ai_responder: { ...DEFAULT_AI_RESPONDER },
    business_hours: null,
    away_message: '',
    sla: null,
    csat: false,
    ...overrides,
  };
}

export const ADA: TMember = {
  id: 1,
  user: { pk: 7, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  role: 'owner',
  joined_at: '2026-01-01T00:00:00Z',
};
export const BOB: TMember = {
  id: 2,
  user: { pk: 8, first_name: 'Bob', last_name: 'Baker', email: 'bob@example.com' },
  role: 'agent',
  joined_at: '2026-02-01T00:00:00Z',
};

export type TCall = { method: string; path: string; body: unknown };

/** Signed in to Acme with `role`; the chat group and widget endpoints answer from memory. */
export function chatApi(
  options: {
    role?: 'owner' | 'agent';
    groups?: TChatGroupSettings[];
    staff?: Record<number, TChatGroupUser[]>;
    settings?: TWidgetSettings;
  } = {},
) {
  signIn();
  const groups = [...(options.groups ?? [])];
  const staff: Record<number, TChatGroupUser[]> = { ...options.staff };
  let settings: TWidgetSettings = options.settings ?? {
    allowed_origins: [],
    identity_verification: false,
    identity_secret: null,
  };
  const calls: TCall[] = [];
  const record = async (request: Request) => {
    const text = await request.clone().text();
    const body: unknown = text ? JSON.parse(text) : null;
    calls.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body as Record<string, unknown>;
  };
  let nextId = 50;
  server.use(
    http.get('/api/users/profile/', () =>
      ok(profile({ businesses: [{ ...ACME, role: options.role ?? 'owner' }] })),
    ),
    http.get('/api/business/users/', () => ok([ADA, BOB])),
    http.get('/api/msg/chat-groups/', () => ok(groups)),
    http.post('/api/msg/chat-groups/', async ({ request }) => {
      const body = await record(request);
      if (groups.some((g) => g.slug === body.slug))
        return fail(400, 'Invalid input.', {
          slug: ['Another chat group of this business already uses this slug.'],
        });
      const created = chatGroup({ ...body, id: nextId++ });
      groups.push(created);
      return ok(created, 201);
    }),
    http.put('/api/msg/chat-groups/:id/', async ({ request, params }) => {
      const body = await record(request);
      const index = groups.findIndex((g) => g.id === Number(params.id));
      groups[index] = { ...groups[index]!, ...body };
      return ok(groups[index]);
    }),
    http.delete('/api/msg/chat-groups/:id/', async ({ request, params }) => {
      await record(request);
      groups.splice(
        groups.findIndex((g) => g.id === Number(params.id)),
        1,
      );
      return ok(null);
    }),
    http.get('/api/msg/chat-groups/:id/users/', ({ params }) => ok(staff[Number(params.id)] ?? [])),
    http.post('/api/msg/chat-groups/:id/users/', async ({ request, params }) => {
      const body = await record(request);
      const member = [ADA, BOB].find((m) => m.user.pk === body.user_id);
      if (!member) return fail(400, 'Invalid input.', { user_id: ['Not a member of this business.'] });
      const entry = {
        user: member.user,
        role: member.role as 'owner' | 'admin' | 'agent',
        added_at: '2026-04-01T00:00:00Z',
      };
      staff[Number(params.id)] = [...(staff[Number(params.id)] ?? []), entry];
      return ok(entry, 201);
    }),
    http.delete('/api/msg/chat-groups/:id/users/:userId/', async ({ request, params }) => {
      await record(request);
      staff[Number(params.id)] = (staff[Number(params.id)] ?? []).filter(
        (entry) => entry.user.pk !== Number(params.userId),
      );
      return ok(null);
    }),
    http.get('/api/msg/widget-settings/', () =>
      options.role === 'agent'
        ? fail(403, 'You do not have permission to perform this action.')
        : ok(settings),
    ),
    http.put('/api/msg/widget-settings/', async ({ request }) => {
      const body = await record(request);
      settings = {
        allowed_origins: (body.allowed_origins as string[] | undefined) ?? settings.allowed_origins,
        identity_verification:
          (body.identity_verification as boolean | undefined) ?? settings.identity_verification,
        identity_secret:
          body.identity_verification === false
            ? null
            : body.identity_verification === true
              ? 'secret-from-turning-on'
              : settings.identity_secret,
      };
      return ok(settings);
    }),
    http.post('/api/msg/widget-settings/rotate-secret/', async ({ request }) => {
      await record(request);
      settings = { ...settings, identity_secret: 'rotated-secret-0002' };
      return ok(settings);
    }),
  );
  return { calls, groups };
}
