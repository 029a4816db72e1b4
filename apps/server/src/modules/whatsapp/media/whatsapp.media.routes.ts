// WhatsApp media: uploading a file to send, and the bytes of any media the viewer may see.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZFilePart, ZWhatsappMediaParams, ZWhatsappMediaUpload } from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import { created } from '../../../platform/http';
import { actorIdOf, businessOf } from '../../../platform/request-context';
import { scopeOf } from '../../../platform/inbox-scope';
import { readUpload, registerMultipart } from '../../files';
import type { WhatsappDeps } from '../messages/whatsapp.outbound';
import * as media from './whatsapp.media';

const tags = ['whatsapp'];
const config = { business: true, permission: 'inbox.use' } as const;
/** Media never change once stored: the browser may keep them for a day. */
const MEDIA_MAX_AGE_SECONDS = 24 * 60 * 60;

export const whatsappMediaRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async (app, { deps }) => {
  await registerMultipart(app);
  app.post(
    '/api/whatsapp/media/',
    {
      config: {
        ...config,
        rateLimit: { max: 120, timeWindow: '1 minute' },
        openapi: { body: { 'multipart/form-data': ZFilePart }, errors: [413] },
      },
      bodyLimit: media.WHATSAPP_UPLOAD_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload a file to send on WhatsApp (multipart: file)',
        consumes: ['multipart/form-data'],
        response: { 201: ZEnvelope(ZWhatsappMediaUpload) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw AppError.fields({ file: [media.WHATSAPP_MEDIA_ERRORS.multipartOnly] });
      }
      // Documents may be 100 MB: one byte over the largest limit tells a file is too large.
      const { file } = await readUpload(
        request.parts({ limits: { fileSize: media.WHATSAPP_UPLOAD_LIMIT_BYTES + 1, files: 1 } }),
      );
      if (!file) throw AppError.fields({ file: [media.WHATSAPP_MEDIA_ERRORS.noFile] });
      return created(reply, await media.uploadMedia(deps, businessOf(request).id, actorIdOf(request), file));
    },
  );

  app.get(
    '/api/whatsapp/media/:id/',
    {
      config: {
        ...config,
        openapi: {
          answers: { 200: { description: 'The media’s bytes', content: 'application/octet-stream' } },
        },
      },
      schema: { tags, summary: 'The bytes of a WhatsApp media file', params: ZWhatsappMediaParams },
    },
    async (request, reply) => {
      const found = await media.findMediaBytes(
        deps,
        await scopeOf(deps.db, request),
        actorIdOf(request),
        request.params.id,
      );
      return reply
        .header('content-type', found.contentType)
        .header('content-length', String(found.bytes.length))
        .header(
          'content-disposition',
          `${found.disposition}; filename*=UTF-8''${encodeURIComponent(found.fileName)}`,
        )
        .header('cache-control', `private, max-age=${MEDIA_MAX_AGE_SECONDS}`)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(found.bytes);
    },
  );
};
