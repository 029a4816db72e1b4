// GET /api/metrics/email-metrics/: the business's email totals, rates and daily series.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEmailMetrics, ZEmailMetricsQuery, ZEnvelope } from '@titan/contracts';
import type { Db } from '../../db/client';
import { businessOf } from '../../platform/request-context';
import { ok } from '../../platform/http';
import { emailMetrics } from '../sends';

export const emailMetricsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/metrics/email-metrics/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: {
        tags: ['metrics'],
        summary: 'Email totals, rates (human and all) and a daily series',
        querystring: ZEmailMetricsQuery,
        response: { 200: ZEnvelope(ZEmailMetrics) },
      },
    },
    async (request) => ok(await emailMetrics(db, businessOf(request).id, request.query)),
  );
};
