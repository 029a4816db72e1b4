// Campaigns (next-api.md "Campaigns and consent"): /api/campaigns/ and by id, the actions
// (test, schedule, pause, resume, cancel), the report, recipients and their CSV; plus the live
// audience count and the checklist the composer shows.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCampaign,
  ZCampaignAudienceCount,
  ZCampaignAudienceCountRequest,
  ZCampaignChecklist,
  ZCampaignParams,
  ZCampaignQuery,
  ZCampaignRecipient,
  ZCampaignRecipientsQuery,
  ZCampaignReport,
  ZCampaignTestRequest,
  ZCampaignTestResult,
  ZCreateCampaignRequest,
  ZEnvelope,
  ZNoQuery,
  ZPage,
  ZUpdateCampaignRequest,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { campaignRecipients, campaignReport, exportRecipients } from './campaigns.report';
import * as campaigns from './campaigns.service';

const tags = ['campaigns'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const action = { ...write, openapi: { errors: [409] } } as const;

export const campaignRoutes: FastifyPluginAsyncZod<{ deps: campaigns.CampaignDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/api/campaigns/',
    {
      config: read,
      schema: { tags, querystring: ZCampaignQuery, response: { 200: ZEnvelope(ZPage(ZCampaign)) } },
    },
    async (request) => ok(await campaigns.findCampaigns(deps, businessOf(request).id, request.query)),
  );
  app.post(
    '/api/campaigns/',
    {
      config: write,
      schema: { tags, body: ZCreateCampaignRequest, response: { 201: ZEnvelope(ZCampaign) } },
    },
    async (request, reply) =>
      created(
        reply,
        await campaigns.createCampaign(deps, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.post(
    '/api/campaigns/audience/count/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Counts an audience as chosen: reachable, and the suppressed, without consent, without an address apart',
        body: ZCampaignAudienceCountRequest,
        response: { 200: ZEnvelope(ZCampaignAudienceCount) },
      },
    },
    async (request) =>
      ok(
        await campaigns.countAudience(
          deps.db,
          businessOf(request).id,
          request.body.channel,
          request.body.audience,
        ),
      ),
  );
  app.get(
    '/api/campaigns/:id/',
    { config: read, schema: { tags, params: ZCampaignParams, response: { 200: ZEnvelope(ZCampaign) } } },
    async (request) => ok(await campaigns.findCampaign(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/campaigns/:id/',
    {
      config: action,
      schema: {
        tags,
        params: ZCampaignParams,
        body: ZUpdateCampaignRequest,
        response: { 200: ZEnvelope(ZCampaign) },
      },
    },
    async (request) =>
      ok(await campaigns.updateCampaign(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/campaigns/:id/',
    { config: action, schema: { tags, params: ZCampaignParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await campaigns.deleteCampaign(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.get(
    '/api/campaigns/:id/checklist/',
    {
      config: read,
      schema: {
        tags,
        summary: 'What must hold before sending: domain verified, unsubscribe, audience, quota',
        params: ZCampaignParams,
        response: { 200: ZEnvelope(ZCampaignChecklist) },
      },
    },
    async (request) => ok(await campaigns.checklist(deps, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/campaigns/:id/test/',
    {
      config: action,
      schema: {
        tags,
        summary: 'Sends the campaign (each variant) to staff addresses or numbers',
        params: ZCampaignParams,
        body: ZCampaignTestRequest,
        response: { 202: ZEnvelope(ZCampaignTestResult) },
      },
    },
    async (request, reply) => {
      reply.status(202);
      return ok(
        await campaigns.testSend(
          deps,
          businessOf(request).id,
          request.params.id,
          request.body,
          actorIdOf(request),
        ),
        202,
      );
    },
  );
  for (const [name, run, summary] of [
    [
      'schedule',
      campaigns.scheduleCampaign,
      'Starts a draft per its schedule (now, at a time, at local times)',
    ],
    ['pause', campaigns.pauseCampaign, 'Stops sending within seconds; sends not yet handed over are held'],
    ['resume', campaigns.resumeCampaign, 'Sends on to those not yet sent; nobody twice'],
    ['cancel', campaigns.cancelCampaign, 'Ends the campaign; nothing more is sent'],
  ] as const)
    app.post(
      `/api/campaigns/:id/${name}/`,
      {
        config: { ...action, ...(name === 'schedule' ? { openapi: { errors: [402, 409] } } : {}) },
        schema: { tags, summary, params: ZCampaignParams, response: { 200: ZEnvelope(ZCampaign) } },
      },
      async (request) => ok(await run(deps, businessOf(request).id, request.params.id)),
    );
  app.get(
    '/api/campaigns/:id/report/',
    {
      config: read,
      schema: { tags, params: ZCampaignParams, response: { 200: ZEnvelope(ZCampaignReport) } },
    },
    async (request) => ok(await campaignReport(deps.db, businessOf(request).id, request.params.id)),
  );
  app.get(
    '/api/campaigns/:id/recipients/',
    {
      config: read,
      schema: {
        tags,
        params: ZCampaignParams,
        querystring: ZCampaignRecipientsQuery,
        response: { 200: ZEnvelope(ZPage(ZCampaignRecipient)) },
      },
    },
    async (request) =>
      ok(await campaignRecipients(deps.db, businessOf(request).id, request.params.id, request.query)),
  );
  app.get(
    '/api/campaigns/:id/download/',
    {
      config: { ...read, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: {
        tags,
        summary: 'Every recipient with their send, as CSV',
        params: ZCampaignParams,
        querystring: ZNoQuery,
      },
    },
    async (request, reply) => {
      const businessId = businessOf(request).id;
      await campaigns.mustFind(deps.db, businessId, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="campaign-${request.params.id}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportRecipients(deps.db, businessId, request.params.id)));
    },
  );
};
