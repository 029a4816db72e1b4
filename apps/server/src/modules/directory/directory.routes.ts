import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDirectoryExportQuery,
  ZDirectoryPage,
  ZDirectoryQuery,
  ZDirectoryVisitor,
  ZEnvelope,
  ZIdParams,
  ZPage,
  ZPageQuery,
  ZUpdateDirectoryVisitorRequest,
  ZVisitorConversation,
  ZVisitorSend,
  ZVisitorSendsQuery,
} from '@titan/contracts';
import type {
  TDirectoryVisitor,
  TUpdateDirectoryVisitorRequest,
  TVisitorConversation,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import { type InboxScope, scopeOf } from '../../platform/inbox-scope';
import { findCustomerSends } from '../sends';
import { type ListSelection, prepareExport } from './directory.export';
import * as directory from './directory.service';

const tags = ['visitor directory'];
const read = { business: true, permission: 'inbox.use' } as const;
const write = { business: true, permission: 'engage.write' } as const;
/**
 * The whole audience with its addresses and consent leaves Titan in one file: owners and admins
 * (engage.write) only — not agents, not API keys. Still read through the caller's inbox scope.
 */
const exporter = write;
const sendsRead = { business: true, permission: 'engage.read' } as const;
const base = '/api/business/customer-directory/';

/**
 * What the directory's routes ask of modules built on it, handed in by the composition root
 * (app.ts): they all build on the directory, so it cannot import them.
 */
export type DirectoryRoutePorts = {
  /** PUT a customer: their details, and the consent changes recorded with them (consent). */
  updateVisitor: (
    db: Db,
    businessId: number,
    id: number,
    input: TUpdateDirectoryVisitorRequest,
  ) => Promise<TDirectoryVisitor>;
  /** What a list selects, for the export's `list_id`; 404 when the business has no such list (customer-lists). */
  listSelection: (db: Db, businessId: number, listId: number) => Promise<ListSelection>;
  /** A page of the conversations a customer started that the viewer may see (conversations). */
  customerConversations: (
    db: Db,
    scope: InboxScope,
    customerId: number,
    page: number,
    pageSize: number,
  ) => Promise<{
    count: number;
    next: number | null;
    previous: number | null;
    results: TVisitorConversation[];
  }>;
};

export const directoryRoutes: FastifyPluginAsyncZod<{ db: Db; ports: DirectoryRoutePorts }> = async (
  app,
  { db, ports },
) => {
  app.get(
    base,
    {
      config: read,
      schema: { tags, querystring: ZDirectoryQuery, response: { 200: ZEnvelope(ZDirectoryPage) } },
    },
    async (request) => ok(await directory.findVisitors(db, await scopeOf(db, request), request.query)),
  );
  // A static segment, so it wins over :id.
  app.get(
    `${base}download/`,
    {
      config: { ...exporter, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: {
        tags,
        summary: 'The directory, a search of it, or a list or segment (list_id) as CSV',
        querystring: ZDirectoryExportQuery,
      },
    },
    async (request, reply) => {
      const file = await prepareExport(db, await scopeOf(db, request), request.query, ports.listSelection);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(file.lines, { highWaterMark: 1 }));
    },
  );
  // Extension to engage.md: the visitor's page lists their conversations and the messages sent them.
  app.get(
    `${base}:id/conversations/`,
    {
      config: read,
      schema: {
        tags,
        params: ZIdParams,
        querystring: ZPageQuery,
        response: { 200: ZEnvelope(ZPage(ZVisitorConversation)) },
      },
    },
    async (request) => {
      const scope = await scopeOf(db, request);
      const visitor = await directory.findVisitor(db, scope, request.params.id);
      const { page, page_size } = request.query;
      return ok(await ports.customerConversations(db, scope, visitor.id, page, page_size));
    },
  );
  app.get(
    `${base}:id/sends/`,
    {
      config: sendsRead,
      schema: {
        tags,
        params: ZIdParams,
        querystring: ZVisitorSendsQuery,
        response: { 200: ZEnvelope(ZPage(ZVisitorSend)) },
      },
    },
    async (request) => {
      const scope = await scopeOf(db, request);
      const visitor = await directory.findVisitor(db, scope, request.params.id);
      return ok(await findCustomerSends(db, scope, visitor.id, request.query));
    },
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
      ok(await ports.updateVisitor(db, businessOf(request).id, request.params.id, request.body)),
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
