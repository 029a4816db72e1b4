// Consent (next-api.md "Campaigns and consent"): topics per business (/api/consent/topics/), the
// look of the public consent pages (/api/consent/page/, an extension: where the API is silent), and
// the public double opt-in confirmation (/api/public/confirm/{token}/).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZConsentConfirmation,
  ZConsentPage,
  ZConsentTopic,
  ZCreateConsentTopicRequest,
  ZEnvelope,
  ZIdParams,
  ZPublicTokenParams,
  ZUpdateConsentPageRequest,
  ZUpdateConsentTopicRequest,
  ZNoQuery,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { confirmJoin, type DoubleOptInDeps } from './consent.double-opt-in';
import * as topics from './consent.topics';

const tags = ['consent'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/consent/topics/';

export type ConsentRouteDeps = DoubleOptInDeps & {
  /** A list's name for the confirmation page (the customer-lists module's, given by the app). */
  listName: (businessId: number, listId: number) => Promise<string | null>;
};

export const consentRoutes: FastifyPluginAsyncZod<{ deps: ConsentRouteDeps }> = async (app, { deps }) => {
  const { db } = deps;
  app.get(
    base,
    {
      config: read,
      schema: { tags, querystring: ZNoQuery, response: { 200: ZEnvelope(z.array(ZConsentTopic)) } },
    },
    async (request) => ok(await topics.listTopics(db, businessOf(request).id)),
  );
  app.post(
    base,
    {
      config: write,
      schema: { tags, body: ZCreateConsentTopicRequest, response: { 201: ZEnvelope(ZConsentTopic) } },
    },
    async (request, reply) =>
      created(reply, await topics.createTopic(db, businessOf(request).id, request.body)),
  );
  app.get(
    `${base}:id/`,
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZConsentTopic) } } },
    async (request) => ok(await topics.getTopic(db, businessOf(request).id, request.params.id)),
  );
  app.put(
    `${base}:id/`,
    {
      config: write,
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateConsentTopicRequest,
        response: { 200: ZEnvelope(ZConsentTopic) },
      },
    },
    async (request) =>
      ok(await topics.updateTopic(db, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    `${base}:id/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await topics.deleteTopic(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/api/consent/page/',
    { config: read, schema: { tags, response: { 200: ZEnvelope(ZConsentPage) } } },
    async (request) => ok(await topics.getConsentPage(db, businessOf(request).id)),
  );
  app.put(
    '/api/consent/page/',
    {
      config: write,
      schema: { tags, body: ZUpdateConsentPageRequest, response: { 200: ZEnvelope(ZConsentPage) } },
    },
    async (request) => ok(await topics.updateConsentPage(db, businessOf(request).id, request.body)),
  );

  const confirmConfig = {
    public: true,
    rateLimit: { max: 30, timeWindow: '1 minute' },
    openapi: { errors: [429] },
  } as const;
  app.get(
    '/api/public/confirm/:token/',
    {
      config: confirmConfig,
      schema: {
        tags,
        summary: 'What a double opt-in confirmation link is about (confirms nothing)',
        params: ZPublicTokenParams,
        response: { 200: ZEnvelope(ZConsentConfirmation) },
      },
    },
    async (request) =>
      ok(
        await confirmJoin(deps, request.params.token, {
          confirm: false,
          ip: request.ip,
          listName: deps.listName,
        }),
      ),
  );
  app.post(
    '/api/public/confirm/:token/',
    {
      config: confirmConfig,
      schema: {
        tags,
        summary: 'Confirm a subscription (the link of the double opt-in mail)',
        params: ZPublicTokenParams,
        response: { 200: ZEnvelope(ZConsentConfirmation) },
      },
    },
    async (request) =>
      ok(
        await confirmJoin(deps, request.params.token, {
          confirm: true,
          ip: request.ip,
          listName: deps.listName,
        }),
      ),
  );
};
