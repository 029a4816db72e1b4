// The ports the journey engine drives (composition-level code beside composition.ts): customers
// from the directory, sends through the spine on the email, SMS and WhatsApp channels (address,
// suppression and consent checked as campaigns check them, then the business's frequency cap), the
// update step's fields, labels and lists, the conversation step's inbox, the webhook step's call
// through the one SSRF gate (safe-fetch), and the agent step's one-customer run (the agents module's face).
import { CHANNELS, JOURNEY_ERRORS, marketingConsentAllows, type TEventCustomer } from '@titan/contracts';
import type { Db, Queryable } from './db/client';
import { agentChannelsOf, type AgentRunDeps, dispatchCustomerRuns, startCustomerRun } from './modules/agents';
import { businessTimeZone, findMembership } from './modules/business';
import { type AddressedSends, recordAddressedSends } from './modules/broadcasts';
import { outOfQuietHours, recipientZone } from './modules/campaigns';
import { findGroup } from './modules/chat-groups';
import {
  findAwaitingReply,
  findLatestConversationOf,
  startConversation,
  updateConversation,
} from './modules/conversations';
import { businessScope } from './platform/inbox-scope';
import { addKnownMembers, isStaticList, listSelection, removeKnownMembers } from './modules/customer-lists';
import {
  type CustomerRow,
  findCustomerByExternalId,
  findCustomerById,
  findCustomersByEmail,
  findCustomersByIds,
  findCustomersByPhone,
  segmentCustomers,
  segmentCustomersAmong,
  updateVisitor,
} from './modules/directory';
import { buildSend, EMAIL_ERRORS, enqueueEmailSends, type EmailDeps, sendContext } from './modules/email';
import type { JourneyCustomer, JourneyPorts, RecordedSend } from './modules/journeys';
import { applyLabels, resolveLabels } from './modules/labels';
import * as sends from './modules/sends';
import {
  buildSmsSend,
  e164Of,
  enqueueSmsSends,
  SMS_SEND_ERRORS,
  smsContext,
  type SmsDeps,
} from './modules/sms';
import { templateExists } from './modules/templates';
import {
  dispatchWhatsappSends,
  journeyTemplateProblems,
  recordJourneyTemplateSend,
  type WhatsappDeps,
} from './modules/whatsapp';
import { AppError } from './platform/errors';
import type { Jobs } from './platform/jobs';
import { outboundErrorWords, outboundUrlProblem, type OutboundDeps, safePost } from './platform/safe-fetch';

/** How long a webhook step waits for its answer, and how much of the answer it reads. */
export const JOURNEY_WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOK_ANSWER_BYTES = 4096;

export const JOURNEY_SEND_WORDS = {
  noConsent: (channel: string) => `Not sent: the customer has not subscribed to ${channel}.`,
  noPhone: 'Not sent: the customer has no mobile number in international format.',
  noEmail: 'Not sent: the customer has no email address.',
  webhookStatus: (status: number) => `The webhook answered ${status}.`,
} as const;

const toCustomer = (c: CustomerRow): JourneyCustomer => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  externalId: c.externalId,
  fields: c.fields,
  emailStatus: c.emailStatus,
  smsStatus: c.smsStatus,
  whatsappStatus: c.whatsappStatus,
});

const customerVars = (c: JourneyCustomer) => ({
  ...c.fields,
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  external_id: c.externalId,
});

/** A transaction where a function of another module takes the database (it nests as a savepoint). */
const asDb = (q: Queryable) => q as unknown as Db;

export function journeyPorts(deps: {
  db: Db;
  jobs: Jobs;
  email: EmailDeps;
  sms: SmsDeps;
  whatsapp: WhatsappDeps;
  webhooks: { outbound: OutboundDeps };
  agentRuns: AgentRunDeps;
}): JourneyPorts {
  const post = safePost(deps.webhooks.outbound);
  return {
    async findCustomer(db, businessId, by: TEventCustomer) {
      let row: CustomerRow | null = null;
      if (by.id !== undefined) row = await findCustomerById(db, businessId, by.id);
      else if (by.external_id !== undefined)
        row = await findCustomerByExternalId(db, businessId, by.external_id);
      else if (by.email !== undefined)
        [row = null] = await findCustomersByEmail(db, businessId, by.email.toLowerCase());
      else if (by.phone !== undefined) [row = null] = await findCustomersByPhone(db, businessId, by.phone);
      return row ? toCustomer(row) : null;
    },
    async findCustomers(db, businessId, ids) {
      return (await findCustomersByIds(db, businessId, ids)).map(toCustomer);
    },
    templateExists: (db, businessId, id) => templateExists(asDb(db), businessId, id),
    staticListExists: (db, businessId, id) => isStaticList(db, businessId, id),
    async labelExists(db, businessId, id) {
      try {
        await resolveLabels(db, businessId, [id]);
        return true;
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return false;
        throw err;
      }
    },
    async recordSend(tx, input): Promise<RecordedSend> {
      const { businessId, customer, config, idempotencyKey, causeId, memo } = input;
      // The business's frequency cap, shared with campaigns and agents; a send this step already
      // recorded (a step retried after a crash) answers as it was, counted or not.
      const capStop = async (): Promise<string | null> => {
        if (await sends.findByIdempotencyKey(tx, businessId, idempotencyKey)) return null;
        const { capped } = await sends.frequencyCapForRecording(tx, businessId, [customer.id], new Date());
        return capped.get(customer.id)?.reason ?? null;
      };
      if (config.channel === 'whatsapp') {
        // The whatsapp module checks the template, the window's rule, consent and suppression.
        if (!config.whatsapp_template)
          return {
            sendId: null,
            status: 'not_sent',
            reason: JOURNEY_ERRORS.whatsappTemplate,
            dispatch: false,
            channel: 'whatsapp',
          };
        const capped = await capStop();
        if (capped)
          return { sendId: null, status: 'not_sent', reason: capped, dispatch: false, channel: 'whatsapp' };
        const sent = await recordJourneyTemplateSend(tx, {
          businessId,
          customerId: customer.id,
          template: config.whatsapp_template,
          consent: config.consent,
          idempotencyKey,
          causeId,
        });
        return { ...sent, channel: 'whatsapp' } as RecordedSend;
      }
      const channel = config.channel === 'sms' ? 'sms' : 'email';
      const notSent = (reason: string): RecordedSend => ({
        sendId: null,
        status: 'not_sent',
        reason,
        dispatch: false,
        channel,
      });
      const recorded = async (): Promise<RecordedSend | null> => {
        const s = await sends.findByIdempotencyKey(tx, businessId, idempotencyKey);
        return s
          ? { sendId: s.id, status: s.status, reason: s.errorMessage, dispatch: false, channel }
          : null;
      };
      const existing = await recorded();
      if (existing) return existing;
      const address = channel === 'email' ? customer.email?.trim() || null : e164Of(customer.phone);
      if (!address)
        return notSent(channel === 'email' ? JOURNEY_SEND_WORDS.noEmail : JOURNEY_SEND_WORDS.noPhone);
      const consentSkip = (c: JourneyCustomer) =>
        marketingConsentAllows(config.consent, channel === 'email' ? c.emailStatus : c.smsStatus)
          ? null
          : JOURNEY_SEND_WORDS.noConsent(channel === 'email' ? 'email' : 'SMS');
      // Consent first, then the cap (a customer who never subscribed reads so, suppressed or capped
      // or not); the builder below asks consent again as it does for broadcasts.
      const noConsent = consentSkip(customer);
      if (noConsent) return notSent(noConsent);
      // The cap counts sends already recorded; this step's own is not among them (checked above).
      // Under the customer's cap lock, held to the step's commit: a batch with one send step (or a
      // step run alone) holds none yet; a batch that took its send steps' locks first takes it again
      // at no cost (advisory locks are re-entrant within the transaction's session).
      const capped = (await sends.frequencyCapForRecording(tx, businessId, [customer.id], new Date())).capped;
      const capReason = capped.get(customer.id)?.reason;
      if (capReason) return notSent(capReason);
      const common = { businessId, cause: 'journey' as const, causeId, idempotencyKey };
      const template = config.template_id ? { id: config.template_id, variables: {} } : undefined;
      // A batch's sends of one sender and template share its context (read once in the transaction).
      const contextKey = `email:${businessId}:${config.from ?? ''}:${config.template_id ?? ''}`;
      const emailContext = async () => {
        const kept = memo?.get(contextKey) as Awaited<ReturnType<typeof sendContext>> | undefined;
        if (kept) return kept;
        const made = await sendContext(
          { ...deps.email, db: asDb(tx) },
          { businessId, from: config.from, template },
        );
        memo?.set(contextKey, made);
        return made;
      };
      const vars = customerVars(customer);
      let build: AddressedSends<JourneyCustomer>['build'];
      if (channel === 'email') {
        const ctx = await emailContext();
        build = (c, to) =>
          buildSend(
            deps.email,
            ctx,
            { ...common, template, unsubscribeFooter: true },
            { address: to, customerId: c.id, customer: vars },
          );
      } else {
        const ctx = await smsContext(
          { ...deps.sms, db: asDb(tx) },
          { businessId, ...(template ? { template } : {}) },
        );
        build = (c, to) =>
          buildSmsSend(
            ctx,
            { ...common, ...(template ? { template } : { body: config.body ?? '' }) },
            { number: to, customerId: c.id, customer: vars },
          );
      }
      const suppressedError = channel === 'email' ? EMAIL_ERRORS.suppressed() : SMS_SEND_ERRORS.suppressed();
      // The one builder broadcasts use: suppression (recorded `suppressed`), consent, rendering, and
      // the send recorded once under its idempotency key.
      const [outcome] = await recordAddressedSends(tx, {
        businessId,
        channel,
        addressed: [{ customer, address }],
        consentSkip,
        build,
        suppressedError,
      });
      if (!outcome) throw new Error('a send to one address answers one outcome');
      switch (outcome.kind) {
        case 'passed_over':
          return notSent(outcome.reason);
        case 'not_rendered':
          throw outcome.error;
        case 'taken':
          // Recorded under the same key by another worker at the same moment: its send stands.
          return ((await recorded()) ?? {
            sendId: null,
            status: 'failed',
            reason: null,
            dispatch: false,
            channel,
          }) as RecordedSend;
        case 'recorded':
          return {
            sendId: outcome.sendId,
            status: outcome.status,
            reason: outcome.status === 'suppressed' ? suppressedError : null,
            dispatch: outcome.status === 'queued',
            channel,
          };
      }
    },
    async dispatchSends(list) {
      const email = list.filter((s) => s.channel === 'email').map((s) => s.id);
      const sms = list.filter((s) => s.channel === 'sms').map((s) => s.id);
      if (email.length > 0) await enqueueEmailSends(deps.jobs, email);
      if (sms.length > 0) await enqueueSmsSends(deps.jobs, sms);
      const whatsapp = list.filter((s) => s.channel === 'whatsapp').map((s) => s.id);
      if (whatsapp.length > 0) await dispatchWhatsappSends(deps.whatsapp, whatsapp);
    },
    whatsappTemplateProblems: (db, businessId, template) => journeyTemplateProblems(db, businessId, template),
    async zoneOf(db, businessId, customer) {
      return recipientZone(customer, await businessTimeZone(db, businessId));
    },
    async quietHoursEnd(db, businessId, customer, at) {
      const end = outOfQuietHours(at, recipientZone(customer, await businessTimeZone(db, businessId)));
      return end.getTime() > at.getTime() ? end : null;
    },
    async updateCustomer(tx, businessId, customerId, config) {
      if (config.fields && Object.keys(config.fields).length > 0)
        await updateVisitor(asDb(tx), businessId, customerId, { fields: config.fields });
      if (config.add_label_ids?.length)
        await applyLabels(tx, businessId, 'customer', [customerId], config.add_label_ids, 'add');
      for (const listId of config.add_list_ids ?? [])
        await addKnownMembers(tx, businessId, listId, [customerId]);
      for (const listId of config.remove_list_ids ?? [])
        await removeKnownMembers(tx, businessId, listId, [customerId]);
    },
    async customersWithDateOn(db, businessId, field, monthDays, afterId, limit) {
      // The directory's segment grammar narrows the scan; the engine reads each date exactly.
      const rules = {
        any: monthDays.map((md) => ({
          field: `customer.fields.${field}`,
          op: 'contains' as const,
          value: md,
        })),
      };
      return (await segmentCustomers(db, businessId, { rules }, afterId, limit)).map(toCustomer);
    },
    async segmentOf(db, businessId, listId) {
      try {
        const list = await listSelection(db, businessId, listId);
        return list.kind === 'segment' ? list.filter : null;
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return null;
        throw err;
      }
    },
    segmentCustomerIds: async (db, businessId, filter, afterId, limit) =>
      (await segmentCustomers(db, businessId, filter, afterId, limit)).map((c) => c.id),
    segmentCustomerIdsAmong: async (db, businessId, filter, ids) =>
      (await segmentCustomersAmong(db, businessId, filter, ids)).map((c) => c.id),
    webhookUrlProblem: (url) => outboundUrlProblem(deps.webhooks.outbound, url),
    async callWebhook({ url, body, idempotencyKey }) {
      try {
        const answer = await post(url, {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Titan-Journeys',
            'idempotency-key': idempotencyKey,
          },
          body,
          timeoutMs: JOURNEY_WEBHOOK_TIMEOUT_MS,
          maxBodyBytes: WEBHOOK_ANSWER_BYTES,
        });
        if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status };
        return { ok: false, status: answer.status, reason: JOURNEY_SEND_WORDS.webhookStatus(answer.status) };
      } catch (err) {
        return {
          ok: false,
          status: null,
          reason: outboundErrorWords(err, JOURNEY_WEBHOOK_TIMEOUT_MS / 1000),
        };
      }
    },
    awaitingReply: (db, input) => findAwaitingReply(db, input),
    chatGroupExists: async (db, businessId, id) => (await findGroup(db, businessId, id)) !== null,
    agentChannels: agentChannelsOf,
    startAgentRun: startCustomerRun,
    holdFrequencyCapLocks: (tx, keys) => sends.holdFrequencyCapLocks(tx, keys),
    dispatchAgentRuns: (ids) => dispatchCustomerRuns(deps.agentRuns, ids),
    memberExists: async (db, businessId, userId) => (await findMembership(db, businessId, userId)) !== null,
    async openConversation(tx, { businessId, customerId, config, title }) {
      // The customer's newest conversation still open, on whichever channel.
      let open: { id: number; lastMessageAt: Date | null } | null = null;
      for (const channel of CHANNELS) {
        const c = await findLatestConversationOf(tx, businessId, channel, customerId);
        if (!c || c.status === 'resolved') continue;
        if (!open || (c.lastMessageAt?.getTime() ?? 0) > (open.lastMessageAt?.getTime() ?? 0)) open = c;
      }
      let conversationId = open?.id ?? null;
      if (conversationId === null)
        conversationId = (
          await startConversation(asDb(tx), {
            businessId,
            channel: 'titan_message',
            initiatorId: customerId,
            chatGroupId: config.chat_group_id ?? null,
            title,
          })
        ).id;
      if (config.assignee_id !== undefined)
        await updateConversation({ db: asDb(tx) }, businessScope(businessId), conversationId, {
          assignee_id: config.assignee_id,
        });
      return { conversationId, created: open === null };
    },
  };
}
