// The sending identity of a From address: the domains module's `sendingIdentityFor` (a verified
// domain of the business, with its DKIM key). Tests of the sending path may stand in a lookup of
// their own (a key made in the test) with `setSendingIdentityLookupForTests`; refused elsewhere.
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { type SendingIdentity, sendingIdentityFor as verifiedIdentityFor } from '../email-domains';

export type { SendingIdentity };

type Lookup = (
  db: Db,
  secrets: SecretBox,
  businessId: number,
  fromAddress: string,
) => Promise<SendingIdentity | null>;

let lookup: Lookup = verifiedIdentityFor;

/** The verified domain of `businessId` that `fromAddress` is on, with its DKIM key; else null. */
export function sendingIdentityFor(
  db: Db,
  secrets: SecretBox,
  businessId: number,
  fromAddress: string,
): Promise<SendingIdentity | null> {
  return lookup(db, secrets, businessId, fromAddress);
}

/** Tests only: a lookup of the test's own (null restores the domains module's). */
export function setSendingIdentityLookupForTests(next: Lookup | null): void {
  if (process.env.NODE_ENV !== 'test' && !process.env.VITEST) throw new Error('test-only seam');
  lookup = next ?? verifiedIdentityFor;
}
