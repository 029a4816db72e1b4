// GET /api/metrics/engage/: the /engage dashboard's figures over a date range.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEngageMetrics, ZEngageMetricsQuery, ZEnvelope } from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { engageMetrics } from './dashboard.service';

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/metrics/engage/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: {
        tags: ['metrics'],
        summary:
          'The dashboard: conversations (opened, unanswered, median first response), sends per channel and outcome, agent deliveries, a daily series',
        querystring: ZEngageMetricsQuery,
        response: { 200: ZEnvelope(ZEngageMetrics) },
      },
    },
    async (request) => ok(await engageMetrics(db, businessOf(request).id, request.query)),
  );
};
