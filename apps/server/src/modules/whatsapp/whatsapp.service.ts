// WhatsApp Cloud API, receiving side: the connected number, Meta's webhook handshake, signed
// deliveries stored before the 200, and a job that turns them into conversations and statuses.
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TSaveWhatsappAccountRequest, TWhatsappAccount } from '@titan/contracts';
import type { Db } from '../../db/client';
import { safeEqual } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import * as conversationsRepo from '../conversations/conversations.repository';
import { upsertVerifiedCustomer } from '../public-chat/public-chat.repository';
import * as repo from './whatsapp.repository';

import { applyStatuses, type WhatsappDeps } from './whatsapp.outbound';
import { enqueueMediaFetch, recordInboundMedia } from './whatsapp.send';

export type { WhatsappDeps };

export const WEBHOOK_QUEUE = 'whatsapp.webhook';

export const WHATSAPP_MESSAGES = {
  secretsRequired: 'Enter the access token and the app secret to connect the number.',
  numberTaken: 'This phone number id is already connected to another business.',
} as const;

function toAccount(row: repo.WhatsappAccountRow, publicUrl: string): TWhatsappAccount {
  return {
    phone_number_id: row.phoneNumberId,
    waba_id: row.wabaId,
    display_phone_number: row.displayPhoneNumber,
    verify_token: row.verifyToken,
    webhook_url: `${publicUrl}/api/whatsapp/webhook/`,
    has_access_token: row.accessTokenSealed.length > 0,
    has_app_secret: row.appSecretSealed.length > 0,
  };
}

export async function findAccount(deps: WhatsappDeps, businessId: number): Promise<TWhatsappAccount> {
  const row = await repo.findAccountByBusiness(deps.db, businessId);
  if (!row) throw AppError.notFound('No WhatsApp number is connected yet.');
  return toAccount(row, deps.config.PUBLIC_URL);
}

export async function saveAccount(
  deps: WhatsappDeps,
  businessId: number,
  input: TSaveWhatsappAccountRequest,
): Promise<TWhatsappAccount> {
  const current = await repo.findAccountByBusiness(deps.db, businessId);
  if (!current && (!input.access_token || !input.app_secret)) {
    throw AppError.fields({
      ...(input.access_token ? {} : { access_token: [WHATSAPP_MESSAGES.secretsRequired] }),
      ...(input.app_secret ? {} : { app_secret: [WHATSAPP_MESSAGES.secretsRequired] }),
    });
  }
  const owner = await repo.findAccountByPhoneNumberId(deps.db, input.phone_number_id);
  if (owner && owner.businessId !== businessId)
    throw AppError.fields({ phone_number_id: [WHATSAPP_MESSAGES.numberTaken] });
  const row = await repo.upsertAccount(deps.db, {
    businessId,
    phoneNumberId: input.phone_number_id,
    wabaId: input.waba_id,
    displayPhoneNumber: input.display_phone_number,
    verifyToken: input.verify_token,
    accessTokenSealed: input.access_token
      ? deps.secrets.seal(input.access_token)
      : current!.accessTokenSealed,
    appSecretSealed: input.app_secret ? deps.secrets.seal(input.app_secret) : current!.appSecretSealed,
  });
  return toAccount(row, deps.config.PUBLIC_URL);
}

/** Meta's GET handshake: the challenge back, byte for byte, when the token is one of ours. */
export async function verifySubscription(
  db: Db,
  query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string },
): Promise<string> {
  const token = query['hub.verify_token'];
  const accounts = token ? await repo.findAccountsByVerifyToken(db, token) : [];
  if (query['hub.mode'] !== 'subscribe' || accounts.length === 0 || query['hub.challenge'] === undefined) {
    throw new AppError('forbidden', 'Verification failed.');
  }
  return query['hub.challenge'];
}

function phoneNumberIdOf(payload: unknown): string | null {
  const entries = (
    payload as { entry?: { changes?: { value?: { metadata?: { phone_number_id?: unknown } } }[] }[] }
  )?.entry;
  for (const entry of entries ?? []) {
    for (const change of entry.changes ?? []) {
      const id = change.value?.metadata?.phone_number_id;
      if (typeof id === 'string') return id;
    }
  }
  return null;
}

/**
 * A signed delivery: checked over the raw bytes with the number's app secret, stored, queued.
 * Anything unsigned, mis-signed or for an unknown number is refused and nothing is kept.
 */
export async function acceptWebhook(
  deps: WhatsappDeps,
  raw: Buffer,
  signatureHeader: string | undefined,
): Promise<void> {
  const unauthorized = new AppError('unauthorized', 'Invalid signature.');
  if (!signatureHeader?.startsWith('sha256=')) throw unauthorized;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw unauthorized;
  }
  const phoneNumberId = phoneNumberIdOf(payload);
  const account = phoneNumberId ? await repo.findAccountByPhoneNumberId(deps.db, phoneNumberId) : null;
  if (!account) throw unauthorized;
  const expected = createHmac('sha256', deps.secrets.open(account.appSecretSealed)).update(raw).digest('hex');
  if (!safeEqual(`sha256=${expected}`, signatureHeader.toLowerCase())) throw unauthorized;
  const eventId = await repo.insertWebhookEvent(deps.db, account.id, payload);
  await deps.jobs.send(WEBHOOK_QUEUE, { event_id: eventId });
}

type WaMessage = Record<string, unknown> & { id?: string; from?: string; timestamp?: string; type?: string };
type WaStatus = { id?: string; status?: string; timestamp?: string; errors?: unknown };
type WaValue = {
  metadata?: { phone_number_id?: string };
  contacts?: { wa_id?: string; user_id?: string; profile?: { name?: string } }[];
  messages?: WaMessage[];
  statuses?: WaStatus[];
};

/** What a person reads in the list for each inbound type; the whole payload stays in meta_data. */
export function summarize(message: WaMessage): string {
  const part = (key: string) => (message[key] ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (message.type) {
    case 'text':
      return str(part('text').body);
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
      return str(part(message.type).caption) || `[${message.type}]`;
    case 'document':
      return str(part('document').caption) || str(part('document').filename) || '[document]';
    case 'location': {
      const l = part('location');
      return str(l.name) || str(l.address) || `[location ${l.latitude}, ${l.longitude}]`;
    }
    case 'contacts':
      return (
        ((message.contacts as { name?: { formatted_name?: string } }[]) ?? [])
          .map((c) => c.name?.formatted_name ?? '')
          .filter(Boolean)
          .join(', ') || '[contacts]'
      );
    case 'interactive': {
      const i = part('interactive');
      return (
        str((i.button_reply as Record<string, unknown>)?.title) ||
        str((i.list_reply as Record<string, unknown>)?.title) ||
        '[interactive]'
      );
    }
    case 'button':
      return str(part('button').text);
    case 'reaction':
      return str(part('reaction').emoji) || '[reaction removed]';
    case 'order':
      return '[order]';
    default:
      return '[unsupported message]';
  }
}

const RANKS: Record<string, number> = { accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

/** The job: every entry × change × message and status of one delivery, idempotently. */
export async function processWebhookEvent(deps: WhatsappDeps, eventId: number): Promise<void> {
  const event = await repo.findWebhookEvent(deps.db, eventId);
  if (!event || event.processedAt) return;
  const account = await repo.findAccountById(deps.db, event.accountId);
  if (!account) return;
  const businessId = account.businessId;
  const entries = (event.payload.entry as { changes?: { field?: string; value?: WaValue }[] }[]) ?? [];

  for (const entry of entries) {
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field !== 'messages' || !value) continue;
      const names = new Map(
        (value.contacts ?? []).map((c) => [c.wa_id ?? c.user_id ?? '', c.profile?.name ?? null]),
      );
      for (const message of value.messages ?? []) {
        const sender = message.from ?? (message.from_user_id as string | undefined);
        if (!message.id || !sender) continue;
        await receiveMessage(deps, businessId, sender, names.get(sender) ?? null, message);
      }
      for (const status of value.statuses ?? []) {
        if (!status.id || !status.status || !(status.status in RANKS)) continue;
        await deps.db.transaction(async (tx) => {
          await repo.insertStatusEvent(tx, {
            businessId,
            messageId: status.id!,
            status: status.status!,
            timestamp: status.timestamp ? Number(status.timestamp) : null,
            payload: status as Record<string, unknown>,
          });
          await applyStatuses(tx, status.id!);
        });
      }
    }
  }
  await repo.markWebhookEventProcessed(deps.db, eventId);
}

async function receiveMessage(
  deps: WhatsappDeps,
  businessId: number,
  waId: string,
  name: string | null,
  message: WaMessage,
): Promise<void> {
  const at = message.timestamp ? new Date(Number(message.timestamp) * 1000) : new Date();
  const mediaId = await deps.db.transaction(async (tx) => {
    // One writer per contact at a time, so concurrent deliveries never open two conversations.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wa:${businessId}:${waId}`}))`);
    const customer = await upsertVerifiedCustomer(tx as unknown as Db, {
      businessId,
      externalId: `wa:${waId}`,
      name,
      phone: /^\d+$/.test(waId) ? `+${waId}` : null,
      fields: {},
    });
    let conversation = await conversationsRepo.findLatestConversationOf(
      tx,
      businessId,
      'whatsapp',
      customer.id,
    );
    if (!conversation) {
      const created = await conversationsRepo.insertConversation(tx, {
        businessId,
        channel: 'whatsapp',
        initiatorId: customer.id,
        title: name ? `WhatsApp with ${name}` : `WhatsApp +${waId}`,
      });
      conversation = { id: created.id, status: created.status, lastMessageAt: created.lastMessageAt };
    }
    const inserted = await repo.insertInboundMessage(tx, {
      id: message.id!,
      businessId,
      conversationId: conversation.id,
      content: summarize(message),
      senderType: 'customer',
      senderId: customer.id,
      metaData: message,
      timestamp: message.timestamp ? Number(message.timestamp) : null,
      createdAt: at,
    });
    if (!inserted) return null; // a redelivery: already stored
    await conversationsRepo.updateConversation(tx, businessId, conversation.id, {
      status: 'active',
      isRead: false,
      businessReplied: false,
      lastMessageAt:
        conversation.lastMessageAt && conversation.lastMessageAt > at ? conversation.lastMessageAt : at,
    });
    return recordInboundMedia(tx, businessId, message);
  });
  // Only once committed: the job must find the media row.
  if (mediaId) await enqueueMediaFetch(deps, mediaId);
}
