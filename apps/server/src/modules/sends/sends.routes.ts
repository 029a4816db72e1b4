// The event logs of email and SMS: the same query, filters and CSV stream as `/api/whatsapp/events/`,
// each with its channel's own shapes (statuses, an email's message, a text's segments and cost).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZEmailLog,
  ZEmailLogDetail,
  ZEmailLogFilter,
  ZEmailLogListQuery,
  ZEnvelope,
  ZPage,
  ZSmsLog,
  ZSmsLogDetail,
  ZSmsLogFilter,
  ZSmsLogListQuery,
  ZTrackingIdParams,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { scopeOf } from '../../platform/inbox-scope';
import * as logs from './sends.logs';
import * as smsLogs from './sends.sms-logs';

const read = { business: true, permission: 'engage.read' } as const;

export const sendLogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/sms/events/',
    {
      config: read,
      schema: { tags: ['sms'], querystring: ZSmsLogListQuery, response: { 200: ZEnvelope(ZPage(ZSmsLog)) } },
    },
    async (request) => ok(await smsLogs.findSmsLogs(db, await scopeOf(db, request), request.query)),
  );
  app.get(
    '/api/sms/events/download/',
    {
      config: { ...read, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: { tags: ['sms'], summary: 'The filtered texts as CSV', querystring: ZSmsLogFilter },
    },
    async (request, reply) => {
      const scope = await scopeOf(db, request);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${logs.exportFileName('sms')}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(smsLogs.exportSmsLogs(db, scope, request.query)));
    },
  );
  app.get(
    '/api/sms/events/:trackingId/',
    {
      config: read,
      schema: {
        tags: ['sms'],
        summary: 'One text: as sent, its segments and cost, and its timeline of Twilio statuses',
        params: ZTrackingIdParams,
        response: { 200: ZEnvelope(ZSmsLogDetail) },
      },
    },
    async (request) => {
      const found = await smsLogs.findSmsLog(db, await scopeOf(db, request), request.params.trackingId);
      if (!found) throw AppError.notFound(logs.SEND_LOG_ERRORS.notFound);
      return ok(found);
    },
  );

  const tags = ['email'];
  app.get(
    '/api/email/events/',
    {
      config: read,
      schema: { tags, querystring: ZEmailLogListQuery, response: { 200: ZEnvelope(ZPage(ZEmailLog)) } },
    },
    async (request) => ok(await logs.findEmailLogs(db, await scopeOf(db, request), request.query)),
  );
  app.get(
    '/api/email/events/download/',
    {
      config: { ...read, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: { tags, summary: 'The filtered emails as CSV', querystring: ZEmailLogFilter },
    },
    async (request, reply) => {
      const scope = await scopeOf(db, request);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${logs.exportFileName('email')}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(logs.exportEmailLogs(db, scope, request.query)));
    },
  );
  app.get(
    '/api/email/events/:trackingId/',
    {
      config: read,
      schema: {
        tags,
        summary: 'One email: the message as sent and its timeline (opens and clicks marked human or machine)',
        params: ZTrackingIdParams,
        response: { 200: ZEnvelope(ZEmailLogDetail) },
      },
    },
    async (request) => {
      const found = await logs.findEmailLog(db, await scopeOf(db, request), request.params.trackingId);
      if (!found) throw AppError.notFound(logs.SEND_LOG_ERRORS.notFound);
      return ok(found);
    },
  );
};
