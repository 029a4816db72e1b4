import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEnvelope, ZIdParams, ZLabel, ZLabelRequest, ZNoQuery, ZUpdateLabelRequest } from '@titan/contracts';
import type { Db } from '../../db/client';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import * as labels from './labels.service';

const tags = ['labels'];
/** Everyone in the inbox reads the labels (to put them on); owners and admins manage them. */
const read = { business: true, permission: 'inbox.use' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = '/api/msg/labels/';

export const labelRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    base,
    { config: read, schema: { tags, querystring: ZNoQuery, response: { 200: ZEnvelope(z.array(ZLabel)) } } },
    async (request) => ok(await labels.findLabels(db, businessOf(request).id)),
  );
  app.post(
    base,
    { config: write, schema: { tags, body: ZLabelRequest, response: { 201: ZEnvelope(ZLabel) } } },
    async (request, reply) =>
      created(reply, await labels.createLabel(db, businessOf(request).id, request.body)),
  );
  app.put(
    `${base}:id/`,
    {
      config: write,
      schema: { tags, params: ZIdParams, body: ZUpdateLabelRequest, response: { 200: ZEnvelope(ZLabel) } },
    },
    async (request) =>
      ok(await labels.updateLabel(db, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    `${base}:id/`,
    { config: write, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await labels.deleteLabel(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
};
