// What Twilio posts to Titan: status callbacks (POST /api/sms/webhook/status/) and inbound texts
// (POST /api/sms/webhook/inbound/). Each is checked with X-Twilio-Signature over PUBLIC_URL and
// the path Twilio called, keyed with the Auth Token of the account it names (AccountSid); a bad
// signature is refused (403) and changes nothing. Statuses raise the send in the SMS order and
// never lower it (Twilio's order of delivery is not the order of events); inbound STOP and START
// change the number's consent; every other text is kept on the customer's record.
import { sql } from 'drizzle-orm';
import type { TSmsInbound } from '@titan/contracts';
import { parseStatusCallback } from '../../channels/sms-twilio/sms-twilio.adapter';
import { isValidTwilioSignature } from '../../channels/sms-twilio/twilio-signature';
import { AppError } from '../../platform/errors';
import { adoptSuppressions } from '../consent/consent.service';
import * as directory from '../directory/directory.service';
import * as sends from '../sends/sends.service';
import { accountOfSid, type OpenAccount, type SmsDeps } from './sms.account';
import { optInNumber, optOutNumber } from './sms.consent';
import { enqueuePriceFetch } from './sms.jobs';
import * as repo from './sms.repository';
import { e164Of } from './sms.service';

export const SMS_WEBHOOK_MESSAGES = { invalidSignature: 'Invalid signature.' } as const;

/** What Titan answers Twilio for an inbound text: empty TwiML (no automatic reply). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** Twilio's default opt-out, opt-in and help words (a message of that one word, any case). */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
const OPT_IN = new Set(['START', 'YES', 'UNSTOP']);
const HELP = new Set(['HELP', 'INFO']);

export type SmsKeyword = TSmsInbound['keyword'];

/** The keyword an inbound text is: Twilio's OptOutType when it says, else the body as one word. */
export function keywordOf(body: string, optOutType?: string): SmsKeyword {
  const type = optOutType?.trim().toUpperCase();
  if (type === 'STOP') return 'stop';
  if (type === 'START') return 'start';
  if (type === 'HELP') return 'help';
  const word = body
    .trim()
    .replace(/^[\s"'“”.!]+|[\s"'“”.!]+$/g, '')
    .toUpperCase();
  if (OPT_OUT.has(word)) return 'stop';
  if (OPT_IN.has(word)) return 'start';
  if (HELP.has(word)) return 'help';
  return null;
}

/** The account a request names, when the request is signed with its Auth Token; 403 otherwise. */
async function verified(
  deps: SmsDeps,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): Promise<OpenAccount> {
  const accountSid = params.AccountSid;
  const account = accountSid ? await accountOfSid(deps, accountSid) : null;
  if (!account || !isValidTwilioSignature(account.authToken, url, params, signature))
    throw new AppError('forbidden', SMS_WEBHOOK_MESSAGES.invalidSignature);
  return account;
}

/** One status callback: kept once per Twilio status, and the send raised (never lowered). */
export async function acceptStatusCallback(
  deps: SmsDeps,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): Promise<void> {
  const account = await verified(deps, url, params, signature);
  const event = parseStatusCallback(params);
  if (!event) return;
  const key = { businessId: account.businessId, providerMessageId: event.providerMessageId };
  await deps.db.transaction(async (tx) => {
    // Twilio often calls before its 201 is recorded: the acceptance and this status take turns.
    await sends.lockProviderMessages(tx, 'sms', [key]);
    await sends.applyEvents(tx, 'sms', [{ ...key, ...event }]);
  });
  if (event.type === 'delivered' || event.type === 'failed') {
    // What it cost is known a little later; a lost price is only a missing figure.
    enqueuePriceFetch(deps.jobs, { business_id: account.businessId, sid: event.providerMessageId }).catch(
      (err: unknown) => deps.logger.warn({ err }, 'sms price fetch not queued'),
    );
  }
}

/**
 * One inbound text: kept on the record of the customer with that number (one is created for a
 * number the directory does not know), once per message SID; STOP unsubscribes the number,
 * START resubscribes it.
 */
export async function acceptInbound(
  deps: SmsDeps,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): Promise<void> {
  const account = await verified(deps, url, params, signature);
  const sid = params.MessageSid ?? params.SmsSid;
  const from = e164Of(params.From) ?? params.From;
  if (!sid || !from) return;
  const businessId = account.businessId;
  const body = params.Body ?? '';
  const keyword = keywordOf(body, params.OptOutType);
  await deps.db.transaction(async (tx) => {
    // Two texts from a new number at once create one customer.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${businessId}:${from}`}))`);
    const [known] = await directory.findCustomersByPhone(tx, businessId, from);
    let customer = known;
    if (!customer) {
      customer = await directory.insertCustomer(tx, { businessId, phone: from });
      // A number the business stopped texting before it was a customer keeps its consent.
      await adoptSuppressions(tx, businessId, [customer.id]);
    }
    const row = await repo.insertInbound(tx, {
      businessId,
      customerId: customer.id,
      messageSid: sid,
      fromNumber: from,
      toNumber: params.To ?? '',
      body,
      keyword,
      payload: params,
    });
    if (!row) return; // Twilio delivered it before
    if (keyword === 'stop')
      await optOutNumber(tx, {
        businessId,
        number: from,
        detail: `Replied ${body.trim().slice(0, 40)} by SMS`,
      });
    else if (keyword === 'start') await optInNumber(tx, { businessId, number: from });
  });
}
