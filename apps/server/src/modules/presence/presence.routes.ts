import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZPresence, ZPresenceRequest } from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { userIdOf } from '../../platform/request-context';
import { setPresence } from './presence.service';

const tags = ['presence'];

export const presenceRoutes: FastifyPluginAsyncZod<{ deps: { db: Db } }> = async (app, { deps }) => {
  // The caller's own presence, in every business they belong to (a member's, never an API key's).
  app.put(
    '/api/users/presence/',
    { schema: { tags, body: ZPresenceRequest, response: { 200: ZEnvelope(ZPresence) } } },
    async (request) => ok(await setPresence(deps.db, userIdOf(request), request.body.status)),
  );
};
