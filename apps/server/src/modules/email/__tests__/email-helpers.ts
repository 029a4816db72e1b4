// Test helpers for the email channel: a sink-backed runtime, sign-up through the sink, a DKIM key
// standing in for the domains lane (through the sending-identity seam), and polling a send.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TLoginResult } from '@titan/contracts';
import type { SmtpSink } from '@titan/smtp-sink';
import type { Db } from '../../../db/client';
import { PASSWORD, uniqueEmail, type Session } from '../../../testing/identity';
import { findSendById } from '../../sends/sends.repository';
import type { SendRow } from '../../sends/sends.service';
import { setSendingIdentityLookupForTests, type SendingIdentity } from '../sending-identity';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Signs up, reading the confirmation link from the sink (mail goes over SMTP in these tests). */
export async function signUpViaSink(app: FastifyInstance, sink: SmtpSink): Promise<Session> {
  const email = uniqueEmail('sender');
  const remoteAddress = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register/',
    remoteAddress,
    payload: { first_name: 'Ada', last_name: 'Lovelace', email, password: PASSWORD },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const mail = await sink.waitFor((m) => m.envelope.to.includes(email));
  const key = /\/auth\/account-confirm-email\/([\w-]+)/.exec(mail.text)?.[1];
  if (!key) throw new Error('no confirmation link');
  await app.inject({
    method: 'POST',
    url: '/api/auth/register/verify-email/',
    remoteAddress,
    payload: { key },
  });
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    remoteAddress,
    payload: { email, password: PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { ...(login.json().result as TLoginResult), email };
}

/** A 2048-bit DKIM key and its DNS record, as the domains lane makes and publishes them. */
export function dkimKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return { pem, record: `v=DKIM1; k=rsa; p=${p}` };
}

/**
 * Stands in for `sendingIdentityFor` of the domains lane: `domain` is a verified domain of
 * exactly these businesses.
 */
export function verifiedDomains(entries: { businessId: number; domain: string; pem: string }[]) {
  setSendingIdentityLookupForTests(async (_db, _secrets, businessId, fromAddress) => {
    const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
    const entry = entries.find((e) => e.businessId === businessId && e.domain === domain);
    if (!entry) return null;
    const identity: SendingIdentity = {
      domainId: 1,
      domain: entry.domain,
      dkim: { domainName: entry.domain, keySelector: 's2026', privateKey: entry.pem },
      returnPathHost: `bounces.${entry.domain}`,
    };
    return identity;
  });
}

/** Polls a send until `done` says so (or fails after `timeoutMs`). */
export async function waitForSend(
  db: Db,
  id: string,
  done: (send: SendRow) => boolean,
  timeoutMs = 40_000,
): Promise<SendRow> {
  const until = Date.now() + timeoutMs;
  let last: SendRow | null = null;
  while (Date.now() < until) {
    last = await findSendById(db, id);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`send ${id} did not get there in time (status ${last?.status ?? 'missing'})`);
}

export type Team = { owner: Session; business: TBusiness };
