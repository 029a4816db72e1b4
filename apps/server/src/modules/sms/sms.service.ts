// Sending SMS through the send spine (engage.md §1 and §4). `sendSms` resolves the recipient (a
// customer's phone or a number, E.164), checks the suppression list, renders the body (given, or a
// saved template's text part with Liquid) and records the send `queued` with Twilio's parameters
// (To, Body, From or MessagingServiceSid, StatusCallback) and its segments — then the `sms.send`
// job (sms.jobs.ts) claims it and hands it to the Twilio adapter.
import { randomUUID } from 'node:crypto';
import { smsSegments, SMS_BODY_MAX, ZE164 } from '@titan/contracts';
import type { SmsPayload } from '../../channels/sms-twilio/sms-twilio.adapter';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { findBusinessById } from '../business';
import { businessScope } from '../../platform/inbox-scope';
import { findVisitor } from '../directory';
import * as sends from '../sends';
import type { QueuedSend, SendCause, SendRow } from '../sends';
import { findSuppression } from '../suppressions';
import {
  type CompiledTemplate,
  loadCompiledTemplate,
  renderCompiled,
  TemplateRenderError,
} from '../templates';
import { accountOfBusiness, statusCallbackUrl, type OpenAccount, type SmsDeps } from './sms.account';

export type { SmsDeps };

/** The job that claims queued SMS sends and hands them to Twilio. */
export const SMS_SEND_QUEUE = 'sms.send';
/** Sends per `sms.send` job: claimed in one statement, posted to Twilio at once. */
export const SMS_JOB_CHUNK = 50;

export const SMS_SEND_ERRORS = {
  noAccount: 'Connect a Twilio account in Settings → SMS before sending text messages.',
  noCustomerPhone: 'This customer has no phone number.',
  badCustomerPhone: 'This customer’s phone number is not in international format (+ and the country code).',
  noTemplate: 'No such template.',
  emptyTemplate: 'The template has no text to send.',
  tooLong: 'The rendered message is longer than 1,600 characters.',
  suppressed: (reason?: string) =>
    `Not sent: this number is on the suppression list${reason ? ` (${reason})` : ''}.`,
  accountGone: 'Not sent: the SMS account was disconnected.',
  gaveUp: (attempts: number, message: string) => `${message} (gave up after ${attempts} attempts)`,
} as const;

export type SendSmsInput = {
  businessId: number;
  to: { customerId?: number; number?: string };
  body?: string;
  template?: { id: number; variables?: Record<string, unknown> };
  cause: SendCause;
  causeId?: string | null;
  createdBy?: number | null;
  idempotencyKey?: string | null;
};

export type SmsRecipient = {
  number: string;
  customerId: number | null;
  customer: Record<string, unknown> | null;
};

/** A stored phone as E.164, or null when it is not one. */
export function e164Of(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const parsed = ZE164.safeParse(phone);
  return parsed.success ? parsed.data : null;
}

export async function resolveRecipient(
  deps: Pick<SmsDeps, 'db'>,
  businessId: number,
  to: SendSmsInput['to'],
): Promise<SmsRecipient> {
  if (to.customerId !== undefined) {
    // Another business's customer is not found (404), as everywhere.
    const customer = await findVisitor(deps.db, businessScope(businessId), to.customerId);
    if (!customer.phone)
      throw AppError.fields(
        { customer_id: [SMS_SEND_ERRORS.noCustomerPhone] },
        SMS_SEND_ERRORS.noCustomerPhone,
      );
    const number = e164Of(customer.phone);
    if (!number)
      throw AppError.fields(
        { customer_id: [SMS_SEND_ERRORS.badCustomerPhone] },
        SMS_SEND_ERRORS.badCustomerPhone,
      );
    return {
      number,
      customerId: customer.id,
      customer: {
        ...customer.fields,
        id: customer.id,
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
        external_id: customer.external_id,
      },
    };
  }
  return { number: to.number!, customerId: null, customer: null };
}

/** What every text of one call shares: the account's sender, the business, the template. */
export type SmsContext = {
  account: OpenAccount;
  businessName: string;
  template: CompiledTemplate | null;
  statusCallback: string;
};

export async function smsContext(
  deps: SmsDeps,
  input: { businessId: number; template?: { id: number } },
): Promise<SmsContext> {
  const account = await accountOfBusiness(deps, input.businessId);
  if (!account) throw new AppError('conflict', SMS_SEND_ERRORS.noAccount);
  const business = await findBusinessById(deps.db, input.businessId);
  if (!business) throw AppError.notFound();
  const template = input.template
    ? await loadCompiledTemplate(deps.db, input.businessId, input.template.id)
    : null;
  if (input.template && !template)
    throw new AppError('not_found', SMS_SEND_ERRORS.noTemplate, {
      template_id: [SMS_SEND_ERRORS.noTemplate],
    });
  return {
    account,
    businessName: business.name,
    template,
    statusCallback: statusCallbackUrl(deps.config.PUBLIC_URL),
  };
}

/** The body to send: as given, or the template's text part rendered (400 naming what is wrong). */
function bodyOf(
  input: Pick<SendSmsInput, 'body'>,
  template: CompiledTemplate | null,
  variables: Record<string, unknown>,
): string {
  if (!template) return input.body ?? '';
  let text: string;
  try {
    text = renderCompiled(template, variables).text.trim();
  } catch (err) {
    if (err instanceof TemplateRenderError)
      throw new AppError('bad_request', err.message, { variables: [err.message] });
    throw err;
  }
  if (!text) throw AppError.fields({ template_id: [SMS_SEND_ERRORS.emptyTemplate] });
  if ([...text].length > SMS_BODY_MAX) throw AppError.fields({ template_id: [SMS_SEND_ERRORS.tooLong] });
  return text;
}

/** One text, rendered and with Twilio's parameters, as the send records it (not yet written). */
export function buildSmsSend(
  ctx: SmsContext,
  input: Omit<SendSmsInput, 'to'>,
  recipient: SmsRecipient,
): QueuedSend & { id: string } {
  const body = bodyOf(input, ctx.template, {
    customer: recipient.customer ?? { phone: recipient.number },
    business: { name: ctx.businessName },
    ...input.template?.variables,
  });
  const split = smsSegments(body);
  const request: SmsPayload = {
    To: recipient.number,
    Body: body,
    ...(ctx.account.messagingServiceSid
      ? { MessagingServiceSid: ctx.account.messagingServiceSid }
      : { From: ctx.account.fromNumber! }),
    StatusCallback: ctx.statusCallback,
  };
  return {
    id: randomUUID(),
    businessId: input.businessId,
    channel: 'sms',
    cause: input.cause,
    causeId: input.causeId ?? null,
    customerId: recipient.customerId,
    recipient: recipient.number,
    templateId: ctx.template?.id ?? null,
    templateName: ctx.template?.name ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    createdBy: input.createdBy ?? null,
    providerRequest: {
      ...request,
      ...(ctx.template ? { template: { id: ctx.template.id, version: ctx.template.version } } : {}),
    },
    cost: { segments: split.segments, encoding: split.encoding, characters: split.characters },
  };
}

/**
 * Records one text to send and hands it to the `sms.send` job; answers the recorded send (`queued`,
 * or `suppressed` when the number may not be texted — then Twilio is not called). The same
 * idempotency key answers the first send and records nothing more.
 */
export async function sendSms(deps: SmsDeps, input: SendSmsInput): Promise<SendRow> {
  const { db } = deps;
  if (input.idempotencyKey) {
    const existing = await sends.findByIdempotencyKey(db, input.businessId, input.idempotencyKey);
    if (existing) return existing;
  }
  const ctx = await smsContext(deps, input);
  const recipient = await resolveRecipient(deps, input.businessId, input.to);
  const base = buildSmsSend(ctx, input, recipient);
  const suppression = await findSuppression(db, input.businessId, 'sms', recipient.number);
  const { row, created } = await sends.recordOnce(
    db,
    base,
    suppression ? SMS_SEND_ERRORS.suppressed(suppression.reason) : null,
  );
  if (created && !suppression) await enqueueSmsSends(deps.jobs, [row.id]);
  return row;
}

/** Hands sends to the `sms.send` job (a failure here is caught up by the spine's recovery). */
export async function enqueueSmsSends(jobs: Jobs, sendIds: string[]): Promise<void> {
  for (let i = 0; i < sendIds.length; i += SMS_JOB_CHUNK) {
    await jobs.send(SMS_SEND_QUEUE, { send_ids: sendIds.slice(i, i + SMS_JOB_CHUNK) });
  }
}
