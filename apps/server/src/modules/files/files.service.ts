// Uploads: the type comes from the bytes (never the client), the key from the server, and
// every file is recorded with its owning business.
import { fileTypeFromBuffer } from 'file-type';
import { FILE_TOO_LARGE_MESSAGE, type TUploadPrefix, type TUploadResult } from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { makeKey, type Storage } from '../../platform/storage';
import * as repo from './files.repository';

export type FilesDeps = { db: Db; storage: Storage };

const TEXT_TYPES: Record<string, string> = {
  csv: 'text/csv',
  txt: 'text/plain',
  tsv: 'text/tab-separated-values',
};

/** What the bytes are. Text that is not a known binary format is only ever plain text or CSV. */
export async function sniffMimeType(bytes: Buffer, fileName: string): Promise<string> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return detected.mime;
  const ext = fileName.split('.').pop()?.toLowerCase() ?? '';
  const looksLikeText = !bytes.subarray(0, 8192).includes(0);
  if (looksLikeText) return TEXT_TYPES[ext] ?? 'text/plain';
  return 'application/octet-stream';
}

/**
 * WhatsApp media files: public/whatsapp_media/{id or default} (spec section 3): a file kept for a
 * WhatsApp media id goes under that id, any other (an upload without a media id) under default.
 * The key's uuid keeps files apart and stored_files their business.
 */
export function whatsappMediaFolder(mediaId?: string): string {
  const safe = mediaId?.replace(/[^\w.-]/g, '_');
  return `public/whatsapp_media/${safe || 'default'}`;
}

export function folderFor(prefix: TUploadPrefix, businessId: number, conversationId?: number): string {
  if (prefix === 'public/whatsapp_media') return whatsappMediaFolder();
  if (prefix === 'public/public_chat_media') {
    if (!conversationId)
      throw AppError.fields({ conversation_id: ['This field is required for chat media.'] });
    return `${prefix}/${businessId}/${conversationId}`;
  }
  return `${prefix}/${businessId}`;
}

export async function storeUpload(
  deps: FilesDeps,
  businessId: number | null,
  folder: string,
  file: { fileName: string; bytes: Buffer },
  maxBytes: number,
): Promise<TUploadResult> {
  const pending = await putFileBytes(deps, businessId, folder, file, maxBytes);
  const row = await repo.insertStoredFile(deps.db, pending);
  return {
    presigned_url: await deps.storage.signedUrl(row.key, row.fileName),
    key: row.key,
    size: row.size,
    mime_type: row.mimeType,
    file_name: row.fileName,
  };
}

/** A file whose bytes are stored and whose row recordStoredFiles writes. */
export type PendingFile = {
  key: string;
  businessId: number | null;
  fileName: string;
  mimeType: string;
  size: number;
};

/**
 * The first half of storeUpload: checks the file, stores its bytes and answers the row to record.
 * For a caller that records the row in its own transaction (inbound mail: the attachment's row with
 * its message, in one commit, and none for a mail that is not stored).
 */
export async function putFileBytes(
  deps: Pick<FilesDeps, 'storage'>,
  businessId: number | null,
  folder: string,
  file: { fileName: string; bytes: Buffer },
  maxBytes: number,
): Promise<PendingFile> {
  if (file.bytes.length > maxBytes)
    throw new AppError('payload_too_large', FILE_TOO_LARGE_MESSAGE, { file: [FILE_TOO_LARGE_MESSAGE] });
  if (file.bytes.length === 0) throw AppError.fields({ file: ['The submitted file is empty.'] });
  const mimeType = await sniffMimeType(file.bytes, file.fileName);
  const key = makeKey(folder, file.fileName);
  await deps.storage.put(key, file.bytes, mimeType);
  return {
    key,
    businessId,
    fileName: file.fileName.slice(0, 255) || 'file',
    mimeType,
    size: file.bytes.length,
  };
}

/** The second half: the rows of files putFileBytes stored, in one statement on `db` (or a transaction). */
export async function recordStoredFiles(db: Queryable, files: PendingFile[]): Promise<void> {
  await repo.insertStoredFiles(db, files);
}

export async function findBusinessFile(db: Db, businessId: number, key: string) {
  return repo.findBusinessFile(db, businessId, key);
}

export async function findFile(db: Db, key: string) {
  return repo.findStoredFile(db, key);
}

export async function takeVisitorUploadAllowance(
  db: Db,
  businessId: number,
  bytes: number,
  limits: { maxFiles: number; maxBytes: number },
): Promise<boolean> {
  return repo.takeVisitorUploadAllowance(db, businessId, bytes, limits);
}

/**
 * One retention batch of chat files nobody sent: rows first (then no message can take them),
 * then the bytes. Keys whose bytes could not be removed are answered, for the log.
 */
export async function deleteUnsentChatMedia(
  deps: FilesDeps,
  cutoff: Date,
  limit: number,
): Promise<{ deleted: number; failed: string[] }> {
  const keys = await repo.deleteUnsentChatMedia(deps.db, cutoff, limit);
  const failed: string[] = [];
  for (const key of keys) {
    await deps.storage.delete(key).catch(() => failed.push(key));
  }
  return { deleted: keys.length, failed };
}

export async function pruneVisitorUploadDays(db: Db, before: string): Promise<void> {
  await repo.pruneVisitorUploadDays(db, before);
}
