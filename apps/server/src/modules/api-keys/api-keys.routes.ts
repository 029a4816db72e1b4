import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZApiKey,
  ZCreateApiKeyRequest,
  ZCreatedApiKey,
  ZEnvelope,
  ZIdParams,
  ZNoQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { created, ok } from '../../platform/http';
import { auditContextOf } from '../audit';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { createApiKey, findApiKeys, revokeApiKey } from './api-keys.service';

const tags = ['api keys'];
const config = { business: true, permission: 'api_keys.manage' } as const;
/** Writes record their audit row in their own transaction. */
const writes = { ...config, audit: false } as const;

export const apiKeyRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/auth/api-keys/',
    { config, schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZApiKey)) } } },
    async (request) => ok(await findApiKeys(db, businessOf(request).id)),
  );

  app.post(
    '/api/auth/api-keys/',
    {
      config: writes,
      schema: { tags, body: ZCreateApiKeyRequest, response: { 201: ZEnvelope(ZCreatedApiKey) } },
    },
    async (request, reply) =>
      created(
        reply,
        await createApiKey(
          db,
          businessOf(request),
          auditContextOf(request),
          actorIdOf(request),
          request.body,
        ),
      ),
  );

  app.delete(
    '/api/auth/api-keys/:id/',
    { config: writes, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await revokeApiKey(db, auditContextOf(request), request.params.id);
      return ok(null);
    },
  );
};
