import { createSecretKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBusiness } from '@titan/contracts';
import { deriveKey } from '../../../platform/crypto';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { VISITOR_TOKEN_TTL_SECONDS } from '../visitor-tokens';
import { insertCustomer } from '../../directory/directory.repository';

let rt: TestRuntime;
let owner: Session;
let business: TBusiness;
beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Token Co');
});
afterAll(() => rt.destroy());

const publicList = (token: string) =>
  rt
    .app!.inject({
      method: 'GET',
      url: '/api/public/conversations/',
      headers: { authorization: `Visitor ${token}` },
    })
    .then((r) => r.statusCode);

/** A token as signed before versions existed: no `ver` claim. */
async function legacyToken(customerId: number, businessId: number): Promise<string> {
  const key = createSecretKey(deriveKey(rt.config.APP_SECRET, 'visitor-jwt'));
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: 'visitor', bid: businessId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(customerId))
    .setIssuedAt(iat)
    .setExpirationTime(iat + VISITOR_TOKEN_TTL_SECONDS)
    .sign(key);
}

describe('visitor token revocation', () => {
  it('keeps tokens issued before versions working until the visitor’s session is ended', async () => {
    const customer = await insertCustomer(rt.database.db, {
      businessId: business.id,
      name: 'Old Timer',
    });
    const token = await legacyToken(customer.id, business.id);
    expect(await publicList(token)).toBe(200);
    const ended = await rt.app!.inject({
      method: 'POST',
      url: `/api/business/customer-directory/${customer.id}/end-session/`,
      headers: as(owner, business),
    });
    expect(ended.statusCode).toBe(200);
    expect(await publicList(token)).toBe(401);
  });
});
