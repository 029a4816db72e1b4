// GET /api/msg/search/ (next-api.md "Team inbox"): staff only (inbox.use), the viewer's scope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZSearchPage, ZSearchQuery } from '@titan/contracts';
import type { Db } from '../../../db/client';
import { ok } from '../../../platform/http';
import { actorIdOf } from '../../../platform/request-context';
import { scopeOf } from '../../../platform/inbox-scope';
import { search } from './search.service';

export const searchRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/msg/search/',
    {
      config: { business: true, permission: 'inbox.use' },
      schema: {
        tags: ['conversations'],
        querystring: ZSearchQuery,
        response: { 200: ZEnvelope(ZSearchPage) },
      },
    },
    async (request) => ok(await search(db, await scopeOf(db, request), request.query, actorIdOf(request))),
  );
};
