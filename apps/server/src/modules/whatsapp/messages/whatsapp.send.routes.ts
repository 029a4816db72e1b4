// Sending: free-form messages and the 24-hour window (media routes: media/whatsapp.media.routes.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZConversationIdParams,
  ZEnvelope,
  ZMessage,
  ZWhatsappSendRequest,
  ZWhatsappWindow,
} from '@titan/contracts';
import { created, ok } from '../../../platform/http';
import { actorIdOf } from '../../../platform/request-context';
import { scopeOf } from '../../../platform/inbox-scope';
import type { WhatsappDeps } from './whatsapp.outbound';
import * as send from './whatsapp.send';

const tags = ['whatsapp'];
const config = { business: true, permission: 'inbox.use' } as const;

export const whatsappSendRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async (app, { deps }) => {
  app.post(
    '/api/whatsapp/conversations/:id/messages/',
    {
      config: { ...config, openapi: { errors: [402, 409, 503] } },
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
};
