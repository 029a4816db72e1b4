// GET /api/audit-log/ (owners and admins) and its CSV download.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAuditFilter, ZAuditPage, ZAuditQuery, ZEnvelope } from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { exportAuditLog, listAuditLog } from './audit.service';

const tags = ['audit'];
const read = { business: true, permission: 'team.manage' } as const;

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/audit-log/',
    {
      config: read,
      schema: {
        tags,
        summary: "The business's audit log, newest first",
        querystring: ZAuditQuery,
        response: { 200: ZEnvelope(ZAuditPage) },
      },
    },
    async (request) => ok(await listAuditLog(db, businessOf(request).id, request.query)),
  );

  app.get(
    '/api/audit-log/download/',
    { config: read, schema: { tags, summary: 'The filtered audit log as CSV', querystring: ZAuditFilter } },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportAuditLog(db, businessOf(request).id, request.query)));
    },
  );
};
