// A staff member created through the real API: sign up, confirm from the dev outbox, log in, and
// create a business. The server must run with the development outbox (NODE_ENV=development).
import { createTitanClient, type TitanApi } from '@titan/client';
export type Person = { first: string; last: string; email: string };
export type OwnerSession = { access: string; refresh: string; businessCode: string };

async function call<T>(
  baseUrl: string,
  path: string,
  body?: unknown,
  access?: string,
): Promise<{ status: number; result: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(access ? { authorization: `Bearer ${access}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, result: ((await res.json()) as { result: T }).result };
}

function expectStatus(step: string, got: number, want: number): void {
  if (got !== want) throw new Error(`${step} answered ${got}, expected ${want}`);
}

export async function signUpOwner(
  baseUrl: string,
  person: Person,
  password: string,
  businessName: string,
  /** The links of mail sent to an address, when account mail goes elsewhere than the dev outbox (SMTP_URL). */
  mailedLinks?: (email: string) => Promise<string[]>,
): Promise<OwnerSession> {
  const registered = await call(baseUrl, '/api/auth/register/', {
    first_name: person.first,
    last_name: person.last,
    email: person.email,
    password,
  });
  expectStatus('register', registered.status, 201);
  const links = mailedLinks
    ? await mailedLinks(person.email)
    : (
        await call<{ links: string[] }[]>(baseUrl, `/api/dev/outbox/?to=${encodeURIComponent(person.email)}`)
      ).result.flatMap((m) => m.links);
  const link = links.find((l) => l.includes('/auth/account-confirm-email/'));
  if (!link) throw new Error(`no confirmation mail for ${person.email}`);
  const key = decodeURIComponent(new URL(link).pathname.split('/').filter(Boolean).at(-1) ?? '');
  expectStatus('verify', (await call(baseUrl, '/api/auth/register/verify-email/', { key })).status, 200);
  const login = await call<{ access: string; refresh: string }>(baseUrl, '/api/auth/login/', {
    email: person.email,
    password,
  });
  expectStatus('login', login.status, 200);
  const business = await call<{ unique_code: string }>(
    baseUrl,
    '/api/business/',
    { name: businessName },
    login.result.access,
  );
  expectStatus('create business', business.status, 201);
  return {
    access: login.result.access,
    refresh: login.result.refresh,
    businessCode: business.result.unique_code,
  };
}

/** One API call as the session's user in its business: JSON in and out. */
export async function callAs(
  baseUrl: string,
  session: OwnerSession,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; result: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.access}`,
      'x-business-code': session.businessCode,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, result: ((await res.json()) as { result: unknown }).result };
}

/** The typed client (@titan/client) as the session's user in its business: API setup and checks. */
export function titanAs(baseUrl: string, session: { access: string; businessCode: string }): TitanApi {
  return createTitanClient({ baseUrl, accessToken: session.access, businessCode: session.businessCode });
}
