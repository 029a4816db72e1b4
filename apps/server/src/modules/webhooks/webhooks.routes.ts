// Settings → Webhooks (next-api.md "Platform"): /api/webhooks/endpoints/ — endpoints with their
// secret shown once, the delivery log, replay of one or every failed delivery, and a test send.
// Owners and admins only (business.update): an endpoint receives the business's data.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEnvelope,
  ZNoQuery,
  ZWebhookDelivery,
  ZWebhookDeliveryPage,
  ZWebhookDeliveryQuery,
  ZWebhookEndpoint,
  ZWebhookEndpointRequest,
  ZWebhookEndpointUpdate,
  ZWebhookEndpointWithSecret,
  ZWebhookReplayResult,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { sendTest } from './webhooks.delivery';
import * as webhooks from './webhooks.service';

const tags = ['webhooks'];
const manage = { business: true, permission: 'business.update' } as const;
const ZId = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const webhookRoutes: FastifyPluginAsyncZod<{ deps: webhooks.WebhookDeps }> = async (app, { deps }) => {
  app.get(
    '/api/webhooks/endpoints/',
    {
      config: manage,
      schema: {
        tags,
        summary: "The business's webhook endpoints (never their secrets)",
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(z.array(ZWebhookEndpoint)) },
      },
    },
    async (request) => ok(await webhooks.listEndpoints(deps, businessOf(request).id)),
  );
  app.post(
    '/api/webhooks/endpoints/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Add an endpoint: the answer holds its signing secret, shown this once',
        body: ZWebhookEndpointRequest,
        response: { 201: ZEnvelope(ZWebhookEndpointWithSecret) },
      },
    },
    async (request, reply) =>
      created(reply, await webhooks.createEndpoint(deps, businessOf(request).id, request.body)),
  );
  app.put(
    '/api/webhooks/endpoints/:id/',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Change an endpoint (a new URL gets a new secret, answered this once; enabled turns it back on)',
        params: ZId,
        body: ZWebhookEndpointUpdate,
        response: { 200: ZEnvelope(ZWebhookEndpointWithSecret) },
      },
    },
    async (request) =>
      ok(await webhooks.updateEndpoint(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/webhooks/endpoints/:id/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove an endpoint and its delivery log',
        params: ZId,
        response: { 200: ZEnvelope(z.null()) },
      },
    },
    async (request) => {
      await webhooks.deleteEndpoint(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.get(
    '/api/webhooks/endpoints/:id/deliveries/',
    {
      config: manage,
      schema: {
        tags,
        summary: "An endpoint's delivery log, newest first (request and response truncated to 4 KB)",
        params: ZId,
        querystring: ZWebhookDeliveryQuery,
        response: { 200: ZEnvelope(ZWebhookDeliveryPage) },
      },
    },
    async (request) =>
      ok(await webhooks.listDeliveries(deps, businessOf(request).id, request.params.id, request.query)),
  );
  app.post(
    '/api/webhooks/endpoints/deliveries/:id/replay/',
    {
      config: { ...manage, openapi: { errors: [409] } },
      schema: {
        tags,
        summary: 'Send a delivery again (the same webhook-id, so receivers can deduplicate)',
        params: ZId,
        response: { 200: ZEnvelope(ZWebhookDelivery) },
      },
    },
    async (request) => ok(await webhooks.replayDelivery(deps, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/webhooks/endpoints/:id/replay-failed/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Send every failed delivery of an endpoint again',
        params: ZId,
        response: { 200: ZEnvelope(ZWebhookReplayResult) },
      },
    },
    async (request) => ok(await webhooks.replayFailed(deps, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/webhooks/endpoints/:id/test/',
    {
      config: { ...manage, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Send a webhook.test event to this endpoint now; answers the delivery with the response',
        params: ZId,
        response: { 200: ZEnvelope(ZWebhookDelivery) },
      },
    },
    async (request) => ok(await sendTest(deps, businessOf(request).id, request.params.id)),
  );
};
