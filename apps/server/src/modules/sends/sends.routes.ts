// The event logs of the channels whose modules come later (email, SMS): the same query, filters,
// shapes and CSV stream as `/api/whatsapp/events/`; they answer empty until their channel sends.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZEmailLog,
  ZEmailLogDetail,
  ZEmailLogFilter,
  ZEmailLogListQuery,
  ZEnvelope,
  ZPage,
  ZTrackingIdParams,
  ZWhatsappLog,
  ZWhatsappLogDetail,
  ZWhatsappLogFilter,
  ZWhatsappLogListQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { SendChannel } from './sends.repository';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { scopeOf } from '../conversations/inbox-scope';
import * as logs from './sends.logs';

const read = { business: true, permission: 'engage.read' } as const;

// Email has its own shapes (email-logs contract): registered below.
const CHANNELS: { channel: SendChannel; path: string }[] = [{ channel: 'sms', path: 'sms' }];

export const sendLogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  for (const { channel, path } of CHANNELS) {
    const tags = [path];
    app.get(
      `/api/${path}/events/`,
      {
        config: read,
        schema: {
          tags,
          querystring: ZWhatsappLogListQuery,
          response: { 200: ZEnvelope(ZPage(ZWhatsappLog)) },
        },
      },
      async (request) => ok(await logs.findSendLogs(db, channel, await scopeOf(db, request), request.query)),
    );
    // A static segment, so it wins over :trackingId.
    app.get(
      `/api/${path}/events/download/`,
      {
        config: read,
        schema: { tags, summary: 'The filtered sends as CSV', querystring: ZWhatsappLogFilter },
      },
      async (request, reply) => {
        const scope = await scopeOf(db, request);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${logs.exportFileName(channel)}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(logs.exportSendLogs(db, channel, scope, request.query)));
      },
    );
    app.get(
      `/api/${path}/events/:trackingId/`,
      {
        config: read,
        schema: { tags, params: ZTrackingIdParams, response: { 200: ZEnvelope(ZWhatsappLogDetail) } },
      },
      async (request) => {
        const found = await logs.findSendLog(
          db,
          channel,
          await scopeOf(db, request),
          request.params.trackingId,
        );
        if (!found) throw AppError.notFound(logs.SEND_LOG_MESSAGES.notFound);
        return ok({ ...found.log, request: found.request, response: found.response, events: found.events });
      },
    );
  }

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
    { config: read, schema: { tags, summary: 'The filtered emails as CSV', querystring: ZEmailLogFilter } },
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
      if (!found) throw AppError.notFound(logs.SEND_LOG_MESSAGES.notFound);
      return ok(found);
    },
  );
};
