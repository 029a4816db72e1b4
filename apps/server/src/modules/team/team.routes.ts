import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAssignRequest,
  ZAssignResult,
  ZDecideJoinRequest,
  ZEnvelope,
  ZIdParams,
  ZInvitation,
  ZInvitationInfo,
  ZInvitationLookupQuery,
  ZInviteMemberRequest,
  ZJoinRequest,
  ZMember,
  ZUpdateMemberRequest,
  ZNoQuery,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { auditContextOf } from '../audit';
import { actorIdOf, businessOf, userIdOf } from '../../platform/request-context';
import * as team from './team.service';

const tags = ['team'];
const manage = { business: true, permission: 'team.manage' } as const;

export const teamRoutes: FastifyPluginAsyncZod<{ deps: team.TeamDeps }> = async (app, { deps }) => {
  const { db } = deps;

  app.get(
    '/api/business/users/',
    {
      config: { business: true },
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZMember)) } },
    },
    async (request) => ok(await team.findMembers(db, businessOf(request).id)),
  );

  app.post(
    '/api/business/users/',
    {
      config: { ...manage, openapi: { errors: [409] } },
      schema: { tags, body: ZInviteMemberRequest, response: { 201: ZEnvelope(ZInvitation) } },
    },
    async (request, reply) =>
      created(reply, await team.inviteMember(deps, businessOf(request), actorIdOf(request), request.body)),
  );

  app.put(
    '/api/business/users/:id/',
    {
      config: { ...manage, audit: false, openapi: { errors: [409] } },
      schema: { tags, params: ZIdParams, body: ZUpdateMemberRequest, response: { 200: ZEnvelope(ZMember) } },
    },
    async (request) =>
      ok(
        await team.changeMemberRole(
          db,
          businessOf(request),
          auditContextOf(request),
          request.params.id,
          request.body.role,
        ),
      ),
  );

  app.delete(
    '/api/business/users/:id/',
    {
      config: { ...manage, audit: false, openapi: { errors: [409] } },
      schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } },
    },
    async (request) => {
      await team.removeMember(db, businessOf(request), auditContextOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/api/business/users/invitations/',
    {
      config: manage,
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZInvitation)) } },
    },
    async (request) => ok(await team.findInvitations(db, businessOf(request).id)),
  );

  app.delete(
    '/api/business/users/invitations/:id/',
    { config: manage, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await team.revokeInvitation(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/api/business/users/invitation/',
    {
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags, querystring: ZInvitationLookupQuery, response: { 200: ZEnvelope(ZInvitationInfo) } },
    },
    async (request) => ok(await team.lookUpInvitation(db, request.query.token)),
  );

  app.post(
    '/api/business/users/assign/',
    { schema: { tags, body: ZAssignRequest, response: { 200: ZEnvelope(ZAssignResult) } } },
    async (request) => ok(await team.assignToBusiness(db, userIdOf(request), request.body)),
  );

  app.get(
    '/api/business/users/join-requests/',
    {
      config: { ...manage, openapi: { errors: [404, 409] } },
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZJoinRequest)) } },
    },
    async (request) => ok(await team.findJoinRequests(db, businessOf(request).id)),
  );

  app.post(
    '/api/business/users/join-requests/:id/',
    {
      config: manage,
      schema: {
        tags,
        params: ZIdParams,
        body: ZDecideJoinRequest,
        response: { 200: ZEnvelope(ZJoinRequest) },
      },
    },
    async (request) =>
      ok(
        await team.decideJoinRequest(db, businessOf(request), actorIdOf(request), request.params.id, {
          approve: request.body.approve,
          role: request.body.role,
        }),
      ),
  );
};
