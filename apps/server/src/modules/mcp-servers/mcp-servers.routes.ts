// MCP servers in Settings (engage.md §6): /api/config/mcp-servers/ — register, connect with OAuth
// (the callback page posts code, state and iss with the person's session), tools, remove — and the
// client metadata document Titan publishes as its OAuth client id.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZConnectResult,
  ZEnvelope,
  ZExternalToolInfo,
  ZMcpServer,
  ZMcpServerRequest,
  ZMcpServerUpdate,
  ZOAuthCallbackRequest,
  ZNoQuery,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import * as mcp from './mcp-servers.service';
import * as connection from './mcp-servers.connection';
import * as oauth from './mcp-servers.oauth';

const tags = ['mcp-servers'];
const read = { business: true, permission: 'engage.read' } as const;
const manage = { business: true, permission: 'business.update' } as const;
const ZId = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const mcpServerRoutes: FastifyPluginAsyncZod<{ deps: connection.McpDeps }> = async (app, { deps }) => {
  app.get(
    connection.CLIENT_METADATA_PATH,
    {
      config: {
        public: true,
        openapi: { answers: { 200: { description: 'The metadata document', content: 'application/json' } } },
      },
      schema: { tags, summary: "Titan's OAuth client metadata document (its URL is the client id)" },
    },
    async () => connection.clientMetadataDocument(deps),
  );
  app.get(
    '/api/config/mcp-servers/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: "The business's MCP servers (never their tokens)",
        response: { 200: ZEnvelope(z.array(ZMcpServer)) },
      },
    },
    async (request) => ok(await mcp.listMcpServers(deps, businessOf(request).id)),
  );
  app.post(
    '/api/config/mcp-servers/',
    {
      config: { ...manage, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary:
          'Register an MCP server (auth none or bearer: connected and its tools listed at once; oauth: then connect)',
        body: ZMcpServerRequest,
        response: { 201: ZEnvelope(ZMcpServer) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await mcp.createMcpServer(deps, businessOf(request).id, actorIdOf(request), request.body),
      ),
  );
  app.post(
    '/api/config/mcp-servers/callback/',
    {
      config: { ...manage, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Finish connecting: the code, state and iss the authorization server sent back',
        body: ZOAuthCallbackRequest,
        response: { 200: ZEnvelope(ZMcpServer) },
      },
    },
    async (request) =>
      ok(await oauth.completeMcpOAuth(deps, businessOf(request).id, actorIdOf(request), request.body)),
  );
  app.get(
    '/api/config/mcp-servers/:id/',
    {
      config: read,
      schema: { tags, summary: 'One MCP server', params: ZId, response: { 200: ZEnvelope(ZMcpServer) } },
    },
    async (request) => ok(await mcp.getMcpServer(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/config/mcp-servers/:id/',
    {
      config: { ...manage, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Change an MCP server (a new URL, auth or token connects it again)',
        params: ZId,
        body: ZMcpServerUpdate,
        response: { 200: ZEnvelope(ZMcpServer) },
      },
    },
    async (request) =>
      ok(await mcp.updateMcpServer(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/config/mcp-servers/:id/',
    {
      config: manage,
      schema: { tags, summary: 'Remove an MCP server', params: ZId, response: { 200: ZEnvelope(z.null()) } },
    },
    async (request) => {
      await mcp.deleteMcpServer(deps, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.post(
    '/api/config/mcp-servers/:id/connect/',
    {
      config: { ...manage, rateLimit: { max: 20, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Start OAuth: where to send the person to authorize Titan',
        params: ZId,
        response: { 200: ZEnvelope(ZConnectResult) },
      },
    },
    async (request) =>
      ok(await oauth.connectMcpServer(deps, businessOf(request).id, actorIdOf(request), request.params.id)),
  );
  app.get(
    '/api/config/mcp-servers/:id/tools/',
    {
      config: { ...read, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: "The server's tools as cached (refresh=true lists them again)",
        params: ZId,
        querystring: z.strictObject({ refresh: z.enum(['true', 'false']).optional() }),
        response: { 200: ZEnvelope(z.array(ZExternalToolInfo)) },
      },
    },
    async (request) =>
      ok(
        await mcp.mcpServerTools(
          deps,
          businessOf(request).id,
          request.params.id,
          request.query.refresh === 'true',
        ),
      ),
  );
};
