// The development outbox (api.md): registered only outside production with no SMTP_URL.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEnvelope, ZOutboxMail, ZOutboxQuery } from '@titan/contracts';
import type { Mailer } from '../../platform/mailer';
import { ok } from '../../platform/http';

export const outboxRoutes: FastifyPluginAsyncZod<{ mailer: Mailer }> = async (app, { mailer }) => {
  app.get(
    '/api/dev/outbox/',
    {
      config: { public: true },
      schema: {
        tags: ['development'],
        summary: 'Mail kept by the development outbox, newest first',
        querystring: ZOutboxQuery,
        response: { 200: ZEnvelope(z.array(ZOutboxMail)) },
      },
    },
    async (request) => ok(await mailer.listOutbox(request.query.to)),
  );
};
