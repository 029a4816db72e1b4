// Multipart uploads: registered in each plugin that has an upload route, not for the whole app
// (the plugin adds hooks to every request of its scope); each route reads one bounded file part.
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { OWN_CHANNEL_FILE_LIMIT_BYTES } from '@titan/contracts';
import { nulError } from '../../platform/bad-input';

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    // One byte over the limit is enough to know the file is too large.
    limits: { fileSize: OWN_CHANNEL_FILE_LIMIT_BYTES + 1, files: 1, fields: 10, fieldSize: 1000 },
    throwFileSizeLimit: false,
  });
}

/**
 * Reads one multipart upload: the `file` part (bounded) and the small text fields. A NUL in a part's
 * name, value or file name is refused with a 400 naming the part, once the body is read.
 */
export function readUpload(parts: AsyncIterableIterator<Multipart>) {
  return readParts(parts, async (part) => ({ fileName: part.filename, bytes: await part.toBuffer() }));
}

/**
 * Reads one multipart upload as `readUpload` does, but the `file` part goes to `take` as it
 * arrives (a large file streamed into storage, never held whole), with the fields sent before it.
 */
export async function readParts<T>(
  parts: AsyncIterableIterator<Multipart>,
  take: (part: MultipartFile, fieldsBefore: Record<string, string>) => Promise<T>,
  /** The file part's name (default `file`); `many`: every part of that name goes to `take`. */
  options: { fieldName?: string; many?: boolean } = {},
) {
  const fileField = options.fieldName ?? 'file';
  const fields: Record<string, string> = {};
  let file: T | null = null;
  const withNul: string[] = [];
  for await (const part of parts) {
    const nulIn =
      part.fieldname.includes('\u0000') ||
      (part.type === 'file' ? part.filename.includes('\u0000') : String(part.value).includes('\u0000'));
    if (nulIn) {
      withNul.push(part.fieldname);
      if (part.type === 'file') part.file.resume();
      continue;
    }
    if (part.type === 'file') {
      if (part.fieldname !== fileField || (file && !options.many)) {
        part.file.resume();
        continue;
      }
      file = await take(part, { ...fields });
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (withNul.length > 0) throw nulError(withNul);
  return { fields, file };
}
