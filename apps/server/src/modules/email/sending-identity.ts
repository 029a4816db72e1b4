// SEAM — replaced at merge by a re-export of modules/email-domains/email-domains.service.ts
// (the domains lane): `export { sendingIdentityFor, type SendingIdentity } from '../email-domains/email-domains.service';`
//
// Until then no business has a verified sending domain in this branch, so every lookup answers
// null and a send is refused with the 409 of email.service.ts. Tests inject a lookup (a key made
// in the test, as the domains lane would keep it) with `setSendingIdentityLookupForTests`.
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';

export type SendingIdentity = {
  domainId: number;
  domain: string;
  dkim: { domainName: string; keySelector: string; privateKey: string /* PEM */ };
  returnPathHost: string;
};

type Lookup = (
  db: Db,
  secrets: SecretBox,
  businessId: number,
  fromAddress: string,
) => Promise<SendingIdentity | null>;

let lookup: Lookup = async () => null;

/** The verified domain of `businessId` that `fromAddress` is on, with its DKIM key; else null. */
export function sendingIdentityFor(
  db: Db,
  secrets: SecretBox,
  businessId: number,
  fromAddress: string,
): Promise<SendingIdentity | null> {
  return lookup(db, secrets, businessId, fromAddress);
}

/** Tests only: stands in for the domains lane until the merge. */
export function setSendingIdentityLookupForTests(next: Lookup | null): void {
  if (process.env.NODE_ENV !== 'test' && !process.env.VITEST) throw new Error('test-only seam');
  lookup = next ?? (async () => null);
}
