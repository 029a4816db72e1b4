// Staff writing on WhatsApp: free-form sends inside the 24-hour window (media uploaded first, see
// media/whatsapp.media.ts) and read receipts.
import type { TMessage, TWhatsappSendRequest, TWhatsappWindow } from '@titan/contracts';
import type { Db } from '../../../db/client';
import { AppError } from '../../../platform/errors';
import * as conversationsRepo from '../../conversations';
import { toMessages } from '../../conversations';
import { type InboxScope } from '../../../platform/inbox-scope';
import { ruleFor, WHATSAPP_MEDIA_ERRORS } from '../media/whatsapp.media';
import {
  connectedAccount,
  credentialsOf,
  deliver,
  type Delivery,
  type WhatsappDeps,
} from './whatsapp.outbound';
import * as accountRepo from '../account/whatsapp.account.repository';
import * as mediaRepo from '../media/whatsapp.media.repository';
import * as messagesRepo from './whatsapp.messages.repository';
import { waDigitsOf } from '../wa-id';

export const MARK_READ_QUEUE = 'whatsapp.mark-read';

/** The 24-hour customer-service window: free-form messages only while it is open. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export const WINDOW_CLOSED_MESSAGE =
  'More than 24 hours have passed since the customer last wrote. Send an approved template instead.';

export const WHATSAPP_SEND_ERRORS = {
  notWhatsapp: 'This conversation is not on WhatsApp. Reply to it from the inbox composer instead.',
  noNumber: 'This customer has no WhatsApp number Titan can write to.',
  unknownMedia: 'Upload the file first and send the id it was given.',
  unknownContext: 'Reply to a message of this conversation.',
  audioCaption: 'Audio messages cannot have a caption.',
  ...WHATSAPP_MEDIA_ERRORS,
} as const;

// ---- The window and free-form sends ----

async function findWhatsappConversation(db: Db, scope: InboxScope, conversationId: number) {
  const row = await conversationsRepo.findConversation(db, scope, conversationId);
  if (!row) throw AppError.notFound();
  if (row.conversation.channel !== 'whatsapp')
    throw new AppError('conflict', WHATSAPP_SEND_ERRORS.notWhatsapp);
  return row.conversation;
}

function windowOf(lastCustomerMessageAt: Date | null, now = Date.now()): TWhatsappWindow {
  const expires = lastCustomerMessageAt ? lastCustomerMessageAt.getTime() + WINDOW_MS : null;
  const open = expires !== null && expires > now;
  return {
    open,
    expires_at: open ? new Date(expires).toISOString() : null,
    last_customer_message_at: lastCustomerMessageAt?.toISOString() ?? null,
  };
}

export async function findWindow(
  db: Db,
  scope: InboxScope,
  conversationId: number,
): Promise<TWhatsappWindow> {
  await findWhatsappConversation(db, scope, conversationId);
  return windowOf(await messagesRepo.findLastCustomerMessageAt(db, conversationId));
}

type MediaPart = { id: string; caption?: string; filename?: string };

function mediaOf(input: TWhatsappSendRequest): MediaPart | null {
  switch (input.type) {
    case 'text':
      return null;
    case 'image':
      return input.image;
    case 'audio':
      return input.audio;
    case 'video':
      return input.video;
    case 'document':
      return input.document;
    default: {
      const unreachable: never = input;
      throw new Error(`unknown message type ${String(unreachable)}`);
    }
  }
}

/**
 * A free-form message from staff. Everything Titan can know is checked before Meta is called:
 * the channel, the customer's number, the 24-hour window, the uploaded media and the reply target.
 */
export async function sendMessage(
  deps: WhatsappDeps,
  scope: InboxScope,
  userId: number | null,
  conversationId: number,
  input: TWhatsappSendRequest,
  /** Who asked when not staff; `metaData`: what the stored message carries beside (the AI's sources). */
  origin?: Delivery['origin'] & { metaData?: Record<string, unknown> },
): Promise<TMessage> {
  const businessId = scope.businessId;
  const conversation = await findWhatsappConversation(deps.db, scope, conversationId);
  const externalId = conversation.initiatorId
    ? await messagesRepo.findCustomerExternalId(deps.db, businessId, conversation.initiatorId)
    : null;
  const digits = waDigitsOf(externalId);
  const recipient = digits && digits.length >= 5 && digits.length <= 20 ? digits : null;
  if (!recipient) throw new AppError('conflict', WHATSAPP_SEND_ERRORS.noNumber);

  const errors: Record<string, string[]> = {};
  const part = mediaOf(input);
  // Only a file the sender may see: sending someone else's media must not make it theirs to fetch.
  const media = part ? await mediaRepo.findVisibleMedia(deps.db, scope, userId, part.id) : null;
  if (part && (!media || media.direction !== 'outbound' || ruleFor(media.mimeType)?.type !== input.type)) {
    errors[`${input.type}.id`] = [WHATSAPP_SEND_ERRORS.unknownMedia];
  }
  if (input.type === 'audio' && input.audio.caption) {
    errors['audio.caption'] = [WHATSAPP_SEND_ERRORS.audioCaption];
  }
  if (input.context) {
    const target = await conversationsRepo.findWaMessage(deps.db, businessId, input.context.message_id);
    if (!target || target.conversationId !== conversationId) {
      errors['context.message_id'] = [WHATSAPP_SEND_ERRORS.unknownContext];
    }
  }
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  // Checked here, not left to Meta: outside the window it accepts the send and fails it later.
  if (!windowOf(await messagesRepo.findLastCustomerMessageAt(deps.db, conversationId)).open)
    throw new AppError('conflict', WINDOW_CLOSED_MESSAGE);

  const account = await connectedAccount(deps, businessId);
  const payload: { type: string } & Record<string, unknown> =
    input.type === 'text'
      ? { type: 'text', text: input.text }
      : {
          type: input.type,
          // A document without a name reaches the customer as "Untitled": keep the uploaded one.
          [input.type]: stripEmpty(
            input.type === 'document'
              ? { ...part!, filename: part!.filename || media!.fileName || undefined }
              : part!,
          ),
        };
  if (input.context) payload.context = { message_id: input.context.message_id };
  // What the list shows, as for a customer's message of the same type (see summarize).
  const content =
    input.type === 'text'
      ? input.text.body
      : part!.caption ||
        (input.type === 'document' ? part!.filename || media!.fileName : null) ||
        `[${input.type}]`;
  const row = await deliver(deps, account, {
    businessId,
    conversationId,
    recipient,
    senderType: origin?.cause === 'agent' ? 'agent' : origin?.cause === 'system' ? 'system' : 'staff',
    senderId: userId,
    ...(origin ? { origin: { ...origin, metaData: undefined } as Delivery['origin'] } : {}),
    payload,
    content,
    messageType: input.type === 'text' ? 'text' : 'file',
    ...(media || origin?.metaData
      ? {
          extraMeta: {
            ...origin?.metaData,
            ...(media
              ? {
                  file_name: part!.filename || media.fileName,
                  mime_type: media.mimeType,
                  size: media.fileSize,
                }
              : {}),
          },
        }
      : {}),
  });
  return (await toMessages(deps, businessId, [row]))[0]!;
}

function stripEmpty(part: MediaPart): MediaPart {
  return Object.fromEntries(Object.entries(part).filter(([, v]) => v !== undefined && v !== '')) as MediaPart;
}

// ---- Read receipts ----

/**
 * Staff read a conversation: tell the customer, from a job, by marking their newest message read.
 * Best effort: the read state is already saved and a receipt is only a courtesy.
 */
export async function requestMarkRead(
  deps: WhatsappDeps,
  conversation: { businessId: number; id: number; channel: string },
): Promise<void> {
  if (conversation.channel !== 'whatsapp') return;
  try {
    await deps.jobs.send(MARK_READ_QUEUE, {
      business_id: conversation.businessId,
      conversation_id: conversation.id,
    });
  } catch {
    // The receipt is optional; a queue hiccup must not fail marking the conversation read.
  }
}

/** The job: nothing to do without a connected number or a customer message. */
export async function markConversationRead(
  deps: WhatsappDeps,
  businessId: number,
  conversationId: number,
): Promise<void> {
  const account = await accountRepo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) return;
  const wamid = await messagesRepo.findNewestCustomerWamid(deps.db, businessId, conversationId);
  if (!wamid) return;
  await deps.graph.markRead(credentialsOf(deps, account), wamid);
}
