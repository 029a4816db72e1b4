import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDirectoryQuery,
  ZDirectoryVisitor,
  ZEnvelope,
  ZIdParams,
  ZPage,
  ZUpdateDirectoryVisitorRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { businessOf } from '../auth/auth.guard';
import { scopeOf } from '../conversations/inbox-scope';
import * as consent from '../consent/consent.service';
import * as directory from './directory.service';

const tags = ['visitor directory'];
const read = { business: true, permission: 'inbox.use' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/business/customer-directory/';

export const directoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    base,
    {
      config: read,
      schema: { tags, querystring: ZDirectoryQuery, response: { 200: ZEnvelope(ZPage(ZDirectoryVisitor)) } },
    },
    async (request) => ok(await directory.findVisitors(db, await scopeOf(db, request), request.query)),
  );
  app.get(
    `${base}:id/`,
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZDirectoryVisitor) } } },
    async (request) => ok(await directory.findVisitor(db, await scopeOf(db, request), request.params.id)),
  );
  app.put(
    `${base}:id/`,
    {
      config: write,
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateDirectoryVisitorRequest,
        response: { 200: ZEnvelope(ZDirectoryVisitor) },
      },
    },
    async (request) =>
      ok(await consent.updateVisitorAndConsent(db, businessOf(request).id, request.params.id, request.body)),
  );
  // Extension to api.md: ends the visitor's chat sessions (revokes their visitor tokens).
  app.post(
    `${base}:id/end-session/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await directory.endVisitorSessions(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.delete(
    `${base}:id/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await directory.deleteVisitor(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
};
