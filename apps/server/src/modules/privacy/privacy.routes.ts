// A customer's export and erase (next-api.md "Campaigns and consent"):
// GET /api/business/customer-directory/{id}/export/ and POST …/{id}/erase/ (202, then 404).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEnvelope, ZIdParams } from '@titan/contracts';
import { ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { auditContextOf } from '../audit';
import { eraseCustomer, exportCustomer, type PrivacyDeps } from './privacy.service';

const tags = ['visitor directory'];
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/business/customer-directory/';

export const privacyRoutes: FastifyPluginAsyncZod<{ deps: PrivacyDeps }> = async (app, { deps }) => {
  app.get(
    `${base}:id/export/`,
    {
      config: write,
      schema: {
        tags,
        summary: 'Everything held on one customer, as JSON (GDPR art. 15)',
        params: ZIdParams,
        response: { 200: ZEnvelope(z.record(z.string(), z.unknown())) },
      },
    },
    async (request, reply) => {
      const data = await exportCustomer(deps, businessOf(request).id, request.params.id);
      reply.header('content-disposition', `attachment; filename="customer-${request.params.id}.json"`);
      return ok(data);
    },
  );
  app.post(
    `${base}:id/erase/`,
    {
      config: write,
      schema: {
        tags,
        summary:
          'Erase one customer and everything held on them (GDPR art. 17); their addresses stay suppressed, hashed',
        params: ZIdParams,
        response: { 202: ZEnvelope(z.null()) },
      },
    },
    async (request, reply) => {
      await eraseCustomer(deps, auditContextOf(request), request.params.id);
      reply.code(202);
      return { status: 202, message: 'Accepted', result: null };
    },
  );
};
