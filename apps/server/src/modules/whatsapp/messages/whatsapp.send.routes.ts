// Sending: free-form messages, the 24-hour window, media upload and download, mark-as-read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZConversationIdParams,
  ZEnvelope,
  ZMessage,
  ZWhatsappMediaParams,
  ZWhatsappMediaUpload,
  ZWhatsappSendRequest,
  ZWhatsappWindow,
} from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import { created, ok } from '../../../platform/http';
import { actorIdOf, businessOf } from '../../auth/auth.guard';
import { scopeOf } from '../../conversations/inbox-scope';
import { readUpload, registerMultipart } from '../../files/multipart';
import type { WhatsappDeps } from './whatsapp.outbound';
import * as send from './whatsapp.send';

const tags = ['whatsapp'];
const config = { business: true, permission: 'inbox.use' } as const;
/** Media never change once stored: the browser may keep them for a day. */
const MEDIA_MAX_AGE_SECONDS = 24 * 60 * 60;

export const whatsappSendRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async (app, { deps }) => {
  await registerMultipart(app);
  app.post(
    '/api/whatsapp/conversations/:id/messages/',
    {
      config,
      schema: {
        tags,
        summary: 'Send a free-form WhatsApp message (text or uploaded media) in the 24-hour window',
        params: ZConversationIdParams,
        body: ZWhatsappSendRequest,
        response: { 201: ZEnvelope(ZMessage) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await send.sendMessage(
          deps,
          await scopeOf(deps.db, request),
          actorIdOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );

  app.get(
    '/api/whatsapp/conversations/:id/window/',
    {
      config,
      schema: { tags, params: ZConversationIdParams, response: { 200: ZEnvelope(ZWhatsappWindow) } },
    },
    async (request) => ok(await send.findWindow(deps.db, await scopeOf(deps.db, request), request.params.id)),
  );

  app.post(
    '/api/whatsapp/media/',
    {
      config: { ...config, rateLimit: { max: 120, timeWindow: '1 minute' } },
      bodyLimit: send.WHATSAPP_UPLOAD_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload a file to send on WhatsApp (multipart: file)',
        consumes: ['multipart/form-data'],
        response: { 201: ZEnvelope(ZWhatsappMediaUpload) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw AppError.fields({ file: [send.WHATSAPP_SEND_MESSAGES.multipartOnly] });
      }
      // Documents may be 100 MB: one byte over the largest limit tells a file is too large.
      const { file } = await readUpload(
        request.parts({ limits: { fileSize: send.WHATSAPP_UPLOAD_LIMIT_BYTES + 1, files: 1 } }),
      );
      if (!file) throw AppError.fields({ file: [send.WHATSAPP_SEND_MESSAGES.noFile] });
      return created(reply, await send.uploadMedia(deps, businessOf(request).id, actorIdOf(request), file));
    },
  );

  app.get(
    '/api/whatsapp/media/:id/',
    {
      config,
      schema: { tags, summary: 'The bytes of a WhatsApp media file', params: ZWhatsappMediaParams },
    },
    async (request, reply) => {
      const media = await send.findMediaBytes(
        deps,
        await scopeOf(deps.db, request),
        actorIdOf(request),
        request.params.id,
      );
      return reply
        .header('content-type', media.contentType)
        .header('content-length', String(media.bytes.length))
        .header(
          'content-disposition',
          `${media.disposition}; filename*=UTF-8''${encodeURIComponent(media.fileName)}`,
        )
        .header('cache-control', `private, max-age=${MEDIA_MAX_AGE_SECONDS}`)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(media.bytes);
    },
  );
};
