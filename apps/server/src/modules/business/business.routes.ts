import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBusiness,
  ZCreateBusinessRequest,
  ZEnvelope,
  ZRoleInfo,
  ZUpdateBusinessRequest,
  MFA_MESSAGES,
  ZNoQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf, userIdOf } from '../auth';
import { createBusiness, findBusiness, updateBusiness } from './business.service';
import { ROLE_INFO } from '../../platform/roles';

const tags = ['business'];

export const businessRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/business/',
    { schema: { tags, body: ZCreateBusinessRequest, response: { 201: ZEnvelope(ZBusiness) } } },
    async (request, reply) =>
      created(reply, await createBusiness(db, userIdOf(request), request.body, request.id)),
  );

  app.get(
    '/api/business/',
    { config: { business: true }, schema: { tags, response: { 200: ZEnvelope(ZBusiness) } } },
    async (request) => ok(await findBusiness(db, businessOf(request).id)),
  );

  app.put(
    '/api/business/',
    {
      config: { business: true, permission: 'business.update' },
      schema: { tags, body: ZUpdateBusinessRequest, response: { 200: ZEnvelope(ZBusiness) } },
    },
    async (request) => {
      const business = businessOf(request);
      if (request.body.require_2fa !== undefined && business.role !== 'owner') {
        throw new AppError('forbidden', MFA_MESSAGES.ownersOnly);
      }
      return ok(await updateBusiness(db, business.id, actorIdOf(request), request.body));
    },
  );

  app.get(
    '/api/business/roles/',
    { schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZRoleInfo)) } } },
    async () => ok(ROLE_INFO),
  );
};
