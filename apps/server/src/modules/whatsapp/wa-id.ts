// The WhatsApp id's one format. A WhatsApp contact is a customer whose external id is
// `wa:<wa_id>` (the digits they write from); one writer per contact at a time holds the
// transaction-scoped advisory lock on `wa:<businessId>:<wa_id>`. Receiving and templates to a
// number take the same lock, so these strings must never change: stored rows and live locks match.

const PREFIX = 'wa:';
const DIGITS = /^wa:(\d+)$/;

/** The customer external id of a WhatsApp contact: `wa:<digits>`. */
export const waExternalId = (digits: string): string => `${PREFIX}${digits}`;

/** Whether an external id names a WhatsApp contact (`wa:` followed by digits). */
export const isWaExternalId = (externalId: string | null | undefined): boolean =>
  DIGITS.test(externalId ?? '');

/** The digits of a WhatsApp contact's external id, or null when it names none. */
export const waDigitsOf = (externalId: string | null | undefined): string | null =>
  DIGITS.exec(externalId ?? '')?.[1] ?? null;

/** The advisory-lock key text (hashed by the database) for one contact of one business. */
export const contactLockKey = (businessId: number, digits: string): string =>
  `${PREFIX}${businessId}:${digits}`;
