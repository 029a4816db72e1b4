// Customer lists: /api/business/customer-lists/ (engage.md §3).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCreateCustomerListRequest,
  ZCustomerList,
  ZCustomerListQuery,
  ZCustomerListRef,
  ZDirectoryVisitor,
  ZEnvelope,
  ZIdParams,
  ZListMembersQuery,
  ZListMembersRequest,
  ZListMembersResult,
  ZNoQuery,
  ZPage,
  ZSegmentCount,
  ZSegmentCountRequest,
  ZUpdateCustomerListRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import type { DoubleOptInDeps } from '../consent';
import { scopeOf } from '../../platform/inbox-scope';
import * as lists from './customer-lists.service';

const tags = ['customer lists'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/business/customer-lists/';

export const customerListRoutes: FastifyPluginAsyncZod<{ db: Db; doubleOptIn: DoubleOptInDeps }> = async (
  app,
  { db, doubleOptIn },
) => {
  // Extension to engage.md (issue 29, the inbox's customer panel): the static lists a customer is
  // in, read as the directory reads them (inbox.use; agents only their inbox's people, else 404).
  app.get(
    '/api/business/customer-directory/:id/lists/',
    {
      config: { business: true, permission: 'inbox.use' },
      schema: {
        tags: ['visitor directory'],
        params: ZIdParams,
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(z.array(ZCustomerListRef)) },
      },
    },
    async (request) => ok(await lists.findListsOfCustomer(db, await scopeOf(db, request), request.params.id)),
  );
  app.get(
    base,
    {
      config: read,
      schema: { tags, querystring: ZCustomerListQuery, response: { 200: ZEnvelope(ZPage(ZCustomerList)) } },
    },
    async (request) => ok(await lists.findLists(db, businessOf(request).id, request.query)),
  );
  // The segment builder's live count: how many of the business's customers the rules match now
  // (400 on a list, label or topic that is not the business's).
  app.post(
    `${base}segments/count/`,
    {
      config: read,
      schema: { tags, body: ZSegmentCountRequest, response: { 200: ZEnvelope(ZSegmentCount) } },
    },
    async (request) => ok({ count: await lists.countRules(db, businessOf(request).id, request.body.rules) }),
  );
  app.post(
    base,
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: { tags, body: ZCreateCustomerListRequest, response: { 201: ZEnvelope(ZCustomerList) } },
    },
    async (request, reply) =>
      created(reply, await lists.createList(db, businessOf(request).id, request.body)),
  );
  app.get(
    `${base}:id/`,
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZCustomerList) } } },
    async (request) => ok(await lists.findList(db, businessOf(request).id, request.params.id)),
  );
  app.put(
    `${base}:id/`,
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateCustomerListRequest,
        response: { 200: ZEnvelope(ZCustomerList) },
      },
    },
    async (request) =>
      ok(await lists.updateList(db, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    `${base}:id/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await lists.deleteList(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.get(
    `${base}:id/members/`,
    {
      config: read,
      schema: {
        tags,
        params: ZIdParams,
        querystring: ZListMembersQuery,
        response: { 200: ZEnvelope(ZPage(ZDirectoryVisitor)) },
      },
    },
    async (request) =>
      ok(await lists.findMembers(db, await scopeOf(db, request), request.params.id, request.query)),
  );
  app.post(
    `${base}:id/members/`,
    {
      config: write,
      schema: {
        tags,
        params: ZIdParams,
        body: ZListMembersRequest,
        response: { 200: ZEnvelope(ZListMembersResult) },
      },
    },
    async (request) =>
      ok(
        await lists.addMembers(
          db,
          businessOf(request).id,
          request.params.id,
          request.body.customer_ids,
          doubleOptIn,
        ),
      ),
  );
  // Extension to engage.md: removing members takes the same body.
  app.post(
    `${base}:id/members/remove/`,
    {
      config: write,
      schema: {
        tags,
        params: ZIdParams,
        body: ZListMembersRequest,
        response: { 200: ZEnvelope(ZListMembersResult) },
      },
    },
    async (request) =>
      ok(await lists.removeMembers(db, businessOf(request).id, request.params.id, request.body.customer_ids)),
  );
};
