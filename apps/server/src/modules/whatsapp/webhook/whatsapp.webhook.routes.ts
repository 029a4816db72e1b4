import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZWebhookVerifyQuery, ZWhatsappWebhookDelivery } from '@titan/contracts';
import { z } from 'zod';
import { headerOf, providerWebhook } from '../../../platform/provider-webhook';
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

  // The provider-webhook shape (platform/provider-webhook.ts): the signature covers the raw bytes.
  await providerWebhook(app, {
    path: '/api/whatsapp/webhook/',
    body: 'raw',
    bodyLimit: WEBHOOK_BODY_LIMIT,
    openapi: {
      headers: { 'X-Hub-Signature-256': 'sha256= HMAC of the raw body with the app secret' },
      body: { 'application/json': ZWhatsappWebhookDelivery },
      errors: [400, 403],
    },
    schema: { tags, summary: 'Signed event delivery from Meta', response: { 200: ZEnvelope(z.null()) } },
    verify: (request, raw) => webhook.verifyDelivery(deps, raw, headerOf(request, 'x-hub-signature-256')),
    accept: (delivery) => webhook.acceptWebhook(deps, delivery),
    answer: (reply) => reply.code(200).send({ status: 200, message: 'OK', result: null }),
  });
};
