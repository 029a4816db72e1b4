import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCreateEmailDomainRequest,
  ZEmailDomain,
  ZEnvelope,
  ZIdParams,
  ZNoQuery,
  ZUpdateEmailDomainRequest,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import {
  createEmailDomain,
  deleteEmailDomain,
  findEmailDomain,
  findEmailDomains,
  updateEmailDomain,
  verifyEmailDomain,
  type EmailDomainDeps,
} from './email-domains.service';

const tags = ['email'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;

export const emailDomainRoutes: FastifyPluginAsyncZod<{ deps: EmailDomainDeps }> = async (app, { deps }) => {
  app.get(
    '/api/email/domains/',
    {
      config: read,
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZEmailDomain)) } },
    },
    async (request) => ok(await findEmailDomains(deps, businessOf(request).id)),
  );

  app.post(
    '/api/email/domains/',
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: { tags, body: ZCreateEmailDomainRequest, response: { 201: ZEnvelope(ZEmailDomain) } },
    },
    async (request, reply) =>
      created(reply, await createEmailDomain(deps, businessOf(request).id, actorIdOf(request), request.body)),
  );

  app.get(
    '/api/email/domains/:id/',
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZEmailDomain) } } },
    async (request) => ok(await findEmailDomain(deps, businessOf(request).id, request.params.id)),
  );

  app.put(
    '/api/email/domains/:id/',
    {
      config: write,
      schema: {
        tags,
        summary: "Sets the domain's default sender (campaigns and send-mail without a From use it)",
        params: ZIdParams,
        body: ZUpdateEmailDomainRequest,
        response: { 200: ZEnvelope(ZEmailDomain) },
      },
    },
    async (request) =>
      ok(await updateEmailDomain(deps, businessOf(request).id, request.params.id, request.body)),
  );

  app.delete(
    '/api/email/domains/:id/',
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await deleteEmailDomain(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/api/email/domains/:id/verify/',
    {
      config: write,
      schema: {
        tags,
        summary: "Checks every record against the domain's authoritative name servers",
        params: ZIdParams,
        response: { 200: ZEnvelope(ZEmailDomain) },
      },
    },
    async (request) => ok(await verifyEmailDomain(deps, businessOf(request).id, request.params.id)),
  );
};
