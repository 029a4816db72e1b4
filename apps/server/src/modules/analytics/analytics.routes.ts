import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAnalyticsEvent, ZEnvelope, ZRecordAnalyticsEventRequest } from '@titan/contracts';
import { created } from '../../platform/http';
import { recordClientEvent, type AnalyticsDeps } from './analytics.service';

export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: AnalyticsDeps }> = async (app, { deps }) => {
  app.post(
    '/api/analytics/events/',
    {
      // Error reports come from any visitor's browser, signed in or not; the limit keeps a
      // crash loop or a script from flooding the table.
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [429] } },
      bodyLimit: 64 * 1024,
      schema: {
        tags: ['analytics'],
        summary: 'Report a client-side error (ERROR event)',
        body: ZRecordAnalyticsEventRequest,
        response: { 201: ZEnvelope(ZAnalyticsEvent) },
      },
    },
    async (request, reply) => {
      const code = request.headers['x-business-code'];
      const event = await recordClientEvent(deps, {
        event: request.body.event,
        properties: { ...request.body.properties, user_agent: request.headers['user-agent'] ?? null },
        requestId: request.id,
        businessCode: typeof code === 'string' ? code : undefined,
      });
      return created(reply, event);
    },
  );
};
