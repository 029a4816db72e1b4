// Consent per channel (engage.md §3): a customer's `email_status`, `sms_status` and
// `whatsapp_status` and the business's suppression list are kept in step here, and only here.
// The suppression list says who must not be sent to (every send checks it); the customer's status
// says why, or that they opted in. An opt-out suppresses the address and marks every customer
// reached at it; an opt-in lifts the suppression and marks them subscribed; staff or a visitor
// form setting a customer's consent moves the suppression with it.
import type {
  TConsentStatus as ConsentStatus,
  TDirectoryVisitor,
  TUpdateDirectoryVisitorRequest,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { businessScope } from '../../platform/inbox-scope';
import {
  CONSENT_FIELD,
  type ConsentChannel,
  type CustomerRow,
  findCustomerById,
  findCustomersByIds,
  findVisitor,
  setConsentForAddress,
  subscribeWhereUnknown,
  updateCustomerConsent,
  updateVisitor,
} from '../directory';
import * as repo from './consent.repository';
import {
  findSuppression,
  normalizeAddress,
  suppress,
  type SuppressionReason,
  type SuppressionRow,
  suppressionsAmong,
  unsuppress,
} from '../suppressions';

export type { ConsentChannel, ConsentStatus };
export type { ConsentEventRow } from './consent.repository';
export { listConsentEvents } from './consent.repository';
export const CONSENT_CHANNELS: readonly ConsentChannel[] = ['email', 'sms', 'whatsapp'];

/** What a suppression reason says of the person's consent. */
const STATUS_OF_REASON: Record<SuppressionReason, ConsentStatus> = {
  unsubscribed: 'unsubscribed',
  bounced: 'bounced',
  complained: 'complained',
  manual: 'unsubscribed',
};

/** The suppression a consent status set by staff or a form stands for; none for the others. */
const REASON_OF_STATUS: Partial<Record<ConsentStatus, SuppressionReason>> = {
  unsubscribed: 'manual',
  bounced: 'bounced',
  complained: 'complained',
};

/** The address a customer is reached at on a channel (email, or the E.164 phone), if any. */
function addressOf(customer: CustomerRow, channel: ConsentChannel): string | null {
  const address = channel === 'email' ? customer.email : customer.phone;
  return address ? normalizeAddress(address) : null;
}

/** The person at `address` opted out (or bounced, or complained): never send to them again. */
export async function optOut(
  db: Queryable,
  input: {
    businessId: number;
    channel: ConsentChannel;
    address: string;
    reason: SuppressionReason;
    sendId?: string | null;
    detail?: string | null;
  },
): Promise<SuppressionRow> {
  const row = await suppress(db, input);
  await setConsentForAddress(db, input.businessId, input.channel, row.address, STATUS_OF_REASON[row.reason]);
  return row;
}

/**
 * The person at `address` opted back in: lifts their suppression (with `reasons`, only one of
 * those — resubscribing lifts an unsubscribe, never a hard bounce) and, once nothing suppresses
 * the address, marks its customers subscribed. True when a suppression was lifted.
 */
export async function optIn(
  db: Queryable,
  input: { businessId: number; channel: ConsentChannel; address: string; reasons?: SuppressionReason[] },
): Promise<boolean> {
  const lifted = await unsuppress(db, input);
  if (!(await findSuppression(db, input.businessId, input.channel, input.address))) {
    await setConsentForAddress(
      db,
      input.businessId,
      input.channel,
      normalizeAddress(input.address),
      'subscribed',
    );
  }
  return lifted;
}

/**
 * Staff (or a visitor form) set a customer's consent. An opt-out suppresses the customer's
 * address on that channel; `subscribed` or `unknown` lifts any suppression of it. A channel the
 * customer has no address for only records the status.
 */
export async function setCustomerConsent(
  db: Queryable,
  businessId: number,
  customerId: number,
  changes: Partial<Record<ConsentChannel, ConsentStatus>>,
): Promise<void> {
  if (CONSENT_CHANNELS.every((c) => changes[c] === undefined)) return;
  const customer = await findCustomerById(db, businessId, customerId);
  if (!customer) throw AppError.notFound();
  for (const channel of CONSENT_CHANNELS) {
    const status = changes[channel];
    if (status === undefined) continue;
    const address = addressOf(customer, channel);
    if (address) {
      const reason = REASON_OF_STATUS[status];
      if (reason)
        await suppress(db, { businessId, channel, address, reason, detail: 'Set in the directory' });
      else await unsuppress(db, { businessId, channel, address });
    }
  }
  const patch = Object.fromEntries(
    CONSENT_CHANNELS.flatMap((c) => (changes[c] === undefined ? [] : [[CONSENT_FIELD[c], changes[c]]])),
  );
  if (Object.keys(patch).length === 0) return;
  await updateCustomerConsent(db, businessId, customerId, patch);
}

/**
 * New or re-addressed customers take over what the suppression list already says of their
 * addresses (one query per channel for the whole batch).
 */
export async function adoptSuppressions(
  db: Queryable,
  businessId: number,
  customerIds: number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await adoptSuppressionsOf(db, businessId, await findCustomersByIds(db, businessId, customerIds));
}

/**
 * As adoptSuppressions, for customers just written with these addresses (an import's batch: no
 * need to read the rows back). One query finds what the list holds of the batch's addresses on
 * every channel; only those cost an update.
 */
export async function adoptSuppressionsOf(
  db: Queryable,
  businessId: number,
  written: { email: string | null; phone: string | null }[],
): Promise<void> {
  const emails = written.flatMap((c) => (c.email ? [c.email] : []));
  const phones = written.flatMap((c) => (c.phone ? [c.phone] : []));
  const found = await suppressionsAmong(db, businessId, [
    { channels: CONSENT_CHANNELS.filter((c) => c === 'email'), addresses: emails },
    { channels: CONSENT_CHANNELS.filter((c) => c !== 'email'), addresses: phones },
  ]);
  for (const row of found)
    await setConsentForAddress(
      db,
      businessId,
      row.channel as ConsentChannel,
      row.address,
      STATUS_OF_REASON[row.reason],
    );
}

/**
 * An import's rows carry consent the business has proof of: each of these customers whose consent
 * on a channel is still unknown (and who has an address there) becomes subscribed, with a consent
 * record keeping the proof. Run after the batch adopted the suppression list, so an opt-out,
 * bounce or complaint stands; a status someone set stands too.
 */
export async function recordImportedConsent(
  db: Queryable,
  input: {
    businessId: number;
    customerIds: number[];
    channels: readonly ConsentChannel[];
    proof: string;
    importId: string;
  },
): Promise<void> {
  for (const channel of input.channels) {
    const marked = await subscribeWhereUnknown(db, input.businessId, input.customerIds, channel);
    await repo.insertImportedConsentEvents(db, {
      businessId: input.businessId,
      customerIds: marked,
      channel,
      status: 'subscribed',
      proof: input.proof,
      importId: input.importId,
    });
  }
}

/**
 * The directory's edit of a customer: their details, then their consent; a new address takes
 * over what the suppression list says of it unless the edit sets that channel's consent itself.
 */
export async function updateVisitorAndConsent(
  db: Db,
  businessId: number,
  id: number,
  input: TUpdateDirectoryVisitorRequest,
): Promise<TDirectoryVisitor> {
  const { email_status, sms_status, whatsapp_status, ...details } = input;
  await updateVisitor(db, businessId, id, details);
  const readdressed = details.email !== undefined || details.phone !== undefined;
  if (readdressed) await adoptSuppressions(db, businessId, [id]);
  const changes = { email: email_status, sms: sms_status, whatsapp: whatsapp_status };
  await setCustomerConsent(db, businessId, id, changes);
  return findVisitor(db, businessScope(businessId), id);
}

/** What a person did themselves about their consent, kept as proof (source, method, time, IP). */
export async function recordConsentEvent(
  db: Queryable,
  event: {
    businessId: number;
    customerId: number | null;
    channel: ConsentChannel;
    address: string;
    status: ConsentStatus;
    source: string;
    method: 'single_opt_in' | 'confirmation_sent' | 'double_opt_in';
    reference: string | null;
    ip: string | null;
  },
): Promise<void> {
  await repo.insertConsentEvent(db, { ...event, address: normalizeAddress(event.address) });
}

/**
 * Whether a stranger's tick may subscribe `customer` on `channel` at once (single opt-in): the
 * customer is reached there at the address the visitor gave, their consent is unknown and nothing
 * suppresses the address. Anything else — an unsubscribe, a block by staff, a bounce or complaint —
 * needs the person at the address to confirm (double opt-in).
 */
export async function maySubscribeAtOnce(
  db: Queryable,
  businessId: number,
  customer: CustomerRow,
  channel: ConsentChannel,
): Promise<boolean> {
  const address = addressOf(customer, channel);
  if (!address || customer[CONSENT_FIELD[channel]] !== 'unknown') return false;
  return !(await findSuppression(db, businessId, channel, address));
}

/**
 * The person at `address` confirmed an opt-in (they followed a link mailed there): whatever
 * suppressed the address is lifted — they showed it reaches them and that they want the mail —
 * and its customers become subscribed, with the confirmation kept as proof. Once per `reference`
 * and channel: false when it was confirmed before (nothing changes then).
 */
export async function confirmOptIn(
  db: Queryable,
  input: {
    businessId: number;
    customerId: number;
    channel: ConsentChannel;
    address: string;
    source: string;
    reference: string;
    ip: string | null;
  },
): Promise<boolean> {
  if (await repo.findConfirmation(db, input.businessId, input.reference, input.channel)) return false;
  await unsuppress(db, { businessId: input.businessId, channel: input.channel, address: input.address });
  await setConsentForAddress(
    db,
    input.businessId,
    input.channel,
    normalizeAddress(input.address),
    'subscribed',
  );
  await recordConsentEvent(db, { ...input, status: 'subscribed', method: 'double_opt_in' });
  return true;
}
