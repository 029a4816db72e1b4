import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FILE_TOO_LARGE_MESSAGE,
  OWN_CHANNEL_FILE_LIMIT_BYTES,
  ZEnvelope,
  ZUploadPrefix,
  ZUploadResult,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { created } from '../../platform/http';
import { LocalStorage } from '../../platform/storage';
import { businessOf } from '../../platform/request-context';
import { type InboxScope, scopeOf } from '../../platform/inbox-scope';
import * as files from './files.service';
import { readUpload, registerMultipart } from './multipart';

/**
 * The stored key of a `/files/` path. The router has decoded the path once; keys are signed in
 * their encoded form (`storage.urlFor` encodes each segment), so it is decoded again, and a
 * second encoding that is not valid (`%E0%A4%A`, from `%25E0%25A4%25A`) answers 400.
 */
function keyOf(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw AppError.fields({ path: ['The file path is not validly percent-encoded.'] });
  }
}

const ZUploadFields = z.object({
  prefix: ZUploadPrefix,
  conversation_id: z.coerce.number().int().positive().optional(),
});

/**
 * What the upload route asks of the conversations module, handed in by the composition root
 * (app.ts): conversations attach stored files, so files cannot import it.
 */
export type FileRoutePorts = {
  /** The conversation as the viewer may see it; throws not found otherwise (404). */
  findConversation: (db: Db, scope: InboxScope, id: number) => Promise<unknown>;
};

export const fileRoutes: FastifyPluginAsyncZod<{ deps: files.FilesDeps; ports: FileRoutePorts }> = async (
  app,
  { deps, ports },
) => {
  await registerMultipart(app);
  app.post(
    '/api/upload/',
    {
      config: {
        business: true,
        permission: 'inbox.use',
        rateLimit: { max: 120, timeWindow: '1 minute' },
        openapi: {
          body: { 'multipart/form-data': ZUploadFields.extend({ file: z.file() }) },
          errors: [404, 413],
        },
      },
      bodyLimit: OWN_CHANNEL_FILE_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags: ['files'],
        summary: 'Upload a file (multipart: file, prefix, conversation_id for chat media)',
        consumes: ['multipart/form-data'],
        response: { 201: ZEnvelope(ZUploadResult) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw AppError.fields({ file: ['Send the file as multipart/form-data.'] });
      }
      const { fields, file } = await readUpload(request.parts());
      const parsed = ZUploadFields.safeParse(fields);
      const errors: Record<string, string[]> = {};
      if (!parsed.success) {
        for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
      }
      if (!file) errors.file = ['No file was submitted.'];
      if (Object.keys(errors).length > 0 || !parsed.success || !file) throw AppError.fields(errors);
      if (file.bytes.length > OWN_CHANNEL_FILE_LIMIT_BYTES) {
        throw new AppError('payload_too_large', FILE_TOO_LARGE_MESSAGE, { file: [FILE_TOO_LARGE_MESSAGE] });
      }
      const business = businessOf(request);
      // Chat media is filed under a conversation of this business only (404 otherwise).
      if (parsed.data.conversation_id) {
        await ports.findConversation(deps.db, await scopeOf(deps.db, request), parsed.data.conversation_id);
      }
      const folder = files.folderFor(parsed.data.prefix, business.id, parsed.data.conversation_id);
      return created(
        reply,
        await files.storeUpload(deps, business.id, folder, file, OWN_CHANNEL_FILE_LIMIT_BYTES),
      );
    },
  );

  // Local storage serves its signed URLs here; S3 URLs point at the bucket instead.
  if (deps.storage instanceof LocalStorage) {
    const storage = deps.storage;
    app.get(
      '/files/*',
      {
        config: {
          public: true,
          openapi: {
            wildcard: 'key',
            answers: { 200: { description: 'The file’s bytes', content: 'application/octet-stream' } },
            errors: [403],
          },
        },
        schema: {
          tags: ['files'],
          summary: 'A stored file, through a signed expiring URL',
          querystring: z.object({ exp: z.coerce.number().int(), sig: z.string().min(1).max(200) }),
        },
      },
      async (request, reply) => {
        const key = keyOf((request.params as { '*': string })['*']);
        const { exp, sig } = request.query;
        if (!storage.verify(key, exp, sig))
          throw new AppError('forbidden', 'This link is invalid or has expired.');
        const meta = await files.findFile(deps.db, key);
        const bytes = meta ? await storage.get(key) : null;
        if (!meta || !bytes) throw AppError.notFound();
        const inline = /^(image|video|audio)\//.test(meta.mimeType) || meta.mimeType === 'application/pdf';
        const maxAge = Math.max(0, exp - Math.floor(Date.now() / 1000));
        return reply
          .header('content-type', meta.mimeType)
          .header('content-length', String(bytes.length))
          .header(
            'content-disposition',
            `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(meta.fileName)}`,
          )
          .header('cache-control', `private, max-age=${maxAge}`)
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(bytes);
      },
    );
  }
};
