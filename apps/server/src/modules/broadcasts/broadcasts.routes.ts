// A broadcast's progress and its cancellation: /api/broadcasts/{id}/ (the batch id a channel's
// bulk endpoint answers with 202).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZBroadcast, ZBroadcastParams, ZEnvelope } from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import * as broadcasts from './broadcasts.service';

const tags = ['broadcasts'];

export const broadcastRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/broadcasts/:id/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: { tags, params: ZBroadcastParams, response: { 200: ZEnvelope(ZBroadcast) } },
    },
    async (request) => ok(await broadcasts.findBroadcast(db, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/broadcasts/:id/cancel/',
    {
      config: { business: true, permission: 'engage.write', openapi: { errors: [409] } },
      schema: { tags, params: ZBroadcastParams, response: { 200: ZEnvelope(ZBroadcast) } },
    },
    async (request) => ok(await broadcasts.cancelBroadcast(db, businessOf(request).id, request.params.id)),
  );
};
