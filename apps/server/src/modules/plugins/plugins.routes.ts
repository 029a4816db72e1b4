// Plugins (engage.md §6): the catalogue (/api/plugins/) and the business's connections
// (/api/user-plugins/, by id, connect, and the OAuth callback the settings page posts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZConnectResult,
  ZEnvelope,
  ZOAuthCallbackRequest,
  ZPlugin,
  ZUserPlugin,
  ZUserPluginRequest,
  ZUserPluginUpdate,
  ZNoQuery,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import * as plugins from './plugins.service';

const tags = ['plugins'];
const read = { business: true, permission: 'engage.read' } as const;
const manage = { business: true, permission: 'business.update' } as const;
const ZId = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const pluginRoutes: FastifyPluginAsyncZod<{ deps: plugins.PluginDeps }> = async (app, { deps }) => {
  app.get(
    '/api/plugins/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'The plugin catalogue',
        response: { 200: ZEnvelope(z.array(ZPlugin)) },
      },
    },
    async () => ok(plugins.listPlugins(deps)),
  );
  app.get(
    '/api/user-plugins/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: "The business's plugin connections (never their keys)",
        response: { 200: ZEnvelope(z.array(ZUserPlugin)) },
      },
    },
    async (request) => ok(await plugins.listUserPlugins(deps, businessOf(request).id)),
  );
  app.post(
    '/api/user-plugins/',
    {
      config: { ...manage, openapi: { errors: [409] } },
      schema: {
        tags,
        summary:
          'Connect a plugin (api_key: at once; oauth2: then connect); a signing secret Titan makes is answered once',
        body: ZUserPluginRequest,
        response: { 201: ZEnvelope(ZUserPlugin) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await plugins.createUserPlugin(deps, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.post(
    '/api/user-plugins/callback/',
    {
      config: { ...manage, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Finish connecting an OAuth plugin: the code, state and iss the provider sent back',
        body: ZOAuthCallbackRequest,
        response: { 200: ZEnvelope(ZUserPlugin) },
      },
    },
    async (request) =>
      ok(
        await plugins.completeUserPluginOAuth(deps, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.get(
    '/api/user-plugins/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: 'One plugin connection',
        params: ZId,
        response: { 200: ZEnvelope(ZUserPlugin) },
      },
    },
    async (request) => ok(await plugins.getUserPlugin(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/user-plugins/:id/',
    {
      config: { ...manage, openapi: { errors: [409] } },
      schema: {
        tags,
        summary: 'Rename, change settings or the key',
        params: ZId,
        body: ZUserPluginUpdate,
        response: { 200: ZEnvelope(ZUserPlugin) },
      },
    },
    async (request) =>
      ok(await plugins.updateUserPlugin(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/user-plugins/:id/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Remove a plugin connection',
        params: ZId,
        response: { 200: ZEnvelope(z.null()) },
      },
    },
    async (request) => {
      await plugins.deleteUserPlugin(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.post(
    '/api/user-plugins/:id/connect/',
    {
      config: { ...manage, rateLimit: { max: 20, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Start OAuth for a plugin connection',
        params: ZId,
        response: { 200: ZEnvelope(ZConnectResult) },
      },
    },
    async (request) =>
      ok(
        await plugins.connectUserPlugin(deps, businessOf(request).id, actorIdOf(request), request.params.id),
      ),
  );
};
