// Staff writing on WhatsApp: free-form sends inside the 24-hour window, media uploaded to Meta
// (and kept), customers' media fetched by a job and served to the inbox, and read receipts.
import { createHash } from 'node:crypto';
import type {
  TMessage,
  TWhatsappMediaType,
  TWhatsappMediaUpload,
  TWhatsappSendRequest,
  TWhatsappWindow,
} from '@titan/contracts';
import type { Db } from '../../../db/client';
import { AppError } from '../../../platform/errors';
import { makeKey } from '../../../platform/storage';
import type { Queryable } from '../../auth/auth.repository';
import * as conversationsRepo from '../../conversations/conversations.repository';
import { toMessages, type InboxScope } from '../../conversations/conversations.service';
import { sniffMimeType, whatsappMediaFolder } from '../../files/files.service';
import { GraphError } from '../whatsapp.graph';
import { connectedAccount, credentialsOf, deliver, toAppError, type WhatsappDeps } from './whatsapp.outbound';
import * as repo from '../whatsapp.repository';
import { waDigitsOf } from '../wa-id';

export const MEDIA_QUEUE = 'whatsapp.media';
export const MARK_READ_QUEUE = 'whatsapp.mark-read';

/** The 24-hour customer-service window: free-form messages only while it is open. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export const WINDOW_CLOSED_MESSAGE =
  'More than 24 hours have passed since the customer last wrote. Send an approved template instead.';

export const WHATSAPP_SEND_MESSAGES = {
  notWhatsapp: 'This conversation is not on WhatsApp. Reply to it from the inbox composer instead.',
  noNumber: 'This customer has no WhatsApp number Titan can write to.',
  unknownMedia: 'Upload the file first and send the id it was given.',
  unknownContext: 'Reply to a message of this conversation.',
  audioCaption: 'Audio messages cannot have a caption.',
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  multipartOnly: 'Send the file as multipart/form-data.',
  unsupportedFile:
    'WhatsApp cannot send this type of file. Send a JPEG or PNG image (up to 5 MB), an MP4 or 3GPP video ' +
    '(16 MB), AAC, AMR, MP3, M4A or OGG audio (16 MB), or a PDF, Office, text or CSV document (100 MB).',
  mediaUnavailable: 'Unable to load image, video or document.',
  checksumMismatch: 'The downloaded media does not match the checksum WhatsApp gave.',
} as const;

const MB = 1024 * 1024;

type MediaRule = { type: TWhatsappMediaType; label: string; limitBytes: number; mimeTypes: string[] };

/** Meta's accepted types and size limits per kind of media (stickers are not sent by staff). */
export const WHATSAPP_MEDIA_RULES: readonly MediaRule[] = [
  { type: 'image', label: 'Images', limitBytes: 5 * MB, mimeTypes: ['image/jpeg', 'image/png'] },
  { type: 'video', label: 'Videos', limitBytes: 16 * MB, mimeTypes: ['video/mp4', 'video/3gpp'] },
  {
    type: 'audio',
    label: 'Audio files',
    limitBytes: 16 * MB,
    mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'],
  },
  {
    type: 'document',
    label: 'Documents',
    limitBytes: 100 * MB,
    mimeTypes: [
      'application/pdf',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'text/plain',
      'text/csv',
    ],
  },
];

/** The largest upload any kind allows: the multipart limit of the upload route. */
export const WHATSAPP_UPLOAD_LIMIT_BYTES = Math.max(...WHATSAPP_MEDIA_RULES.map((r) => r.limitBytes));

export const tooLargeMessage = (rule: MediaRule) =>
  `${rule.label} sent on WhatsApp can be at most ${rule.limitBytes / MB} MB.`;

/** Old Office files are all OLE containers to a sniffer: the extension tells them apart. */
const LEGACY_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** A sniffed type in the spelling Meta accepts, or null when WhatsApp takes no such file. */
function whatsappMimeOf(sniffed: string, fileName: string): string | null {
  const base = sniffed.split(';')[0]!.trim().toLowerCase();
  if (base === 'audio/x-m4a') return 'audio/mp4';
  if (base === 'audio/opus') return 'audio/ogg';
  if (base === 'application/x-cfb') {
    return LEGACY_OFFICE[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? null;
  }
  return base;
}

function ruleFor(mimeType: string): MediaRule | null {
  const base = mimeType.split(';')[0]!.trim().toLowerCase();
  return WHATSAPP_MEDIA_RULES.find((r) => r.mimeTypes.includes(base)) ?? null;
}

// ---- The window and free-form sends ----

async function findWhatsappConversation(db: Db, scope: InboxScope, conversationId: number) {
  const row = await conversationsRepo.findConversation(db, scope, conversationId);
  if (!row) throw AppError.notFound();
  if (row.conversation.channel !== 'whatsapp')
    throw new AppError('conflict', WHATSAPP_SEND_MESSAGES.notWhatsapp);
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
  return windowOf(await repo.findLastCustomerMessageAt(db, conversationId));
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
): Promise<TMessage> {
  const businessId = scope.businessId;
  const conversation = await findWhatsappConversation(deps.db, scope, conversationId);
  const externalId = conversation.initiatorId
    ? await repo.findCustomerExternalId(deps.db, businessId, conversation.initiatorId)
    : null;
  const digits = waDigitsOf(externalId);
  const recipient = digits && digits.length >= 5 && digits.length <= 20 ? digits : null;
  if (!recipient) throw new AppError('conflict', WHATSAPP_SEND_MESSAGES.noNumber);

  const errors: Record<string, string[]> = {};
  const part = mediaOf(input);
  // Only a file the sender may see: sending someone else's media must not make it theirs to fetch.
  const media = part ? await repo.findVisibleMedia(deps.db, scope, userId, part.id) : null;
  if (part && (!media || media.direction !== 'outbound' || ruleFor(media.mimeType)?.type !== input.type)) {
    errors[`${input.type}.id`] = [WHATSAPP_SEND_MESSAGES.unknownMedia];
  }
  if (input.type === 'audio' && input.audio.caption) {
    errors['audio.caption'] = [WHATSAPP_SEND_MESSAGES.audioCaption];
  }
  if (input.context) {
    const target = await conversationsRepo.findWaMessage(deps.db, businessId, input.context.message_id);
    if (!target || target.conversationId !== conversationId) {
      errors['context.message_id'] = [WHATSAPP_SEND_MESSAGES.unknownContext];
    }
  }
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  // Checked here, not left to Meta: outside the window it accepts the send and fails it later.
  if (!windowOf(await repo.findLastCustomerMessageAt(deps.db, conversationId)).open)
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
    senderType: 'staff',
    senderId: userId,
    payload,
    content,
    messageType: input.type === 'text' ? 'text' : 'file',
    ...(media
      ? {
          extraMeta: {
            file_name: part!.filename || media.fileName,
            mime_type: media.mimeType,
            size: media.fileSize,
          },
        }
      : {}),
  });
  return (await toMessages(deps, businessId, [row]))[0]!;
}

function stripEmpty(part: MediaPart): MediaPart {
  return Object.fromEntries(Object.entries(part).filter(([, v]) => v !== undefined && v !== '')) as MediaPart;
}

// ---- Media: staff uploads ----

/**
 * A file staff will send: its type comes from the bytes, must be one WhatsApp takes and fit that
 * kind's limit; it goes to Meta (for the id to send) and a copy is kept to show in the inbox.
 */
export async function uploadMedia(
  deps: WhatsappDeps,
  businessId: number,
  uploadedBy: number | null,
  file: { fileName: string; bytes: Buffer },
): Promise<TWhatsappMediaUpload> {
  if (file.bytes.length === 0) throw AppError.fields({ file: [WHATSAPP_SEND_MESSAGES.emptyFile] });
  const mimeType = whatsappMimeOf(await sniffMimeType(file.bytes, file.fileName), file.fileName);
  const rule = mimeType ? ruleFor(mimeType) : null;
  if (!mimeType || !rule) {
    throw AppError.fields(
      { file: [WHATSAPP_SEND_MESSAGES.unsupportedFile] },
      WHATSAPP_SEND_MESSAGES.unsupportedFile,
    );
  }
  if (file.bytes.length > rule.limitBytes) {
    const message = tooLargeMessage(rule);
    throw new AppError('payload_too_large', message, { file: [message] });
  }
  const fileName = file.fileName.slice(0, 240) || `${rule.type}.${mimeType.split('/')[1]}`;
  const account = await connectedAccount(deps, businessId);
  let id: string;
  try {
    // Meta lists no CSV type: a CSV is plain text to WhatsApp and keeps its name.
    const graphMimeType = mimeType === 'text/csv' ? 'text/plain' : mimeType;
    id = await deps.graph.uploadMedia(account.creds, {
      bytes: file.bytes,
      mimeType: graphMimeType,
      fileName,
    });
  } catch (err) {
    if (err instanceof GraphError) throw toAppError(err);
    throw err;
  }
  const storageKey = makeKey(whatsappMediaFolder(id), fileName);
  await deps.storage.put(storageKey, file.bytes, mimeType);
  await repo.insertMedia(deps.db, {
    id,
    businessId,
    direction: 'outbound',
    mimeType,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    fileSize: file.bytes.length,
    fileName,
    storageKey,
    storedAt: new Date(),
    uploadedBy,
  });
  return { id, mime_type: mimeType, size: file.bytes.length, file_name: fileName, type: rule.type };
}

// ---- Media: customers' files ----

const INBOUND_MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** A customer's message carrying a file (stored with message_type 'file'). */
export const isInboundMedia = (message: Record<string, unknown>) =>
  typeof message.type === 'string' && INBOUND_MEDIA_TYPES.has(message.type);

/**
 * Records the media of a just-stored inbound message (inside its transaction) and answers its id
 * when the bytes still have to be fetched; the caller enqueues the fetch once committed.
 */
export async function recordInboundMedia(
  db: Queryable,
  businessId: number,
  message: Record<string, unknown>,
): Promise<string | null> {
  if (!isInboundMedia(message)) return null;
  const type = message.type as string;
  const part = (message[type] ?? {}) as Record<string, unknown>;
  if (typeof part.id !== 'string' || part.id === '') return null;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  await repo.insertInboundMedia(db, {
    id: part.id,
    businessId,
    direction: 'inbound',
    mimeType: str(part.mime_type) ?? 'application/octet-stream',
    sha256: str(part.sha256),
    fileName: str(part.filename)?.slice(0, 240) ?? null,
  });
  const row = await repo.findBusinessMedia(db, businessId, part.id);
  return row && !row.storageKey ? row.id : null;
}

/** What a media fetch job carries; jobs queued before media were keyed by business lack business_id. */
export type MediaFetchJob = { business_id?: number; media_id: string };

/** No singleton key: a fetch that failed must never stand in the way of the next one. */
export async function enqueueMediaFetch(
  deps: WhatsappDeps,
  businessId: number,
  mediaId: string,
): Promise<void> {
  const job: MediaFetchJob = { business_id: businessId, media_id: mediaId };
  await deps.jobs.send(MEDIA_QUEUE, job);
}

/**
 * The media job's work. A job queued before media were keyed by business names the id alone: it is
 * fetched when exactly one business holds that id, and left alone otherwise.
 */
export async function runMediaFetch(deps: WhatsappDeps, job: MediaFetchJob): Promise<void> {
  let businessId = job.business_id;
  if (businessId === undefined) {
    const holders = await repo.findMediaBusinesses(deps.db, job.media_id);
    if (holders.length !== 1) return;
    businessId = holders[0]!;
  }
  await fetchMedia(deps, businessId, job.media_id);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fresh download URLs a fetch tries before it gives up (they expire after about 5 minutes). */
const MEDIA_URL_TRIES = 3;

function sha256Matches(bytes: Buffer, expected: string): boolean {
  const digest = createHash('sha256').update(bytes).digest();
  // Meta documents a checksum without its encoding: both hex and base64 are seen in the wild.
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}

/**
 * One fetch of a media file from Meta: a fresh URL, its bytes (a new URL again when one expired),
 * the checksum, then the bytes kept under public/whatsapp_media/{id}. Counted and its error kept.
 * The job and the media route both fetch through here.
 */
export async function fetchMedia(
  deps: WhatsappDeps,
  businessId: number,
  mediaId: string,
): Promise<repo.WhatsappMediaRow | null> {
  const media = await repo.findBusinessMedia(deps.db, businessId, mediaId);
  if (!media || media.storageKey) return media;
  const account = await repo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) {
    await repo.recordMediaError(deps.db, businessId, mediaId, 'No WhatsApp number is connected.');
    return media;
  }
  const creds = credentialsOf(deps, account);
  await repo.countMediaAttempt(deps.db, businessId, mediaId);
  try {
    let bytes: Buffer | null = null;
    let mimeType = media.mimeType;
    for (let attempt = 1; !bytes; attempt++) {
      const info = await deps.graph.getMedia(creds, mediaId);
      if (mimeType === 'application/octet-stream') mimeType = info.mime_type;
      try {
        bytes = await deps.graph.download(creds, info.url);
        const expected = media.sha256 ?? info.sha256;
        if (expected && !sha256Matches(bytes, expected))
          throw new Error(WHATSAPP_SEND_MESSAGES.checksumMismatch);
      } catch (err) {
        const expired = err instanceof GraphError && err.httpStatus === 404;
        const transient = err instanceof GraphError && err.retryable;
        if (!(expired || transient) || attempt >= MEDIA_URL_TRIES) throw err;
        if (!expired) await sleep(deps.graph.retryDelaysMs[attempt - 1] ?? 0);
      }
    }
    const fileName =
      media.fileName ?? `${mediaId}.${mimeType.split(';')[0]!.split('/')[1]?.replace(/\W/g, '') || 'bin'}`;
    const storageKey = makeKey(whatsappMediaFolder(mediaId), fileName);
    await deps.storage.put(storageKey, bytes, mimeType);
    await repo.markMediaStored(deps.db, businessId, mediaId, {
      storageKey,
      mimeType,
      fileSize: bytes.length,
    });
    return repo.findBusinessMedia(deps.db, businessId, mediaId);
  } catch (err) {
    await repo.recordMediaError(
      deps.db,
      businessId,
      mediaId,
      err instanceof Error ? err.message : String(err),
    );
    throw err;
  }
}

/** Types the browser may render from our origin; anything else is served as a download. */
const INLINE_TYPES = /^(image\/(jpeg|png|webp|gif)|video\/(mp4|3gpp)|audio\/[\w.+-]+|application\/pdf)$/;

export type ServedMedia = {
  bytes: Buffer;
  contentType: string;
  disposition: 'inline' | 'attachment';
  fileName: string;
};

/**
 * A media file for the inbox: the kept copy, or (not fetched yet) one fetch from Meta right now.
 * Only a media the viewer may see (repo.findVisibleMedia): one held in a conversation of their
 * scope, or a file uploaded to send that is theirs or not sent yet. Any other media, of this
 * business or another, is not found, so its id is not confirmed to exist.
 */
export async function findMediaBytes(
  deps: WhatsappDeps,
  scope: InboxScope,
  userId: number | null,
  mediaId: string,
): Promise<ServedMedia> {
  let media = await repo.findVisibleMedia(deps.db, scope, userId, mediaId);
  if (!media) throw AppError.notFound(WHATSAPP_SEND_MESSAGES.mediaUnavailable);
  if (!media.storageKey) {
    try {
      media = await fetchMedia(deps, media.businessId, mediaId);
    } catch {
      throw AppError.notFound(WHATSAPP_SEND_MESSAGES.mediaUnavailable);
    }
  }
  const bytes = media?.storageKey ? await deps.storage.get(media.storageKey) : null;
  if (!media || !bytes) throw AppError.notFound(WHATSAPP_SEND_MESSAGES.mediaUnavailable);
  const base = media.mimeType.split(';')[0]!.trim().toLowerCase();
  const renderable = INLINE_TYPES.test(base);
  return {
    bytes,
    contentType: renderable ? media.mimeType : safeDownloadType(base),
    disposition: renderable || base === 'text/plain' || base === 'text/csv' ? 'inline' : 'attachment',
    fileName: media.fileName ?? mediaId,
  };
}

/** Office and text documents keep their type; nothing a browser would run is answered as itself. */
function safeDownloadType(base: string): string {
  const documentTypes = WHATSAPP_MEDIA_RULES.find((r) => r.type === 'document')!.mimeTypes;
  if (base === 'text/plain' || base === 'text/csv') return `${base}; charset=utf-8`;
  return documentTypes.includes(base) ? base : 'application/octet-stream';
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
  const account = await repo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) return;
  const wamid = await repo.findNewestCustomerWamid(deps.db, businessId, conversationId);
  if (!wamid) return;
  await deps.graph.markRead(credentialsOf(deps, account), wamid);
}
