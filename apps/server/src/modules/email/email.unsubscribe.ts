// Unsubscribing from a business's mail (engage.md §2): the token in the mail names the send; the
// address it went to is suppressed for that business's email (reason `unsubscribed`) and the
// send keeps an `unsubscribed` event. Resubscribing lifts that suppression (never a hard bounce).
import type { TPreferences, TUnsubscribeState, TUpdatePreferencesRequest } from '@titan/contracts';
import { UNSUBSCRIBE_ERRORS } from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { findBusinessById } from '../business';
import * as sends from '../sends';
import { findSendById, type SendRow } from '../sends';
import {
  chooseTopics,
  getConsentPage,
  leaveTopic,
  optIn,
  optOut,
  pageLocaleOf,
  topicChoices,
} from '../consent';
import { findCustomerById } from '../directory';
import { findSuppression } from '../suppressions';
import type { UnsubscribeTokens } from './unsubscribe-tokens';

export type UnsubscribeDeps = { db: Db; tokens: UnsubscribeTokens };

/** The email send a token names; a forged or altered token, or a send gone, is refused. */
async function sendOf(deps: UnsubscribeDeps, token: string | null | undefined): Promise<SendRow> {
  const sendId = deps.tokens.verify(token);
  if (!sendId) throw AppError.fields({ token: [UNSUBSCRIBE_ERRORS.invalid] }, UNSUBSCRIBE_ERRORS.invalid);
  const send = await findSendById(deps.db, sendId);
  if (!send || send.channel !== 'email') throw AppError.notFound(UNSUBSCRIBE_ERRORS.invalid);
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

export async function unsubscribe(
  deps: UnsubscribeDeps,
  token: string | undefined,
  via: string,
  topicId?: number,
) {
  const send = await sendOf(deps, token);
  // One-click on a campaign of a topic leaves that topic; a topic not the business's: all mail.
  if (
    topicId !== undefined &&
    (await leaveTopic(deps.db, { businessId: send.businessId, topicId, email: send.recipient }))
  ) {
    await sends.recordSendEvent(deps.db, {
      sendId: send.id,
      type: 'unsubscribed',
      raise: false,
      payload: { via, topic_id: topicId },
    });
    return stateOf(deps, send);
  }
  await unsubscribeSend(deps, send, via);
  return stateOf(deps, send);
}

/** The preference centre of the person a mail went to: the business's page, topics, language. */
export async function preferencesOf(deps: UnsubscribeDeps, token: string): Promise<TPreferences> {
  return preferencesFor(deps, await sendOf(deps, token));
}

async function preferencesFor(deps: UnsubscribeDeps, send: SendRow): Promise<TPreferences> {
  const [business, page, suppression, topics, customer] = await Promise.all([
    findBusinessById(deps.db, send.businessId),
    getConsentPage(deps.db, send.businessId),
    findSuppression(deps.db, send.businessId, 'email', send.recipient),
    topicChoices(deps.db, send.businessId, send.recipient),
    send.customerId ? findCustomerById(deps.db, send.businessId, send.customerId) : null,
  ]);
  return {
    business: { name: business?.name ?? '', ...page },
    email: send.recipient,
    locale: pageLocaleOf(customer),
    topics,
    unsubscribe_all: suppression !== null,
  };
}

/**
 * The person keeps these topics, or leaves all the business's mail (an unsubscribe). Choosing
 * topics again after leaving all lifts that unsubscribe (never a bounce or a complaint).
 */
export async function setPreferences(
  deps: UnsubscribeDeps,
  token: string,
  input: TUpdatePreferencesRequest,
): Promise<TPreferences> {
  const send = await sendOf(deps, token);
  if (input.unsubscribe_all) {
    await unsubscribeSend(deps, send, 'preferences');
    return preferencesFor(deps, send);
  }
  await deps.db.transaction(async (tx) => {
    await chooseTopics(tx, { businessId: send.businessId, email: send.recipient, keep: input.topics });
    const lifted = await optIn(tx, {
      businessId: send.businessId,
      channel: 'email',
      address: send.recipient,
      reasons: ['unsubscribed'],
    });
    if (lifted) await sends.recordSendEvent(tx, { sendId: send.id, type: 'resubscribed', raise: false });
  });
  return preferencesFor(deps, send);
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
