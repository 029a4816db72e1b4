// Test helpers that go through the real API: sign up, confirm from the outbox, log in.
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TLoginResult } from '@titan/contracts';
import type { Mailer } from '../platform/mailer';

let counter = 0;
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}.${process.pid}.${Date.now()}.${counter}@example.test`;
}

export const PASSWORD = 'correct horse battery staple';

/** The last path segment of the newest mailed link containing `marker`. */
export async function keyFromOutbox(mailer: Mailer, to: string, marker: string): Promise<string> {
  const mails = await mailer.listOutbox(to);
  const link = mails.flatMap((m) => m.links).find((l) => l.includes(marker));
  if (!link) throw new Error(`no mail to ${to} with a link containing ${marker}`);
  return link.split('/').filter(Boolean).at(-1)!;
}

export type Session = TLoginResult & { email: string };

export async function signUp(
  app: FastifyInstance,
  mailer: Mailer,
  options: { email?: string; firstName?: string; ip?: string } = {},
): Promise<Session> {
  const email = options.email ?? uniqueEmail();
  const remoteAddress =
    options.ip ?? `10.${counter % 250}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    remoteAddress,
    payload: { first_name: options.firstName ?? 'Ada', last_name: 'Lovelace', email, password: PASSWORD },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const key = await keyFromOutbox(mailer, email, '/auth/account-confirm-email/');
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/register/verify-email/',
    remoteAddress,
    payload: { key },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    remoteAddress,
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { ...(login.json().result as TLoginResult), email };
}

export function as(session: { access: string }, business?: { unique_code: string }) {
  return {
    authorization: `Bearer ${session.access}`,
    ...(business ? { 'x-business-code': business.unique_code } : {}),
  };
}

export async function createBusiness(
  app: FastifyInstance,
  session: Session,
  name = 'Acme',
): Promise<TBusiness> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/business/',
    headers: as(session),
    payload: { name },
  });
  if (res.statusCode !== 201) throw new Error(`create business failed: ${res.body}`);
  return res.json().result as TBusiness;
}

/** A new person invited by `owner` with `role` who signs up and accepts: a member of `business`. */
export async function addMember(
  app: FastifyInstance,
  mailer: Mailer,
  owner: Session,
  business: TBusiness,
  role: 'owner' | 'admin' | 'agent',
): Promise<Session> {
  const member = await signUp(app, mailer);
  const invited = await app.inject({
    method: 'POST',
    url: '/api/business/users/',
    headers: as(owner, business),
    payload: { email: member.email, role },
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  const token = await keyFromOutbox(mailer, member.email, '/invite-user/join/');
  const joined = await app.inject({
    method: 'POST',
    url: '/api/business/users/assign/',
    headers: as(member),
    payload: { token },
  });
  if (joined.statusCode !== 200) throw new Error(`accept failed: ${joined.body}`);
  return member;
}

/**
 * Rate limits count in fixed windows aligned to the epoch: a test that fills one must not straddle
 * a window's end, or the count starts again halfway. Waits, if need be, until `seconds` remain in
 * the current window of `windowSeconds`.
 */
export async function clearOfWindowEdge(windowSeconds: number, seconds = 20): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
