import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZWebhookVerifyQuery, ZWhatsappWebhookDelivery } from '@titan/contracts';
import { z } from 'zod';
import * as webhook from './whatsapp.webhook.service';

const tags = ['whatsapp'];
/** Meta sends up to 3 MB per delivery. */
const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

export const whatsappWebhookRoutes: FastifyPluginAsyncZod<{ deps: webhook.WhatsappDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/api/whatsapp/webhook/',
    {
      config: {
        public: true,
        openapi: {
          answers: { 200: { description: 'The challenge, echoed', content: 'text/plain' } },
          errors: [403],
        },
      },
      schema: { tags, summary: "Meta's verification handshake", querystring: ZWebhookVerifyQuery },
    },
    async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(await webhook.verifySubscription(deps.db, request.query)),
  );

  // The signature covers the raw bytes, so this scope keeps JSON bodies as they arrived.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    scope.post(
      '/api/whatsapp/webhook/',
      {
        config: {
          public: true,
          openapi: {
            headers: { 'X-Hub-Signature-256': 'sha256= HMAC of the raw body with the app secret' },
            body: { 'application/json': ZWhatsappWebhookDelivery },
            errors: [400, 403],
          },
        },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: { tags, summary: 'Signed event delivery from Meta', response: { 200: ZEnvelope(z.null()) } },
      },
      async (request, reply) => {
        const signature = request.headers['x-hub-signature-256'];
        await webhook.acceptWebhook(
          deps,
          request.body as Buffer,
          typeof signature === 'string' ? signature : undefined,
        );
        return reply.code(200).send({ status: 200, message: 'OK', result: null });
      },
    );
  });
};
