// WhatsApp media: the types and sizes Meta takes, files staff upload to send (sent to Meta and
// kept), customers' files fetched by a job, and the bytes served to the inbox.
import { createHash } from 'node:crypto';
import type { TWhatsappMediaType, TWhatsappMediaUpload } from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import { makeKey } from '../../../platform/storage';
import type { Queryable } from '../../../db/client';
import type { InboxScope } from '../../../platform/inbox-scope';
import { sniffMimeType, whatsappMediaFolder } from '../../files';
import { GraphError } from '../../../channels/whatsapp-cloud/whatsapp-cloud.graph';
import {
  connectedAccount,
  credentialsOf,
  toAppError,
  type WhatsappDeps,
} from '../messages/whatsapp.outbound';
import * as accountRepo from '../account/whatsapp.account.repository';
import * as mediaRepo from './whatsapp.media.repository';

export const MEDIA_QUEUE = 'whatsapp.media';

/** What the media routes and jobs answer (also spread into WHATSAPP_SEND_ERRORS). */
export const WHATSAPP_MEDIA_ERRORS = {
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

export type MediaRule = { type: TWhatsappMediaType; label: string; limitBytes: number; mimeTypes: string[] };

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

export function ruleFor(mimeType: string): MediaRule | null {
  const base = mimeType.split(';')[0]!.trim().toLowerCase();
  return WHATSAPP_MEDIA_RULES.find((r) => r.mimeTypes.includes(base)) ?? null;
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
  if (file.bytes.length === 0) throw AppError.fields({ file: [WHATSAPP_MEDIA_ERRORS.emptyFile] });
  const mimeType = whatsappMimeOf(await sniffMimeType(file.bytes, file.fileName), file.fileName);
  const rule = mimeType ? ruleFor(mimeType) : null;
  if (!mimeType || !rule) {
    throw AppError.fields(
      { file: [WHATSAPP_MEDIA_ERRORS.unsupportedFile] },
      WHATSAPP_MEDIA_ERRORS.unsupportedFile,
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
  await mediaRepo.insertMedia(deps.db, {
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
  await mediaRepo.insertInboundMedia(db, {
    id: part.id,
    businessId,
    direction: 'inbound',
    mimeType: str(part.mime_type) ?? 'application/octet-stream',
    sha256: str(part.sha256),
    fileName: str(part.filename)?.slice(0, 240) ?? null,
  });
  const row = await mediaRepo.findBusinessMedia(db, businessId, part.id);
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
    const holders = await mediaRepo.findMediaBusinesses(deps.db, job.media_id);
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
): Promise<mediaRepo.WhatsappMediaRow | null> {
  const media = await mediaRepo.findBusinessMedia(deps.db, businessId, mediaId);
  if (!media || media.storageKey) return media;
  const account = await accountRepo.findAccountByBusiness(deps.db, businessId);
  if (!account || !account.accessTokenSealed) {
    await mediaRepo.recordMediaError(deps.db, businessId, mediaId, 'No WhatsApp number is connected.');
    return media;
  }
  const creds = credentialsOf(deps, account);
  await mediaRepo.countMediaAttempt(deps.db, businessId, mediaId);
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
          throw new Error(WHATSAPP_MEDIA_ERRORS.checksumMismatch);
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
    await mediaRepo.markMediaStored(deps.db, businessId, mediaId, {
      storageKey,
      mimeType,
      fileSize: bytes.length,
    });
    return mediaRepo.findBusinessMedia(deps.db, businessId, mediaId);
  } catch (err) {
    await mediaRepo.recordMediaError(
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
 * Only a media the viewer may see (mediaRepo.findVisibleMedia): one held in a conversation of their
 * scope, or a file uploaded to send that is theirs or not sent yet. Any other media, of this
 * business or another, is not found, so its id is not confirmed to exist.
 */
export async function findMediaBytes(
  deps: WhatsappDeps,
  scope: InboxScope,
  userId: number | null,
  mediaId: string,
): Promise<ServedMedia> {
  let media = await mediaRepo.findVisibleMedia(deps.db, scope, userId, mediaId);
  if (!media) throw AppError.notFound(WHATSAPP_MEDIA_ERRORS.mediaUnavailable);
  if (!media.storageKey) {
    try {
      media = await fetchMedia(deps, media.businessId, mediaId);
    } catch {
      throw AppError.notFound(WHATSAPP_MEDIA_ERRORS.mediaUnavailable);
    }
  }
  const bytes = media?.storageKey ? await deps.storage.get(media.storageKey) : null;
  if (!media || !bytes) throw AppError.notFound(WHATSAPP_MEDIA_ERRORS.mediaUnavailable);
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
