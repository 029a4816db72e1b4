// Inbox addresses: GET, POST /api/email/inboxes/ and DELETE /api/email/inboxes/{id}/ (next-api.md
// "Every channel in the inbox"), read and written as sending domains are (engage.read / engage.write).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCreateEmailInboxRequest, ZEmailInbox, ZEnvelope, ZIdParams, ZNoQuery } from '@titan/contracts';
import type { Db } from '../../db/client';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { createInbox, deleteInbox, listInboxes } from './email.inboxes';

const tags = ['email'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;

export const emailInboxRoutes: FastifyPluginAsyncZod<{
  deps: { db: Db; config: { PUBLIC_URL: string } };
}> = async (app, { deps }) => {
  app.get(
    '/api/email/inboxes/',
    {
      config: read,
      schema: { tags, querystring: ZNoQuery, response: { 200: ZEnvelope(z.array(ZEmailInbox)) } },
    },
    async (request) => ok(await listInboxes(deps, businessOf(request).id)),
  );
  app.post(
    '/api/email/inboxes/',
    {
      config: { ...write, openapi: { errors: [404, 409] } },
      schema: { tags, body: ZCreateEmailInboxRequest, response: { 201: ZEnvelope(ZEmailInbox) } },
    },
    async (request, reply) => created(reply, await createInbox(deps, businessOf(request).id, request.body)),
  );
  app.delete(
    '/api/email/inboxes/:id/',
    {
      config: { ...write, openapi: { errors: [404] } },
      schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } },
    },
    async (request) => {
      await deleteInbox(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
};
