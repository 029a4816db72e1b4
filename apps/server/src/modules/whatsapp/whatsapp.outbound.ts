// Every message Titan sends to WhatsApp goes through `deliver`: the Graph call (with retries), then
// in one transaction the stored message, its log row and the conversation's replied state. A
// refused call is logged too, and answered to staff with a message chosen by Meta's error code.
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { whatsappLogs, waMessages } from '../../db/schema';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import type { Storage } from '../../platform/storage';
import * as conversationsRepo from '../conversations/conversations.repository';
import type { Queryable } from '../auth/auth.repository';
import { describeGraphError, GraphError, type GraphClient, type GraphCredentials } from './whatsapp.graph';
import * as repo from './whatsapp.repository';

export type WhatsappDeps = {
  db: Db;
  secrets: SecretBox;
  jobs: Jobs;
  config: Pick<Config, 'PUBLIC_URL' | 'WHATSAPP_EVENTS_RETENTION_DAYS'>;
  graph: GraphClient;
  storage: Storage;
};

export const NOT_CONNECTED = 'Connect a WhatsApp number in Settings → WhatsApp first.';

export type ConnectedAccount = { account: repo.WhatsappAccountRow; creds: GraphCredentials };

/** The business's number with its token opened, or 409 when none is connected. */
export async function connectedAccount(deps: Pick<WhatsappDeps, 'db' | 'secrets'>, businessId: number) {
  const account = await repo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) throw new AppError('conflict', NOT_CONNECTED);
  return { account, creds: credentialsOf(deps, account) };
}

export function credentialsOf(
  deps: Pick<WhatsappDeps, 'secrets'>,
  account: repo.WhatsappAccountRow,
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
};

/**
 * Sends one message and stores it. On success the message (status accepted, or better when a
 * status already arrived) is in wa_messages and the conversation is marked replied; on failure a
 * log row with the error is kept and the mapped AppError thrown. Nothing half-written either way.
 */
export async function deliver(deps: WhatsappDeps, account: ConnectedAccount, d: Delivery) {
  const request = { to: d.recipient, ...d.payload };
  let result;
  try {
    result = await deps.graph.sendMessage(account.creds, request);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    await deps.db.insert(whatsappLogs).values({
      businessId: d.businessId,
      conversationId: d.conversationId,
      recipient: d.recipient,
      type: d.payload.type,
      templateName: d.templateName ?? null,
      status: 'error',
      errorCode: err.code,
      errorMessage: describeGraphError(err.code, err.details ?? err.message),
      request,
      response: err.body,
      sentBy: d.senderId,
    });
    throw toAppError(err);
  }
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(waMessages)
      .values({
        id: result.wamid,
        businessId: d.businessId,
        conversationId: d.conversationId,
        content: d.content,
        messageType: d.messageType ?? 'text',
        senderType: d.senderType,
        senderId: d.senderId,
        isRead: true,
        metaData: { ...d.payload, ...d.extraMeta },
        status: 'accepted',
        timestamp: Math.floor(now.getTime() / 1000),
        createdAt: now,
      })
      .returning();
    await tx.insert(whatsappLogs).values({
      businessId: d.businessId,
      conversationId: d.conversationId,
      wamid: result.wamid,
      recipient: d.recipient,
      type: d.payload.type,
      templateName: d.templateName ?? null,
      status: 'accepted',
      request,
      response: result.response,
      sentBy: d.senderId,
    });
    // A status may have been delivered before this wamid was stored: apply it now.
    await applyStatuses(tx, d.businessId, result.wamid);
    await conversationsRepo.updateConversation(tx, d.businessId, d.conversationId, {
      lastMessageAt: now,
      businessReplied: true,
      isRead: true,
    });
    return (await conversationsRepo.findWaMessage(tx, d.businessId, result.wamid)) ?? row!;
  });
}

/**
 * The strongest status the business's number reported onto the business's message and log row
 * (pricing from any of them). Another business reporting the same wamid changes nothing here.
 */
export async function applyStatuses(db: Queryable, businessId: number, wamid: string): Promise<void> {
  await repo.applyBestStatus(db, businessId, wamid);
  await db.execute(sql`
    update whatsapp_logs l set
      status = coalesce(m.status, l.status),
      error_code = coalesce((m.meta_data->'errors'->0->>'code')::int, l.error_code),
      error_message = coalesce(m.meta_data->'errors'->0->>'message', m.meta_data->'errors'->0->>'title', l.error_message),
      pricing_category = coalesce(p.category, l.pricing_category),
      billable = coalesce(p.billable, l.billable),
      updated_at = now()
    from wa_messages m
    left join lateral (
      select payload->'pricing'->>'category' as category, (payload->'pricing'->>'billable')::boolean as billable
      from whatsapp_status_events
      where business_id = ${businessId} and message_id = ${wamid} and payload ? 'pricing'
      order by received_at desc limit 1
    ) p on true
    where l.business_id = ${businessId} and l.wamid = ${wamid}
      and m.business_id = ${businessId} and m.id = ${wamid}`);
}
