// A journey's WhatsApp step: one approved template to one customer, recorded in the step's
// transaction (record before call) under the step's idempotency key, then handed to the
// `whatsapp.send` job, which claims the send once and calls Meta — a step run again finds its send
// and hands nothing on. Templates are what Meta lets a business send outside the 24-hour
// customer-service window, so the step never needs the window open; it does need the template
// approved, the customer's WhatsApp consent (subscribed, or not opted out under legitimate
// interest), a number, and the number not suppressed (a suppressed send is recorded as such).
import { marketingConsentAllows, type TMarketingConsent } from '@titan/contracts';
import type { Db, Queryable } from '../../../db/client';
import * as directory from '../../directory';
import * as sends from '../../sends';
import { normalizeAddress, suppressedAmong } from '../../suppressions';
import { NOT_CONNECTED, SEND_QUEUE, type WhatsappDeps } from '../messages/whatsapp.outbound';
import * as accountRepo from '../account/whatsapp.account.repository';
import { checkCampaignTemplate, componentsFor, conversationFor, graphTemplate } from './whatsapp.broadcast';
import { checkParameters, renderTemplate } from './whatsapp.templates';

export const WHATSAPP_JOURNEY_WORDS = {
  noPhone: 'Not sent: the customer has no WhatsApp number.',
  noConsent: 'Not sent: the customer has not subscribed to WhatsApp.',
  missingValue: 'Not sent: a template variable has no value for this customer.',
  suppressed: 'This number opted out of WhatsApp messages.',
} as const;

export type JourneyTemplate = { name: string; language: string; variables?: Record<string, string> };

/** What the step did: its send (queued to hand on, or final), or why none was made. */
export type JourneyTemplateSend =
  | { sendId: string; status: string; reason: string | null; dispatch: boolean }
  | { sendId: null; status: 'not_sent'; reason: string; dispatch: false };

/** A transaction where a function taking the database is called (it nests as a savepoint). */
const asDb = (q: Queryable) => q as unknown as Db;

/** Why the business cannot send this template from a journey (empty when it can), in a marketer's words. */
export async function journeyTemplateProblems(
  db: Queryable,
  businessId: number,
  template: JourneyTemplate,
): Promise<string[]> {
  const { problems } = await checkCampaignTemplate(asDb(db), businessId, {
    name: template.name,
    language: template.language,
    variables: template.variables ?? {},
  } as Parameters<typeof checkCampaignTemplate>[2]);
  return problems;
}

/** Records a journey step's template send in `tx`, once per idempotency key; see the file's head. */
export async function recordJourneyTemplateSend(
  tx: Queryable,
  input: {
    businessId: number;
    customerId: number;
    template: JourneyTemplate;
    consent: TMarketingConsent;
    idempotencyKey: string;
    causeId: string;
  },
): Promise<JourneyTemplateSend> {
  const { businessId, idempotencyKey } = input;
  const existing = await sends.findByIdempotencyKey(tx, businessId, idempotencyKey);
  if (existing)
    return { sendId: existing.id, status: existing.status, reason: existing.errorMessage, dispatch: false };
  const notSent = (reason: string): JourneyTemplateSend => ({
    sendId: null,
    status: 'not_sent',
    reason,
    dispatch: false,
  });
  const customer = await directory.findCustomerById(tx, businessId, input.customerId);
  const digits = (customer?.phone ?? '').replace(/\D/g, '');
  if (!customer || digits.length < 6 || digits.length > 15) return notSent(WHATSAPP_JOURNEY_WORDS.noPhone);
  if (!marketingConsentAllows(input.consent, customer.whatsappStatus))
    return notSent(WHATSAPP_JOURNEY_WORDS.noConsent);
  const account = await accountRepo.findAccountByBusiness(asDb(tx), businessId);
  if (!account?.accessTokenSealed) return notSent(`Not sent: ${NOT_CONNECTED}`);
  const content = {
    name: input.template.name,
    language: input.template.language,
    variables: input.template.variables ?? {},
  } as Parameters<typeof checkCampaignTemplate>[2];
  const { problems, template } = await checkCampaignTemplate(asDb(tx), businessId, content);
  if (!template || problems.length > 0) return notSent(`Not sent: ${problems.join(' ')}`);
  const components = componentsFor(template, content, customer);
  if (!components || checkParameters(template, components).length > 0)
    return notSent(WHATSAPP_JOURNEY_WORDS.missingValue);
  const suppressed = (await suppressedAmong(tx, businessId, 'whatsapp', [`+${digits}`])).has(
    normalizeAddress(`+${digits}`),
  );
  const payload = { type: 'template', template: graphTemplate(template, components) };
  type Row = Parameters<typeof sends.createMany>[1][number];
  const base: Row = {
    id: crypto.randomUUID(),
    businessId,
    channel: 'whatsapp',
    cause: 'journey',
    causeId: input.causeId,
    customerId: customer.id,
    recipient: digits,
    templateName: template.name,
    idempotencyKey,
    createdBy: null,
    providerRequest: { to: digits, ...payload },
    status: 'queued',
  };
  let row: Row;
  if (suppressed) {
    row = { ...base, status: 'suppressed', errorMessage: WHATSAPP_JOURNEY_WORDS.suppressed };
  } else {
    const rendered = renderTemplate(template, components);
    row = {
      ...base,
      conversationId: await conversationFor(tx, businessId, customer, digits),
      message: {
        content: rendered.content,
        message_type: 'text',
        sender_type: 'system',
        sender_id: null,
        meta_data: { ...payload, template: rendered.template },
      },
    };
  }
  const [written] = await sends.createMany(tx, [row]);
  if (!written) {
    // Recorded under the same key by another worker at the same moment: its send stands.
    const other = await sends.findByIdempotencyKey(tx, businessId, idempotencyKey);
    return other
      ? { sendId: other.id, status: other.status, reason: other.errorMessage, dispatch: false }
      : notSent('Not sent: recorded by another worker.');
  }
  return {
    sendId: written.id,
    status: written.status,
    reason: suppressed ? WHATSAPP_JOURNEY_WORDS.suppressed : null,
    dispatch: !suppressed,
  };
}

/** Hands recorded template sends to the `whatsapp.send` job (one job per send id). */
export async function dispatchWhatsappSends(deps: Pick<WhatsappDeps, 'jobs'>, ids: string[]): Promise<void> {
  for (const id of ids) await deps.jobs.send(SEND_QUEUE, { send_id: id }, { singletonKey: id });
}
