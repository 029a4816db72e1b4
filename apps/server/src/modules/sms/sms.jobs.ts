// The `sms.send` job: claims a set of queued SMS sends in one statement, posts each to Twilio at
// once, and records each answer — accepted (`accepted`, sms_count raised by the spine, segments and price
// kept, statuses that raced ahead applied), refused for now (back to `queued`, retried after a
// wait with backoff: 429, 5xx), or refused (`failed` with a clear reason; 21610 also unsubscribes
// the number). The `sms.prices` sweep reads what Twilio charged once messages are final.
import type { Logger } from 'pino';
import type { SendOutcome } from '../../channels/channel';
import {
  isTransient,
  retryAfterMs,
  smsTwilio,
  type SmsPayload,
} from '../../channels/sms-twilio/sms-twilio.adapter';
import type { Jobs } from '../../platform/jobs';
import { markReplyFailed } from '../conversations';
import { emitSendStatusEvents } from '../journeys';
import * as sends from '../sends';
import type { SendRow } from '../sends';
import { accountOfBusiness, type SmsDeps } from './sms.account';
import { optOutNumber } from './sms.consent';
import { SMS_SEND_ERRORS, SMS_SEND_QUEUE } from './sms.service';

export type SmsSendJob = { send_ids: string[] };

export const SMS_PRICE_QUEUE = 'sms.prices';

/** Sends what is still queued of `sendIds`; the others were taken by another worker or are done. */
export async function runSmsSends(deps: SmsDeps, sendIds: string[]): Promise<void> {
  const mine = await sends.runClaimedSends(deps, 'sms', sendIds, (send) => sendOne(deps, send));
  if (mine.length === 0) return;
  await sends.recordCosts(
    deps.db,
    mine.map(({ send, outcome }) => {
      const r = outcome.response ?? {};
      const segments = Number(r.num_segments);
      return {
        id: send.id,
        cost: {
          twilio_segments: Number.isInteger(segments) ? segments : null,
          price: typeof r.price === 'string' ? r.price : null,
          price_unit: typeof r.price_unit === 'string' ? r.price_unit : null,
        },
      };
    }),
  );
  // Twilio often reports a status before its 201 is recorded: those events wait under the SID.
  const keys = mine.map(({ send, outcome }) => ({
    businessId: send.businessId,
    providerMessageId: outcome.providerMessageId!,
  }));
  await deps.db.transaction(async (tx) => {
    // Taken in turn with the status callbacks of these messages (sms.webhook.ts).
    await sends.lockProviderMessages(tx, 'sms', keys);
    await emitSendStatusEvents(tx, 'sms', await sends.reapplyEvents(tx, 'sms', keys));
  });
}

/** One claimed send: Twilio's acceptance, or null (the failure or the retry is recorded here). */
async function sendOne(deps: SmsDeps, send: SendRow): Promise<Extract<SendOutcome, { ok: true }> | null> {
  const account = await accountOfBusiness(deps, send.businessId);
  if (!account) {
    await sends.recordFailed(deps.db, send.id, {
      errorCode: 'no_account',
      errorMessage: SMS_SEND_ERRORS.accountGone,
    });
    await markReplyFailed(deps.db, send, SMS_SEND_ERRORS.accountGone);
    return null;
  }
  const stored = send.providerRequest as unknown as SmsPayload;
  const payload: SmsPayload = {
    To: stored.To,
    Body: stored.Body,
    ...(stored.MessagingServiceSid
      ? { MessagingServiceSid: stored.MessagingServiceSid }
      : { From: stored.From }),
    ...(stored.StatusCallback ? { StatusCallback: stored.StatusCallback } : {}),
    ...(stored.MediaUrl?.length ? { MediaUrl: stored.MediaUrl } : {}),
  };
  const outcome = await smsTwilio.send(account.twilio, payload);
  if (outcome.ok) return outcome;
  if (isTransient(outcome)) {
    await sends.retryLater(deps, SMS_SEND_QUEUE, send.id, outcome, {
      delays: deps.config.SMS_RETRY_DELAYS_MS,
      gaveUp: SMS_SEND_ERRORS.gaveUp,
      // Twilio's Retry-After when longer (within the recovery job's minute).
      waitOf: (wait) => Math.min(Math.max(wait, retryAfterMs(outcome) ?? 0), 55_000),
    });
    return null;
  }
  await sends.recordFailed(deps.db, send.id, outcome);
  await markReplyFailed(deps.db, send, outcome.errorMessage);
  if (outcome.errorCode === '21610') {
    await optOutNumber(deps.db, {
      businessId: send.businessId,
      number: send.recipient,
      sendId: send.id,
      detail: 'Twilio: the recipient replied STOP (21610)',
    });
  }
  return null;
}

/** Sends a sweep prices at most, and the Twilio calls it makes at once. */
const PRICE_SWEEP_LIMIT = 2000;
const PRICE_CALLS_AT_ONCE = 8;
/** A message is asked about this many times at most (Twilio may never price some). */
const PRICE_MAX_CHECKS = 3;

/**
 * What Twilio charged: texts that ended (delivered, undelivered, failed) in the last day without a
 * price are looked up (GET …/Messages/{sid}.json), a few at once, and their price kept; one Twilio
 * has not priced yet is asked again by a later sweep. Kept off the status callbacks' path.
 */
export async function sweepPrices(deps: SmsDeps, now = new Date()): Promise<number> {
  const unpriced = await sends.findUnpricedSends(
    deps.db,
    'sms',
    { from: new Date(now.getTime() - 86_400_000), to: new Date(now.getTime() - 2_000) },
    PRICE_MAX_CHECKS,
    PRICE_SWEEP_LIMIT,
  );
  let priced = 0;
  for (let i = 0; i < unpriced.length; i += PRICE_CALLS_AT_ONCE) {
    const costs = await Promise.all(
      unpriced.slice(i, i + PRICE_CALLS_AT_ONCE).map(async (send) => {
        const account = await accountOfBusiness(deps, send.businessId);
        const message = account ? await smsTwilio.fetchMessage(account.twilio, send.providerMessageId) : null;
        if (message?.price) priced++;
        return {
          id: send.id,
          cost: message?.price
            ? { price: message.price, price_unit: message.priceUnit, twilio_segments: message.numSegments }
            : { price_checks: send.checks + 1 },
        };
      }),
    );
    await sends.recordCosts(deps.db, costs);
  }
  return priced;
}

export async function defineSmsQueues(jobs: Jobs, deps: SmsDeps, logger: Logger): Promise<void> {
  await jobs.define<SmsSendJob>({
    name: SMS_SEND_QUEUE,
    handler: (data) => runSmsSends(deps, data.send_ids ?? []),
    // A failed job (the database gone mid-chunk) is run again: claims make that safe, and what it
    // left `sending` is resolved by the spine's recovery.
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    concurrency: 8,
    pollingIntervalSeconds: 0.5,
  });
  // One instance of the set prices what ended, each minute.
  await jobs.define({
    name: SMS_PRICE_QUEUE,
    handler: async () => {
      await sweepPrices(deps);
    },
    retryLimit: 1,
  });
  await jobs.schedule(SMS_PRICE_QUEUE, '* * * * *');
  logger.debug({ queue: SMS_SEND_QUEUE }, 'sms queues defined');
}
