// Multipart uploads: registered in each plugin that has an upload route, not for the whole app
// (the plugin adds hooks to every request of its scope); each route reads one bounded file part.
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { OWN_CHANNEL_FILE_LIMIT_BYTES } from '@titan/contracts';

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    // One byte over the limit is enough to know the file is too large.
    limits: { fileSize: OWN_CHANNEL_FILE_LIMIT_BYTES + 1, files: 1, fields: 10, fieldSize: 1000 },
    throwFileSizeLimit: false,
  });
}

/** Reads one multipart upload: the `file` part (bounded) and the small text fields. */
export async function readUpload(parts: AsyncIterableIterator<Multipart>) {
  const fields: Record<string, string> = {};
  let file: { fileName: string; bytes: Buffer } | null = null;
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const bytes = await part.toBuffer();
      file = { fileName: part.filename, bytes };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file };
}
