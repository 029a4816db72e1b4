import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBusiness,
  ZCreateBusinessRequest,
  ZEnvelope,
  ZFrequencyCap,
  ZFrequencyCapRequest,
  ZRoleInfo,
  ZCustomRole,
  ZCustomRoleRequest,
  ZIdParams,
  ZUpdateBusinessRequest,
  MFA_ERRORS,
  ZNoQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { auditContextOf } from '../audit';
import { businessRolesChanged } from '../../platform/roles';
import { actorIdOf, businessOf, userIdOf } from '../../platform/request-context';
import {
  createBusiness,
  findBusiness,
  frequencyCapOf,
  setFrequencyCap,
  updateBusiness,
} from './business.service';
import * as roles from './business.roles';

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
        throw new AppError('forbidden', MFA_ERRORS.ownersOnly);
      }
      return ok(await updateBusiness(db, business.id, actorIdOf(request), request.body));
    },
  );

  // The marketing frequency cap (issue 32): any member may read it (it explains why a campaign,
  // journey or agent passed a customer over); changing it needs business.update.
  app.get(
    '/api/business/frequency-cap/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: { tags, querystring: ZNoQuery, response: { 200: ZEnvelope(ZFrequencyCap) } },
    },
    async (request) => ok(await frequencyCapOf(db, businessOf(request).id)),
  );

  app.put(
    '/api/business/frequency-cap/',
    {
      config: { business: true, permission: 'business.update' },
      schema: { tags, body: ZFrequencyCapRequest, response: { 200: ZEnvelope(ZFrequencyCap) } },
    },
    async (request) =>
      ok(await setFrequencyCap(db, businessOf(request).id, actorIdOf(request), request.body)),
  );

  // The built-in roles and the business's custom roles (issue 34). Any member may read them (the
  // web app hides what a role may not do); defining them needs team.manage.
  app.get(
    '/api/business/roles/',
    {
      config: { business: true },
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZRoleInfo)) } },
    },
    async (request) => ok(await roles.listRoles(db, businessOf(request).id)),
  );

  const manage = { business: true, permission: 'team.manage', audit: false } as const;

  app.post(
    '/api/business/roles/',
    {
      config: manage,
      schema: { tags, body: ZCustomRoleRequest, response: { 201: ZEnvelope(ZCustomRole) } },
    },
    async (request, reply) =>
      created(
        reply,
        await roles.createCustomRole(db, businessOf(request), auditContextOf(request), request.body),
      ),
  );

  app.get(
    '/api/business/roles/:id/',
    {
      config: { business: true },
      schema: { tags, params: ZIdParams, querystring: ZNoQuery, response: { 200: ZEnvelope(ZCustomRole) } },
    },
    async (request) => ok(await roles.findCustomRoleView(db, businessOf(request).id, request.params.id)),
  );

  app.put(
    '/api/business/roles/:id/',
    {
      config: manage,
      schema: {
        tags,
        params: ZIdParams,
        body: ZCustomRoleRequest,
        response: { 200: ZEnvelope(ZCustomRole) },
      },
    },
    async (request) => {
      const business = businessOf(request);
      const { role } = await roles.updateCustomRole(
        db,
        business,
        auditContextOf(request),
        request.params.id,
        request.body,
      );
      businessRolesChanged(db, business.id);
      return ok(role);
    },
  );

  app.delete(
    '/api/business/roles/:id/',
    {
      config: { ...manage, openapi: { errors: [409] } },
      schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } },
    },
    async (request) => {
      const business = businessOf(request);
      await roles.deleteCustomRole(db, business.id, auditContextOf(request), request.params.id);
      businessRolesChanged(db, business.id);
      return ok(null);
    },
  );
};
