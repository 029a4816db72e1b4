// Journeys and events (next-api.md "Journeys and events"): `POST /api/events/` for shops and apps
// (API keys), and /api/journeys/ — CRUD with versions, publish, pause, per-step counts and a
// customer's path.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCustomerEventAccepted,
  ZCustomerEventRequest,
  ZEnvelope,
  ZJourney,
  ZJourneyCustomerPath,
  ZJourneyCustomerRun,
  ZJourneyMoveRequest,
  ZJourneyMoveResult,
  ZJourneyRequest,
  ZJourneyTestRequest,
  ZJourneyStats,
  ZNoQuery,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import type { JourneyDeps } from './journeys.deps';
import * as journeys from './journeys.service';

const tags = ['journeys'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const ZIdNum = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ZId = z.object({ id: ZIdNum });

export const journeyRoutes: FastifyPluginAsyncZod<{ deps: JourneyDeps }> = async (app, { deps }) => {
  app.post(
    '/api/events/',
    {
      config: { business: true, permission: 'engage.send', openapi: { errors: [404] } },
      schema: {
        tags,
        summary:
          'Post a custom event about a customer (by id, email, phone or external_id); journeys start on it or stop waiting for it',
        body: ZCustomerEventRequest,
        response: { 202: ZEnvelope(ZCustomerEventAccepted) },
      },
    },
    async (request, reply) => {
      const accepted = await journeys.postEvent(deps, businessOf(request).id, request.body);
      reply.code(202);
      return { status: 202, message: 'Accepted', result: accepted };
    },
  );
  app.get(
    '/api/journeys/',
    {
      config: read,
      schema: {
        tags,
        summary: "The business's journeys, newest first",
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(z.array(ZJourney)) },
      },
    },
    async (request) => ok(await journeys.listJourneys(deps, businessOf(request).id)),
  );
  app.post(
    '/api/journeys/',
    {
      config: { ...write, openapi: { errors: [404] } },
      schema: {
        tags,
        summary: 'Create a journey (a draft until published)',
        body: ZJourneyRequest,
        response: { 201: ZEnvelope(ZJourney) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await journeys.createJourney(deps, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.get(
    '/api/journeys/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: 'One journey, its newest version',
        params: ZId,
        response: { 200: ZEnvelope(ZJourney) },
      },
    },
    async (request) => ok(await journeys.getJourney(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/journeys/:id/',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Change a journey: a draft in place; a published one gets a new version (live at once when the journey is live; customers in flight finish on theirs)',
        params: ZId,
        body: ZJourneyRequest,
        response: { 200: ZEnvelope(ZJourney) },
      },
    },
    async (request) =>
      ok(await journeys.updateJourney(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.post(
    '/api/journeys/:id/publish/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Make the newest version live: customers enter it on its trigger from now on',
        params: ZId,
        response: { 200: ZEnvelope(ZJourney) },
      },
    },
    async (request) => ok(await journeys.publishJourney(deps, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/journeys/:id/move-in-flight/',
    {
      config: { ...write, openapi: { errors: [400, 409] } },
      schema: {
        tags,
        summary:
          'Move the customers in flight on older versions to a step of the live version (else they finish on theirs)',
        params: ZId,
        body: ZJourneyMoveRequest,
        response: { 200: ZEnvelope(ZJourneyMoveResult) },
      },
    },
    async (request) =>
      ok(
        await journeys.moveJourneyInFlight(
          deps,
          businessOf(request).id,
          request.params.id,
          request.body.to_node,
        ),
      ),
  );
  app.post(
    '/api/journeys/:id/pause/',
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: {
        tags,
        summary: 'Pause a live journey: nobody enters and nobody moves on until it is published again',
        params: ZId,
        response: { 200: ZEnvelope(ZJourney) },
      },
    },
    async (request) => ok(await journeys.pauseJourney(deps, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/journeys/:id/test/',
    {
      config: { ...write, openapi: { errors: [404] } },
      schema: {
        tags,
        summary:
          "Test mode: a chosen customer through the journey's newest version now (a draft too), its waits clock_speed times shorter; its steps run as any others (sends included) and stay out of the counts",
        params: ZId,
        body: ZJourneyTestRequest,
        response: { 201: ZEnvelope(ZJourneyCustomerRun) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await journeys.testJourney(deps, businessOf(request).id, request.params.id, request.body),
      ),
  );
  app.get(
    '/api/journeys/:id/stats/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Per step: how many customers entered it, wait in it, passed it, exited there and failed there',
        params: ZId,
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(ZJourneyStats) },
      },
    },
    async (request) => ok(await journeys.journeyStats(deps, businessOf(request).id, request.params.id)),
  );
  app.get(
    '/api/journeys/:id/customers/:customerId/',
    {
      config: read,
      schema: {
        tags,
        summary: "A customer's path through the journey: each pass, each step with its times",
        params: z.object({ id: ZIdNum, customerId: ZIdNum }),
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(ZJourneyCustomerPath) },
      },
    },
    async (request) =>
      ok(
        await journeys.customerPath(
          deps,
          businessOf(request).id,
          request.params.id,
          request.params.customerId,
        ),
      ),
  );
};
