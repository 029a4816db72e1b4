import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZHealth } from '@titan/contracts';
import type { Database } from '../../db/client';
import { checkHealth } from './health.service';

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/api/health/',
    {
      config: { public: true },
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database check',
        response: { 200: ZEnvelope(ZHealth), 503: ZEnvelope(ZHealth) },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(database);
      const status = health.status === 'ok' ? 200 : 503;
      reply.code(status).header('cache-control', 'no-store');
      return { status, message: health.status === 'ok' ? 'OK' : 'Database unavailable', result: health };
    },
  );
};
