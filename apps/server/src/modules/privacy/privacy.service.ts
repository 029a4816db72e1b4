// A customer's own data (GDPR articles 15 and 17; next-api.md "Campaigns and consent"): the
// export of everything Titan holds on them, and the erase that removes it — their record, consent
// history, conversations and messages with their files, sends and their events, texts, form
// submissions, the outbound events naming them and the values of their audit entries — keeping
// their addresses suppressed as hashes so the business never mails or texts them again. Each
// module's own function erases its tables; this module only sequences them in one transaction.
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Storage } from '../../platform/storage';
import { type AuditContext, recordAuditIn, scrubObjectChanges } from '../audit';
import { customerTopicIds, deleteCustomerConsentEvents, listConsentEvents } from '../consent';
import { customerConversationsWithMessages, deleteCustomerConversations } from '../conversations';
import { businessScope } from '../../platform/inbox-scope';
import { eraseCustomerRecord, findCustomerById, findVisitor, forgetErasedCustomer } from '../directory';
import { customerSubmissions, deleteCustomerSubmissions } from '../qr-forms';
import { customerSendsWithEvents, deleteCustomerSends } from '../sends';
import { customerInbound, deleteCustomerInbound } from '../sms';
import { keepHashedSuppressions, normalizeAddress } from '../suppressions';
import { deleteEventsNaming } from '../webhooks';
import { deleteCustomerAgentTraces } from '../agents';
import { deleteImportErrorsNaming } from '../customer-imports';
import { deleteOutboxMailTo } from '../../platform/mailer.repository';

export type PrivacyDeps = { db: Db; storage: Storage };

async function mustFind(db: Db, businessId: number, id: number) {
  const customer = await findCustomerById(db, businessId, id);
  if (!customer) throw AppError.notFound();
  return customer;
}

const addressesOf = (c: { email: string | null; phone: string | null }) =>
  [c.email, c.phone].flatMap((a) => (a ? [normalizeAddress(a)] : []));

/** Everything Titan holds on one customer, as JSON (the export). */
export async function exportCustomer(deps: PrivacyDeps, businessId: number, id: number) {
  const { db } = deps;
  const customer = await mustFind(db, businessId, id);
  const addresses = addressesOf(customer);
  const [profile, consent, topics, conversations, sends, texts, submissions] = await Promise.all([
    findVisitor(db, businessScope(businessId), id),
    listConsentEvents(db, businessId, id),
    customerTopicIds(db, businessId, id),
    customerConversationsWithMessages(db, businessId, id),
    customerSendsWithEvents(db, businessId, id, addresses),
    customerInbound(db, businessId, id, customer.phone),
    customerSubmissions(db, businessId, id),
  ]);
  return {
    exported_at: new Date().toISOString(),
    profile: { ...profile, fields: customer.fields, external_id: customer.externalId },
    consent_history: consent,
    topics,
    conversations,
    sends,
    sms_inbound: texts,
    form_submissions: submissions,
  };
}

/**
 * Erases the customer (see the module comment) and logs it in the audit trail (naming only the
 * id). Their stored files are removed after the commit; 404 when there is no such customer.
 */
export async function eraseCustomer(deps: PrivacyDeps, audit: AuditContext, id: number): Promise<void> {
  const { db } = deps;
  const businessId = audit.businessId;
  const customer = await mustFind(db, businessId, id);
  const addresses = addressesOf(customer);
  const files = await db.transaction(async (tx) => {
    await keepHashedSuppressions(tx, businessId, [
      ...(customer.email ? [{ channel: 'email' as const, address: customer.email }] : []),
      ...(customer.phone
        ? [
            { channel: 'sms' as const, address: customer.phone },
            { channel: 'whatsapp' as const, address: customer.phone },
          ]
        : []),
    ]);
    const files = await deleteCustomerConversations(tx, businessId, id);
    await deleteCustomerSends(tx, businessId, id, addresses);
    await deleteCustomerConsentEvents(tx, businessId, id, addresses);
    await deleteCustomerInbound(tx, businessId, id, customer.phone);
    await deleteCustomerSubmissions(tx, businessId, id);
    await scrubObjectChanges(tx, businessId, 'customer', String(id));
    const naming = [
      ...addresses,
      ...(customer.name ? [customer.name] : []),
      ...(customer.externalId ? [customer.externalId] : []),
    ];
    await deleteEventsNaming(tx, businessId, naming);
    await deleteImportErrorsNaming(tx, businessId, naming);
    await deleteCustomerAgentTraces(tx, businessId, id, naming);
    await deleteOutboxMailTo(tx, addresses);
    if (!(await eraseCustomerRecord(tx, businessId, id))) throw AppError.notFound();
    await recordAuditIn(tx, audit, { action: 'customer.erased', objectType: 'customer', objectId: id });
    return files;
  });
  forgetErasedCustomer(db, id);
  for (const key of files) await deps.storage.delete(key);
}
