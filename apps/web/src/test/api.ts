// Builders for API answers (the api.md envelope) and session fixtures shared by the unit tests.
import type { TBusiness, TMembershipSummary, TPermission, TRoleInfo } from '@titan/contracts';
import { HttpResponse } from 'msw';

import type { TProfile } from '../lib/session/profile';
import { AUTH_TOKEN_COOKIE, BUSINESS_CODE_COOKIE, REFRESH_TOKEN_COOKIE } from '../lib/session/tokens';

export function ok<T>(result: T, status = 200) {
  return HttpResponse.json({ status, message: status === 201 ? 'Created' : 'OK', result }, { status });
}

export function fail(
  status: number,
  message: string,
  result: unknown = null,
  headers?: Record<string, string>,
) {
  return HttpResponse.json({ status, message, result }, { status, headers });
}

function base64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An access JWT expiring `secondsFromNow` from now (negative = already expired). Unsigned: the web
 * app only reads `exp`; the server checks signatures. */
export function jwt(secondsFromNow: number, sub = '1'): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = base64Url(JSON.stringify({ sub, iat: now, exp: now + secondsFromNow, typ: 'access' }));
  return `${header}.${claims}.signature`;
}

export function setCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/`;
}

export function cookie(name: string): string | null {
  const pair = document.cookie.split('; ').find((entry) => entry.startsWith(`${name}=`));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : null;
}

/** Signs the test browser in: a valid (or given) access token, a refresh token, a business code. */
export function signIn(
  options: { access?: string | null; refresh?: string; businessCode?: string | null } = {},
) {
  const access = options.access === undefined ? jwt(600) : options.access;
  if (access) setCookie(AUTH_TOKEN_COOKIE, access);
  setCookie(REFRESH_TOKEN_COOKIE, options.refresh ?? 'refresh-1');
  const code = options.businessCode === undefined ? ACME.unique_code : options.businessCode;
  if (code) setCookie(BUSINESS_CODE_COOKIE, code);
}

export const ACME: TMembershipSummary = {
  id: 1,
  name: 'Acme',
  unique_code: 'ACME1234',
  role: 'owner',
  subscription_status: 'inactive',
};

export const GLOBEX: TMembershipSummary = {
  id: 2,
  name: 'Globex',
  unique_code: 'GLOBEX99',
  role: 'agent',
  subscription_status: 'active',
};

export function profile(overrides: Partial<TProfile> = {}): TProfile {
  return {
    pk: 7,
    username: 'ada',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    is_email_verified: true,
    businesses: [ACME],
    ...overrides,
  };
}

/** The roles as the server's table grants them (apps/server business/roles.ts). */
const AGENT_PERMISSIONS: TPermission[] = ['inbox.use', 'engage.read'];
const ADMIN_PERMISSIONS: TPermission[] = [
  ...AGENT_PERMISSIONS,
  'engage.write',
  'engage.send',
  'team.manage',
  'business.update',
  'api_keys.manage',
];
export const ROLES_INFO: TRoleInfo[] = [
  {
    value: 'owner',
    label: 'Owner',
    permissions: [...ADMIN_PERMISSIONS, 'billing.manage', 'business.delete', 'ownership.transfer'],
  },
  { value: 'admin', label: 'Admin', permissions: ADMIN_PERMISSIONS },
  { value: 'agent', label: 'Agent', permissions: AGENT_PERMISSIONS },
];

/** The current business (GET /api/business/) as a new one answers it: counting days in UTC. */
export function business(overrides: Partial<TBusiness> = {}): TBusiness {
  return {
    id: 1,
    name: ACME.name,
    phone_number: null,
    dial_code: null,
    created_on: '2026-01-01T00:00:00Z',
    created_by: 7,
    updated_on: '2026-01-01T00:00:00Z',
    updated_by: 7,
    unique_code: ACME.unique_code,
    sms_count: 0,
    email_count: 0,
    whatsapp_count: 0,
    subscription_status: 'inactive',
    time_zone: 'UTC',
    require_2fa: false,
    ...overrides,
  };
}
