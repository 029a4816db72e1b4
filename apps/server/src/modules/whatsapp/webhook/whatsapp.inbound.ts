// WhatsApp deliveries into conversations. whatsapp_webhook_events is the queue: a processor claims
// a batch of pending deliveries and writes all their messages and statuses set-based in one
// transaction; when a batch fails, its deliveries are retried one by one so a bad one is isolated.
import type { Logger } from 'pino';
import { describeDatabaseError, driverErrorOf } from '../../../platform/db-errors';
import type { Queryable } from '../../../db/client';
import { whatsappCloud } from '../../../channels/whatsapp-cloud/whatsapp-cloud.adapter';
import * as sends from '../../sends';
import type { ProviderEvent } from '../../sends';
import {
  applyMessageToConversations,
  findLatestConversationsOf,
  insertInboundWaMessages,
  insertOpenedConversations,
  type MessageArrival,
} from '../../conversations';
import { applyStatuses, type WhatsappDeps } from '../messages/whatsapp.outbound';
import * as directory from '../../directory';
import { emitCustomerEvents } from '../../journeys';
import * as webhookRepo from './whatsapp.webhook.repository';
import { contactLockKey, waExternalId } from '../wa-id';
import { enqueueMediaFetch, isInboundMedia, recordInboundMedia } from '../media/whatsapp.media';

export const WEBHOOK_QUEUE = 'whatsapp.webhook';

/** How much one transaction takes on: a batch stops at `maxEvents` deliveries or about `messageBudget` items. */
export type WebhookBatchLimits = { maxEvents: number; messageBudget: number };
export const WEBHOOK_BATCH: WebhookBatchLimits = { maxEvents: 100, messageBudget: 1000 };

/** A delivery that fails on its own waits 5 s, 10 s, 20 s … (at most an hour), ten times at most. */
export const WEBHOOK_RETRY = { retryDelaySeconds: 5, maxDelaySeconds: 3600, maxAttempts: 10 } as const;

type Json = Record<string, unknown>;
type WaMessage = Json & {
  id?: unknown;
  from?: unknown;
  from_user_id?: unknown;
  timestamp?: unknown;
  type?: unknown;
};

/** What a person reads in the list for each inbound type; the whole payload stays in meta_data. */
export function summarize(message: WaMessage): string {
  const part = (key: string) => (message[key] ?? {}) as Json;
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
      return str((i.button_reply as Json)?.title) || str((i.list_reply as Json)?.title) || '[interactive]';
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

type InboundItem = {
  businessId: number;
  /** wa_id, or the business-scoped user id of newer payloads. */
  sender: string;
  name: string | null;
  message: WaMessage & { id: string };
  timestamp: number | null;
  at: Date;
};

type Items = { messages: InboundItem[]; statuses: ProviderEvent[] };
type MediaToFetch = { businessId: number; mediaId: string };

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Meta's Unix seconds as stored (an int column); anything else is no timestamp. */
function secondsOf(v: unknown): number | null {
  const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null;
}

/** Every entry × change × message, then every status, of one delivery, each in delivery order. */
function itemsOf(event: webhookRepo.PendingWebhookEvent, into: Items): void {
  const businessId = event.businessId;
  for (const entry of list(event.payload.entry)) {
    for (const change of list(obj(entry).changes)) {
      if (obj(change).field !== 'messages') continue;
      const value = obj(obj(change).value);
      const names = new Map<string, string | null>();
      for (const contact of list(value.contacts)) {
        const c = obj(contact);
        const id = text(c.wa_id) ?? text(c.user_id);
        if (id) names.set(id, text(obj(c.profile).name));
      }
      for (const raw of list(value.messages)) {
        const message = obj(raw) as WaMessage;
        const id = text(message.id);
        const sender = text(message.from) ?? text(message.from_user_id);
        if (!id || !sender) continue;
        const timestamp = secondsOf(message.timestamp);
        into.messages.push({
          businessId,
          sender,
          name: names.get(sender) ?? null,
          message: message as WaMessage & { id: string },
          timestamp,
          at: timestamp === null ? new Date() : new Date(timestamp * 1000),
        });
      }
    }
  }
  // Statuses are the provider's events about sends: the channel adapter reads them off the delivery.
  for (const status of whatsappCloud.parseEvents(event.payload))
    into.statuses.push({ businessId, ...status });
}

/**
 * Writes the items of claimed deliveries in the caller's transaction, the way one message at a
 * time would: contacts become customers, each continues (or opens) their latest WhatsApp
 * conversation, which is reopened and marked unread; wamids the business already stored are skipped;
 * statuses are kept and applied monotonically. Every wamid is a key within the business whose number
 * reported it, so one business's deliveries never drop, or change, another's messages. Answers the
 * media still to fetch once committed.
 */
async function writeItems(tx: Queryable, items: Items): Promise<MediaToFetch[]> {
  const { messages, statuses } = items;
  const mediaToFetch: MediaToFetch[] = [];
  // The statuses' wamids first, before any row of this batch is locked: a send being accepted
  // holds its wamid's lock and then writes its conversation (sendQueued), so taking them in the
  // same order here means the two wait for each other and never deadlock.
  await sends.lockProviderMessages(
    tx,
    'whatsapp',
    statuses.map((e) => ({ businessId: e.businessId, providerMessageId: e.providerMessageId })),
  );
  if (messages.length > 0) {
    // One writer per contact at a time, so concurrent batches never open two conversations.
    const contacts = new Map<string, directory.ContactValues>();
    for (const m of messages) {
      const key = contactLockKey(m.businessId, m.sender);
      const known = contacts.get(key);
      // As one upsert per message would leave it: the last name given wins.
      if (known) known.name = m.name ?? known.name;
      else
        contacts.set(key, {
          businessId: m.businessId,
          externalId: waExternalId(m.sender),
          name: m.name,
          phone: /^\d+$/.test(m.sender) ? `+${m.sender}` : null,
        });
    }
    await webhookRepo.lockContacts(tx, [...contacts.keys()].sort());
    const customers = await directory.upsertContacts(tx, [...contacts.values()]);
    const customerOf = new Map(customers.map((c) => [`${c.businessId}:${c.externalId}`, c.id]));

    const keyOf = (m: InboundItem) => webhookRepo.wamidKey(m.businessId, m.message.id);
    const unique = new Map(messages.map((m) => [keyOf(m), { businessId: m.businessId, id: m.message.id }]));
    const stored = await webhookRepo.findStoredWamids(tx, [...unique.values()]);
    const fresh: (InboundItem & { customerId: number })[] = [];
    for (const m of messages) {
      if (stored.has(keyOf(m))) continue;
      stored.add(keyOf(m)); // a wamid twice in the batch is stored once, the first time
      fresh.push({ ...m, customerId: customerOf.get(`${m.businessId}:${waExternalId(m.sender)}`)! });
    }

    if (fresh.length > 0) {
      // Per customer: the first new message names a new conversation, the newest sets last_message_at.
      const threads = new Map<number, { businessId: number; first: InboundItem; lastAt: Date }>();
      for (const m of fresh) {
        const t = threads.get(m.customerId);
        if (!t) threads.set(m.customerId, { businessId: m.businessId, first: m, lastAt: m.at });
        else if (m.at > t.lastAt) t.lastAt = m.at;
      }
      const existing = await findLatestConversationsOf(
        tx,
        'whatsapp',
        [...threads].map(([customerId, t]) => ({ businessId: t.businessId, customerId })),
      );
      const created = await insertOpenedConversations(
        tx,
        'whatsapp',
        [...threads]
          .filter(([customerId]) => !existing.has(customerId))
          .map(([customerId, t]) => ({
            businessId: t.businessId,
            initiatorId: customerId,
            title: t.first.name ? `WhatsApp with ${t.first.name}` : `WhatsApp +${t.first.sender}`,
            lastMessageAt: t.lastAt,
          })),
      );
      const conversationOf = (customerId: number) => existing.get(customerId) ?? created.get(customerId)!;

      const added = await insertInboundWaMessages(
        tx,
        fresh.map((m) => ({
          id: m.message.id,
          businessId: m.businessId,
          conversationId: conversationOf(m.customerId),
          content: summarize(m.message),
          messageType: isInboundMedia(m.message) ? 'file' : 'text',
          senderId: m.customerId,
          metaData: m.message,
          timestamp: m.timestamp,
          createdAt: m.at,
        })),
      );
      const inserted = new Set(added.map((r) => webhookRepo.wamidKey(r.businessId, r.id)));

      const arrivals: MessageArrival[] = [];
      await emitCustomerEvents(
        tx,
        ...fresh
          .filter((m) => inserted.has(keyOf(m)))
          .map((m) => ({
            businessId: m.businessId,
            customerId: m.customerId,
            name: 'message.received' as const,
            properties: {
              channel: 'whatsapp',
              conversation_id: conversationOf(m.customerId),
              wamid: m.message.id,
            },
            at: m.at,
          })),
      );
      for (const m of fresh) {
        if (!inserted.has(keyOf(m))) continue;
        const mediaId = await recordInboundMedia(tx, m.businessId, m.message);
        if (mediaId) mediaToFetch.push({ businessId: m.businessId, mediaId });
        if (!existing.has(m.customerId)) continue; // created in its final state
        arrivals.push({ businessId: m.businessId, conversationId: existing.get(m.customerId)!, at: m.at });
      }
      await applyMessageToConversations(tx, 'inbound', arrivals);
    }
  }
  if (statuses.length > 0) {
    // Kept on the spine and applied set-based to the sends and their messages. A status may also
    // arrive before the send stored its wamid: the send applies it when it does.
    await applyStatuses(tx, statuses);
  }
  return mediaToFetch;
}

/** Claims, writes and marks processed, all in one transaction; answers what it claimed. */
async function processClaimed(
  deps: WhatsappDeps,
  claim: (tx: Queryable) => Promise<webhookRepo.PendingWebhookEvent[]>,
): Promise<{ events: webhookRepo.PendingWebhookEvent[]; items: number }> {
  const { events, items, media } = await deps.db.transaction(async (tx) => {
    const events = await claim(tx);
    const items: Items = { messages: [], statuses: [] };
    for (const event of events) itemsOf(event, items);
    const media = events.length > 0 ? await writeItems(tx, items) : [];
    await webhookRepo.markWebhookEventsProcessed(
      tx,
      events.map((e) => e.id),
    );
    return { events, items: items.messages.length + items.statuses.length, media };
  });
  // Only once committed: the media job must find the row.
  for (const m of media) await enqueueMediaFetch(deps, m.businessId, m.mediaId);
  return { events, items };
}

/** One delivery on its own (by id), when it is still pending and no other processor holds it. */
async function processWebhookEvent(deps: WhatsappDeps, eventId: number): Promise<void> {
  await processClaimed(deps, (tx) => webhookRepo.claimWebhookEvents(tx, 1, eventId));
}

/**
 * The database's own reason when there is one (drizzle wraps it with the whole query and its
 * parameters), kept on the delivery for whoever looks into it: the business's own data.
 */
function reasonOf(err: unknown): string {
  let reason = err instanceof Error ? err.message : String(err);
  for (let e = err; e instanceof Error && e.cause !== undefined; e = e.cause) {
    if (e.cause instanceof Error) reason = e.cause.message;
  }
  return reason;
}

/** What a log line may say of the failure: the SQLSTATE and statement, never a quoted value. */
function loggableReasonOf(err: unknown): string {
  const driver = driverErrorOf(err);
  if (driver && err instanceof Error) return String(describeDatabaseError(err, driver).message);
  return err instanceof Error ? err.name : 'unknown error';
}

/**
 * Takes the due deliveries (oldest first) and processes them; several processors share the queue.
 * One `run()` is one batch; it answers how many deliveries it took, 0 when none was due.
 */
export class WebhookProcessor {
  /** Items per delivery in recent batches: batches of Meta's large deliveries take fewer. */
  private itemsPerEvent = 1;

  private readonly batch: WebhookBatchLimits;

  constructor(
    private readonly deps: WhatsappDeps,
    private readonly logger: Logger,
    batch: Partial<WebhookBatchLimits> = {},
  ) {
    this.batch = { ...WEBHOOK_BATCH, ...batch };
  }

  async run(): Promise<number> {
    const { maxEvents, messageBudget } = this.batch;
    const limit = Math.max(1, Math.min(maxEvents, Math.floor(messageBudget / this.itemsPerEvent)));
    let claimed: number[] = [];
    try {
      const { events, items } = await processClaimed(this.deps, async (tx) => {
        const events = await webhookRepo.claimWebhookEvents(tx, limit);
        claimed = events.map((e) => e.id);
        return events;
      });
      if (events.length > 0) this.itemsPerEvent = Math.max(1, items / events.length);
      return events.length;
    } catch (err) {
      if (claimed.length === 0) throw err;
      // Something in the batch failed: each delivery alone, so only a bad one is held back.
      // Neither the failed query's parameters nor the driver's message: they hold customers' messages.
      this.logger.warn(
        { reason: loggableReasonOf(err), events: claimed.length },
        'webhook batch failed; processing its deliveries one by one',
      );
      for (const id of claimed) await this.runOne(id);
      return claimed.length;
    }
  }

  private async runOne(id: number): Promise<void> {
    try {
      await processWebhookEvent(this.deps, id);
    } catch (err) {
      this.logger.error(
        { reason: loggableReasonOf(err), event_id: id },
        'webhook delivery failed; it will be retried later',
      );
      await webhookRepo.recordWebhookEventFailure(this.deps.db, id, reasonOf(err), WEBHOOK_RETRY);
    }
  }
}
