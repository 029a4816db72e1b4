// Unsubscribing from a business's mail (engage.md §2): the token in the mail names the send; the
// address it went to is suppressed for that business's email (reason `unsubscribed`) and the
// send keeps an `unsubscribed` event. Resubscribing lifts that suppression (never a hard bounce).
import type { TUnsubscribeState } from '@titan/contracts';
import { UNSUBSCRIBE_MESSAGES } from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { findBusinessById } from '../business';
import * as sends from '../sends';
import { findSendById, type SendRow } from '../sends';
import { optIn, optOut } from '../consent';
import { findSuppression } from '../suppressions';
import type { UnsubscribeTokens } from './unsubscribe-tokens';

export type UnsubscribeDeps = { db: Db; tokens: UnsubscribeTokens };

/** The email send a token names; a forged or altered token, or a send gone, is refused. */
async function sendOf(deps: UnsubscribeDeps, token: string | null | undefined): Promise<SendRow> {
  const sendId = deps.tokens.verify(token);
  if (!sendId) throw AppError.fields({ token: [UNSUBSCRIBE_MESSAGES.invalid] }, UNSUBSCRIBE_MESSAGES.invalid);
  const send = await findSendById(deps.db, sendId);
  if (!send || send.channel !== 'email') throw AppError.notFound(UNSUBSCRIBE_MESSAGES.invalid);
  return send;
}

async function stateOf(deps: UnsubscribeDeps, send: SendRow): Promise<TUnsubscribeState> {
  const business = await findBusinessById(deps.db, send.businessId);
  const suppression = await findSuppression(deps.db, send.businessId, 'email', send.recipient);
  return {
    email: send.recipient,
    business_name: business?.name ?? '',
    unsubscribed: suppression !== null,
  };
}

export async function unsubscribeState(deps: UnsubscribeDeps, token: string | undefined) {
  return stateOf(deps, await sendOf(deps, token));
}

/** Suppresses the send's address for its business; `via` says how (one-click, page, mailto). */
export async function unsubscribeSend(deps: UnsubscribeDeps, send: SendRow, via: string) {
  const current = await findSuppression(deps.db, send.businessId, 'email', send.recipient);
  // A graver reason already there (bounced, complained) stays.
  if (!current || current.reason === 'unsubscribed') {
    await optOut(deps.db, {
      businessId: send.businessId,
      channel: 'email',
      address: send.recipient,
      reason: 'unsubscribed',
      sendId: send.id,
      detail: `Unsubscribed (${via})`,
    });
  }
  await sends.recordSendEvent(deps.db, {
    sendId: send.id,
    type: 'unsubscribed',
    raise: false,
    payload: { via },
  });
}

export async function unsubscribe(deps: UnsubscribeDeps, token: string | undefined, via: string) {
  const send = await sendOf(deps, token);
  await unsubscribeSend(deps, send, via);
  return stateOf(deps, send);
}

export async function resubscribe(deps: UnsubscribeDeps, token: string) {
  const send = await sendOf(deps, token);
  const lifted = await optIn(deps.db, {
    businessId: send.businessId,
    channel: 'email',
    address: send.recipient,
    reasons: ['unsubscribed', 'complained'],
  });
  if (lifted) await sends.recordSendEvent(deps.db, { sendId: send.id, type: 'resubscribed', raise: false });
  return stateOf(deps, send);
}
