import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCannedResponse,
  ZCannedResponseQuery,
  ZCannedResponseRequest,
  ZEnvelope,
  ZIdParams,
  ZRenderCannedRequest,
  ZRenderedCanned,
  ZUpdateCannedResponseRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Storage } from '../../platform/storage';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { scopeOf } from '../../platform/inbox-scope';
import * as canned from './canned-responses.service';

const tags = ['canned responses'];
/** Everyone in the inbox reads and uses them; owners and admins manage them. */
const read = { business: true, permission: 'inbox.use' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/msg/canned-responses/';

export const cannedResponseRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage }> = async (
  app,
  { db, storage },
) => {
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        querystring: ZCannedResponseQuery,
        response: { 200: ZEnvelope(z.array(ZCannedResponse)) },
      },
    },
    async (request) => ok(await canned.findCannedResponses(db, businessOf(request).id, request.query)),
  );
  app.post(
    base,
    {
      config: { ...write, openapi: { errors: [404] } },
      schema: { tags, body: ZCannedResponseRequest, response: { 201: ZEnvelope(ZCannedResponse) } },
    },
    async (request, reply) =>
      created(
        reply,
        await canned.createCannedResponse(db, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.put(
    `${base}:id/`,
    {
      config: write,
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateCannedResponseRequest,
        response: { 200: ZEnvelope(ZCannedResponse) },
      },
    },
    async (request) =>
      ok(await canned.updateCannedResponse(db, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    `${base}:id/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await canned.deleteCannedResponse(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  // The text for one conversation, its variables filled in (the composer's `/` picker).
  app.post(
    `${base}:id/render/`,
    {
      config: read,
      schema: {
        tags,
        params: ZIdParams,
        body: ZRenderCannedRequest,
        response: { 200: ZEnvelope(ZRenderedCanned) },
      },
    },
    async (request) =>
      ok(
        await canned.renderCannedResponse(
          { db, storage },
          await scopeOf(db, request),
          actorIdOf(request),
          request.params.id,
          request.body.conversation_id,
        ),
      ),
  );
};
