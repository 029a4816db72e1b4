// What Twilio posts to Titan: status callbacks (POST /api/sms/webhook/status/) and inbound texts
// (POST /api/sms/webhook/inbound/). Each is checked with X-Twilio-Signature over PUBLIC_URL and
// the path Twilio called, keyed with the Auth Token of the account it names (AccountSid); a bad
// signature is refused (403) and changes nothing. Statuses raise the send in the SMS order and
// never lower it (Twilio's order of delivery is not the order of events); inbound STOP and START
// change the number's consent; every other text is kept on the customer's record.
import type { TSmsInbound } from '@titan/contracts';
import { parseStatusCallback } from '../../channels/sms-twilio/sms-twilio.adapter';
import { isValidTwilioSignature } from '../../channels/sms-twilio/twilio-signature';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { adoptSuppressions, confirmSmsReply } from '../consent';
import * as directory from '../directory';
import type { ProviderEvent } from '../sends';
import * as sends from '../sends';
import { accountOfSid, type OpenAccount, type SmsDeps } from './sms.account';
import { optInNumber, optOutNumber } from './sms.consent';
import * as repo from './sms.repository';
import { e164Of } from './sms.service';
import { advisoryLock } from '../../db/sql';
import { receiveChannelMessage, recordChannelActivity } from '../conversations';
import { emitSendStatusEvents } from '../journeys';

/** The activity lines STOP and START leave in the customer's SMS conversation. */
export const SMS_ACTIVITY = {
  stopped: (number: string, word: string) =>
    `${number} replied ${word}: texts to this number are stopped until they reply START`,
  started: (number: string) => `${number} replied START: texts to this number are allowed again`,
} as const;

/** The media Twilio names on an MMS (MediaUrl0…, MediaContentType0…), kept with the message. */
function mediaOf(params: Record<string, string>): { media?: { url: string; content_type: string }[] } {
  const count = Math.min(Number(params.NumMedia) || 0, 10);
  const media = [];
  for (let i = 0; i < count; i++) {
    const url = params[`MediaUrl${i}`];
    if (url) media.push({ url, content_type: params[`MediaContentType${i}`] ?? '' });
  }
  return media.length > 0 ? { media } : {};
}

export const SMS_WEBHOOK_ERRORS = { invalidSignature: 'Invalid signature.' } as const;

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
export async function verifyTwilioRequest(
  deps: SmsDeps,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): Promise<OpenAccount> {
  const accountSid = params.AccountSid;
  const account = accountSid ? await accountOfSid(deps, accountSid) : null;
  if (!account || !isValidTwilioSignature(account.authToken, url, params, signature))
    throw new AppError('forbidden', SMS_WEBHOOK_ERRORS.invalidSignature);
  return account;
}

/** A Twilio request whose signature was checked: the account it names and its form parameters. */
export type VerifiedTwilioRequest = { account: OpenAccount; params: Record<string, string> };

type StatusWrite = { event: ProviderEvent; done: (err?: unknown) => void };

/** Callbacks applied at once by one process; more wait and then share the next transaction. */
const STATUS_WRITES_AT_ONCE = 2;
const STATUS_WRITE_MAX = 200;

/**
 * Status callbacks that arrive together share one transaction (one lock, insert and raise for all
 * of them), each answered only once it committed. A shared write that fails is retried callback by
 * callback, so a bad one fails alone. Twilio posts a status per request, many at once under load.
 */
class StatusWriter {
  private readonly waiting: StatusWrite[] = [];
  private writing = 0;

  constructor(private readonly db: Db) {}

  write(event: ProviderEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ event, done: (err) => (err ? reject(err) : resolve()) });
      this.flush();
    });
  }

  private flush(): void {
    while (this.writing < STATUS_WRITES_AT_ONCE && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, STATUS_WRITE_MAX);
      this.writing++;
      void this.apply(batch).finally(() => {
        this.writing--;
        this.flush();
      });
    }
  }

  private async apply(batch: StatusWrite[]): Promise<void> {
    try {
      await applyStatuses(
        this.db,
        batch.map((w) => w.event),
      );
      for (const w of batch) w.done();
    } catch (err) {
      if (batch.length === 1) return batch[0]!.done(err);
      for (const w of batch) {
        await applyStatuses(this.db, [w.event]).then(
          () => w.done(),
          (e: unknown) => w.done(e),
        );
      }
    }
  }
}

/** Kept once per Twilio status, and each send raised (never lowered), in one transaction. */
async function applyStatuses(db: Db, events: ProviderEvent[]): Promise<void> {
  const keys = events.map((e) => ({ businessId: e.businessId, providerMessageId: e.providerMessageId }));
  await db.transaction(async (tx) => {
    // Twilio often calls before its 201 is recorded: the acceptance and these statuses take turns.
    await sends.lockProviderMessages(tx, 'sms', keys);
    // Delivered is a customer event journeys may wait for (once per send).
    await emitSendStatusEvents(tx, 'sms', await sends.applyEvents(tx, 'sms', events));
  });
}

const statusWriters = new WeakMap<Db, StatusWriter>();

function statusWriterOf(db: Db): StatusWriter {
  let writer = statusWriters.get(db);
  if (!writer) statusWriters.set(db, (writer = new StatusWriter(db)));
  return writer;
}

/** One status callback: kept once per Twilio status, and the send raised (never lowered). */
export async function acceptStatusCallback(
  deps: SmsDeps,
  { account, params }: VerifiedTwilioRequest,
): Promise<void> {
  const event = parseStatusCallback(params);
  if (!event) return;
  await statusWriterOf(deps.db).write({ businessId: account.businessId, ...event });
}

/**
 * One inbound text: kept on the record of the customer with that number (one is created for a
 * number the directory does not know), once per message SID; STOP unsubscribes the number,
 * START resubscribes it.
 */
export async function acceptInbound(
  deps: SmsDeps,
  { account, params }: VerifiedTwilioRequest,
): Promise<void> {
  const sid = params.MessageSid ?? params.SmsSid;
  const from = e164Of(params.From) ?? params.From;
  if (!sid || !from) return;
  const businessId = account.businessId;
  const body = params.Body ?? '';
  const keyword = keywordOf(body, params.OptOutType);
  await deps.db.transaction(async (tx) => {
    // Two texts from a new number at once create one customer.
    await advisoryLock(tx, `sms:${businessId}:${from}`);
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
    const at = row.receivedAt;
    if (keyword === 'stop') {
      await optOutNumber(tx, {
        businessId,
        number: from,
        detail: `Replied ${body.trim().slice(0, 40)} by SMS`,
      });
      await recordChannelActivity(tx, {
        businessId,
        channel: 'sms',
        customerId: customer.id,
        content: SMS_ACTIVITY.stopped(from, body.trim().slice(0, 40)),
        metaData: { action: 'sms_opted_out', number: from, keyword: body.trim().slice(0, 40) },
      });
    } else if (keyword === 'start') {
      // YES to a double opt-in ask confirms it (kept as the proof); otherwise an ordinary START.
      const confirmed = await confirmSmsReply(tx, { businessId, number: from, words: body.trim() });
      if (!confirmed) await optInNumber(tx, { businessId, number: from });
      await recordChannelActivity(tx, {
        businessId,
        channel: 'sms',
        customerId: customer.id,
        content: SMS_ACTIVITY.started(from),
        metaData: { action: 'sms_opted_in', number: from },
      });
    } else {
      // Any other text (HELP included) opens or continues the customer's SMS conversation.
      await receiveChannelMessage(tx, {
        businessId,
        channel: 'sms',
        customerId: customer.id,
        title: customer.name || from,
        content: body,
        metaData: { message_sid: sid, from, to: params.To ?? '', ...mediaOf(params) },
        at,
      });
    }
  });
}
