import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAnalyticsEvent, ZEnvelope, ZRecordAnalyticsEventRequest } from '@titan/contracts';
import { z } from 'zod';
import { created, ok } from '../../platform/http';
import { fetchWebConfig } from './analytics.provider';
import { recordClientEvent, type AnalyticsDeps } from './analytics.service';

export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: AnalyticsDeps }> = async (app, { deps }) => {
  app.post(
    '/api/analytics/events/',
    {
      // Error reports come from any visitor's browser, signed in or not; the limit keeps a
      // crash loop or a script from flooding the table.
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
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

  // The optional outside provider's web config (docs/configuration.md): first_party when none is
  // set up. Public: the web app reads it before anyone signs in.
  app.get(
    '/api/analytics/web-config/',
    {
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['analytics'],
        summary: 'The analytics provider in use: first-party, or an outside one with its web config',
        response: {
          200: ZEnvelope(
            z.object({
              provider: z.enum(['first_party', 'external']),
              app_id: z.string().optional(),
              config: z.unknown().optional(),
              error: z.string().optional(),
            }),
          ),
        },
      },
    },
    async () => ok(await fetchWebConfig({ config: deps.config, outbound: deps.external })),
  );
};
