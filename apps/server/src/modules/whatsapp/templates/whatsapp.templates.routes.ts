// Templates, send-template, logs with CSV, and the balance.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEnvelope,
  ZMessage,
  ZPage,
  ZSendTemplateRequest,
  ZTemplateListQuery,
  ZTemplateNameParams,
  ZTemplateNameQuery,
  ZTemplateSyncResult,
  ZTrackingIdParams,
  ZWhatsappBalance,
  ZWhatsappLog,
  ZWhatsappLogDetail,
  ZWhatsappLogFilter,
  ZWhatsappLogListQuery,
  ZWhatsappTemplate,
} from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import { created, ok } from '../../../platform/http';
import { AUTH_ERRORS } from '../../auth';
import { actorIdOf, businessOf } from '../../../platform/request-context';
import { scopeOf } from '../../../platform/inbox-scope';
import * as logs from '../messages/whatsapp.logs';
import type { WhatsappDeps } from '../messages/whatsapp.outbound';
import * as templates from './whatsapp.templates';

const tags = ['whatsapp'];
const read = { business: true, permission: 'engage.read' } as const;

export const whatsappTemplatesRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async (
  app,
  { deps },
) => {
  app.post(
    '/api/whatsapp/template/sync/',
    {
      config: { business: true, permission: 'engage.write', openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: "Fetch the account's templates from Meta",
        response: { 200: ZEnvelope(ZTemplateSyncResult) },
      },
    },
    async (request) => ok(await templates.syncTemplates(deps, businessOf(request).id)),
  );

  app.get(
    '/api/whatsapp/template/',
    {
      config: read,
      schema: {
        tags,
        querystring: ZTemplateListQuery,
        response: { 200: ZEnvelope(z.array(ZWhatsappTemplate)) },
      },
    },
    async (request) => ok(await templates.findTemplates(deps.db, businessOf(request).id, request.query)),
  );

  app.get(
    '/api/whatsapp/template/:name/',
    {
      config: read,
      schema: {
        tags,
        params: ZTemplateNameParams,
        querystring: ZTemplateNameQuery,
        response: { 200: ZEnvelope(ZWhatsappTemplate) },
      },
    },
    async (request) =>
      ok(
        await templates.findTemplate(
          deps.db,
          businessOf(request).id,
          request.params.name,
          request.query.language,
        ),
      ),
  );

  app.post(
    '/api/whatsapp/message/send-template/',
    {
      config: { business: true, permission: 'inbox.use', openapi: { errors: [402, 404, 409, 503] } },
      schema: { tags, body: ZSendTemplateRequest, response: { 201: ZEnvelope(ZMessage) } },
    },
    async (request, reply) => {
      // Writing to any number, not just an open conversation, is the sending permission's.
      if (request.body.to !== undefined && !businessOf(request).permissions.has('engage.send'))
        throw new AppError('forbidden', AUTH_ERRORS.forbidden);
      const sender = { scope: await scopeOf(deps.db, request), userId: actorIdOf(request) };
      return created(reply, await templates.sendTemplate(deps, sender, request.body));
    },
  );

  app.get(
    '/api/whatsapp/events/',
    {
      config: read,
      schema: { tags, querystring: ZWhatsappLogListQuery, response: { 200: ZEnvelope(ZPage(ZWhatsappLog)) } },
    },
    async (request) => ok(await logs.findLogs(deps.db, await scopeOf(deps.db, request), request.query)),
  );

  // A static segment, so it wins over :trackingId.
  app.get(
    '/api/whatsapp/events/download/',
    {
      config: { ...read, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: { tags, summary: 'The filtered logs as CSV', querystring: ZWhatsappLogFilter },
    },
    async (request, reply) => {
      const scope = await scopeOf(deps.db, request);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${logs.exportFileName()}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(logs.exportLogs(deps.db, scope, request.query)));
    },
  );

  app.get(
    '/api/whatsapp/events/:trackingId/',
    {
      config: read,
      schema: { tags, params: ZTrackingIdParams, response: { 200: ZEnvelope(ZWhatsappLogDetail) } },
    },
    async (request) =>
      ok(await logs.findLogDetail(deps, await scopeOf(deps.db, request), request.params.trackingId)),
  );

  app.get(
    '/api/whatsapp/client/balance/',
    { config: read, schema: { tags, response: { 200: ZEnvelope(ZWhatsappBalance) } } },
    async (request) => ok(await logs.findBalance(deps.db, businessOf(request).id)),
  );
};
