// Every message Titan sends to WhatsApp goes through `deliver`: the send recorded on the spine,
// then claimed and handed to the whatsapp-cloud adapter (with retries), then in one transaction
// the send's answer, the stored message and the conversation's replied state. A refused send stays
// failed in the logs, and is answered to staff with a message chosen by Meta's error code.
import type { Config } from '../../../config';
import type { Db, Queryable } from '../../../db/client';
import { whatsappCloud } from '../../../channels/whatsapp-cloud/whatsapp-cloud.adapter';
import type { BestEvent, ProviderEvent, SendCause } from '../../sends';
import * as sends from '../../sends';
import * as sendsRepo from '../../sends';
import type { SecretBox } from '../../../platform/crypto';
import { AppError } from '../../../platform/errors';
import type { Jobs } from '../../../platform/jobs';
import type { Storage } from '../../../platform/storage';
import {
  announceOpenedConversation,
  applyMessageToConversations,
  applyWaMessageStatuses,
  findWaMessage,
  insertWaMessage,
} from '../../conversations';
import {
  describeGraphError,
  GraphError,
  type GraphClient,
  type GraphCredentials,
} from '../../../channels/whatsapp-cloud/whatsapp-cloud.graph';
import { emitSendStatusEvents } from '../../journeys';
import * as accountRepo from '../account/whatsapp.account.repository';

export type WhatsappDeps = {
  db: Db;
  secrets: SecretBox;
  jobs: Jobs;
  config: Pick<Config, 'PUBLIC_URL' | 'WHATSAPP_EVENTS_RETENTION_DAYS'>;
  graph: GraphClient;
  storage: Storage;
};

export const NOT_CONNECTED = 'Connect a WhatsApp number in Settings → WhatsApp first.';

export type ConnectedAccount = { account: accountRepo.WhatsappAccountRow; creds: GraphCredentials };

/** The business's number with its token opened, or 409 when none is connected. */
export async function connectedAccount(deps: Pick<WhatsappDeps, 'db' | 'secrets'>, businessId: number) {
  const account = await accountRepo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) throw new AppError('conflict', NOT_CONNECTED);
  return { account, creds: credentialsOf(deps, account) };
}

export function credentialsOf(
  deps: Pick<WhatsappDeps, 'secrets'>,
  account: accountRepo.WhatsappAccountRow,
): GraphCredentials {
  return {
    phoneNumberId: account.phoneNumberId,
    wabaId: account.wabaId,
    accessToken: deps.secrets.open(account.accessTokenSealed),
  };
}

/** A Graph refusal as staff should read it, with the HTTP status that fits. */
export function toAppError(err: GraphError): AppError {
  const message = describeGraphError(err.code, err.details ?? err.message);
  if (err.code === 131047) return new AppError('conflict', message);
  if (err.code === 130429 || err.code === 131056)
    return new AppError('rate_limited', message, null, { 'Retry-After': '10' });
  if (err.retryable) return new AppError('unavailable', message, null, { 'Retry-After': '5' });
  if (err.code === 190 || err.code === 10 || err.code === 200) return new AppError('conflict', message);
  return new AppError('bad_request', message);
}

export type Delivery = {
  businessId: number;
  /** null for a template sent to a number before a conversation exists is not supported: pass one. */
  conversationId: number;
  /** Digits only, as Meta wants `to`. */
  recipient: string;
  senderType: 'staff' | 'agent' | 'system';
  senderId: number | null;
  /** The Graph body without messaging_product / recipient_type / to. */
  payload: { type: string } & Record<string, unknown>;
  /** What the inbox shows in the list and for types without a renderer. */
  content: string;
  messageType?: 'text' | 'file';
  /** Extra fields kept in meta_data next to the payload (e.g. a template's rendered components). */
  extraMeta?: Record<string, unknown>;
  templateName?: string | null;
  /** The conversation was opened for this message: its acceptance announces it (announceOpenedConversation). */
  opensConversation?: boolean;
  /** Who asked for it, when not staff (an agent's delivery: its run, customer and idempotency key). */
  origin?: {
    cause: SendCause;
    causeId?: string | null;
    customerId?: number | null;
    idempotencyKey?: string | null;
    /**
     * Run in the transaction that records the send, before it: the sender's last word under its
     * locks (an agent's delivery: the frequency cap, its per-customer lock held to this commit).
     * Throwing refuses the send; nothing is recorded or sent.
     */
    beforeRecord?: (tx: Queryable) => Promise<void>;
  };
};

/** The job that sends a queued WhatsApp send nobody claimed (its request died before the call). */
export const SEND_QUEUE = 'whatsapp.send';

/**
 * Sends one message and stores it, record before call: the send is written `queued` first (with
 * the message it will become), then claimed and handed to the adapter. Accepted: in one
 * transaction the send is marked accepted, the message stored (accepted, or better when a status
 * already arrived) and the conversation marked replied. Refused: the send is failed with Meta's
 * code and reason and the mapped AppError thrown; the conversation shows nothing of it.
 */
export async function deliver(deps: WhatsappDeps, account: ConnectedAccount, d: Delivery) {
  const send = await deps.db.transaction(async (tx) => {
    await d.origin?.beforeRecord?.(tx);
    return sends.createQueued(tx, {
      businessId: d.businessId,
      channel: 'whatsapp',
      cause: d.origin?.cause ?? (d.templateName ? 'template_send' : 'staff_reply'),
      causeId: d.origin?.causeId ?? null,
      customerId: d.origin?.customerId ?? null,
      idempotencyKey: d.origin?.idempotencyKey ?? null,
      conversationId: d.conversationId,
      recipient: d.recipient,
      templateName: d.templateName ?? null,
      createdBy: d.senderId,
      providerRequest: { to: d.recipient, ...d.payload },
      message: {
        content: d.content,
        message_type: d.messageType ?? 'text',
        sender_type: d.senderType,
        sender_id: d.senderId,
        meta_data: { ...d.payload, ...d.extraMeta },
        ...(d.opensConversation ? { opens_conversation: true } : {}),
      },
    });
  });
  return sendQueued(deps, account, send.id);
}

type StoredMessage = {
  content: string;
  message_type: 'text' | 'file';
  sender_type: 'staff' | 'agent' | 'system';
  sender_id: number | null;
  meta_data: Record<string, unknown>;
  opens_conversation?: boolean;
};

/**
 * Claims a queued send, calls Meta through the adapter and records the answer. Answers the stored
 * message; throws the mapped AppError when Meta refused, or a conflict when another caller has it.
 */
export async function sendQueued(deps: WhatsappDeps, account: ConnectedAccount, sendId: string) {
  const send = await sends.claim(deps.db, sendId);
  if (!send) throw new AppError('conflict', SEND_TAKEN);
  const outcome = await whatsappCloud.send({ graph: deps.graph, creds: account.creds }, send.providerRequest);
  if (!outcome.ok) {
    await sends.recordFailed(deps.db, send.id, outcome);
    throw outcome.cause instanceof GraphError
      ? toAppError(outcome.cause)
      : new AppError('unavailable', outcome.errorMessage);
  }
  const wamid = outcome.providerMessageId!;
  const message = (send.message ?? {}) as StoredMessage;
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    // Meta often posts a status before this transaction commits: the acceptance and the webhook's
    // statuses of this wamid take turns (applyStatuses), so neither misses the other's rows.
    await sends.lockProviderMessages(tx, 'whatsapp', [
      { businessId: send.businessId, providerMessageId: wamid },
    ]);
    await sends.recordAccepted(tx, send, outcome);
    const row = await insertWaMessage(tx, {
      id: wamid,
      businessId: send.businessId,
      conversationId: send.conversationId!,
      content: message.content ?? '',
      messageType: message.message_type ?? 'text',
      senderType: message.sender_type ?? 'staff',
      senderId: message.sender_id ?? null,
      isRead: true,
      metaData: message.meta_data ?? {},
      status: 'accepted',
      timestamp: Math.floor(now.getTime() / 1000),
      createdAt: now,
    });
    // A status may have been delivered before this wamid was stored: apply it now.
    await mirrorOntoMessages(
      tx,
      await sends.reapplyEvents(tx, 'whatsapp', [{ businessId: send.businessId, providerMessageId: wamid }]),
    );
    await applyMessageToConversations(tx, 'outbound', [
      { businessId: send.businessId, conversationId: send.conversationId!, at: now },
    ]);
    if (message.opens_conversation)
      await announceOpenedConversation(tx, send.businessId, send.conversationId!);
    return (await findWaMessage(tx, send.businessId, wamid)) ?? row;
  });
}

export const SEND_TAKEN = 'This message is already being sent.';

/**
 * Meta's statuses, set-based: kept on the spine and raised onto the business's sends, then the
 * strongest per wamid onto the business's messages. Another business reporting the same wamid
 * changes nothing of this one's.
 */
export async function applyStatuses(db: Queryable, statuses: ProviderEvent[]): Promise<void> {
  // The caller (the webhook batch, writeItems) holds these wamids' locks, taken before any of its
  // rows: in turn with their acceptance (sendQueued), so neither misses the other's rows.
  await mirrorOntoMessages(db, await sends.applyEvents(db, 'whatsapp', statuses));
}

async function mirrorOntoMessages(db: Queryable, best: BestEvent[]): Promise<void> {
  // Delivered and read are customer events journeys may wait for (once per send).
  await emitSendStatusEvents(db, 'whatsapp', best);
  await applyWaMessageStatuses(
    db,
    best.map((b) => ({
      businessId: b.businessId,
      messageId: b.providerMessageId,
      status: b.type,
      payload: b.payload,
    })),
  );
}

/** Applies what was already reported for one wamid to the business's send and message. */
export async function applyRecordedStatuses(db: Queryable, businessId: number, wamid: string): Promise<void> {
  await mirrorOntoMessages(
    db,
    await sends.reapplyEvents(db, 'whatsapp', [{ businessId, providerMessageId: wamid }]),
  );
}

/**
 * The send job: a queued WhatsApp send nobody claimed. Sent when the number is still connected
 * (a refusal is recorded on the send), failed with the reason when it is not.
 */
export async function runQueuedSend(deps: WhatsappDeps, sendId: string): Promise<void> {
  const send = await sendsRepo.findSendById(deps.db, sendId);
  if (!send || send.channel !== 'whatsapp' || send.status !== 'queued') return;
  const account = await accountRepo.findAccountByBusiness(deps.db, send.businessId);
  if (!account || !account.accessTokenSealed) {
    await sends.recordFailed(deps.db, send.id, { errorCode: null, errorMessage: NOT_CONNECTED });
    return;
  }
  try {
    await sendQueued(deps, { account, creds: credentialsOf(deps, account) }, send.id);
  } catch (err) {
    // Refused, or claimed by someone else: either way the send holds the outcome.
    if (!(err instanceof AppError)) throw err;
  }
}
