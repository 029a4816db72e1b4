// AI agents (engage.md §5): /api/agents/ CRUD and avatars, config versions, schedules, and the
// suggested agents. The send routes under /api/agents/ live in modules/email and modules/sms.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AGENT_AVATAR_LIMIT_BYTES,
  AGENT_ERRORS as M,
  ZAgent,
  ZAgentConfig,
  ZAgentConfigRequest,
  ZAgentSchedule,
  ZAgentScheduleRequest,
  ZCreateAgentRequest,
  ZEnvelope,
  ZIdParams,
  ZSuggestedAgent,
  ZUpdateAgentRequest,
  ZNoQuery,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { readUpload, registerMultipart } from '../files';
import * as agents from './agents.service';
import { suggestAgents } from './agents.suggestions';

const tags = ['agents'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;

export const agentRoutes: FastifyPluginAsyncZod<{ deps: agents.AgentsDeps }> = async (app, { deps }) => {
  await registerMultipart(app);

  app.get(
    '/api/agents/',
    { config: read, schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZAgent)) } } },
    async (request) => ok(await agents.findAgents(deps, businessOf(request).id)),
  );
  app.post(
    '/api/agents/',
    { config: write, schema: { tags, body: ZCreateAgentRequest, response: { 201: ZEnvelope(ZAgent) } } },
    async (request, reply) =>
      created(
        reply,
        await agents.createAgent(deps, businessOf(request).id, actorIdOf(request), request.body, request.id),
      ),
  );
  // A static segment: it wins over :id.
  app.get(
    '/api/agents/get-suggested-agents/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'Agents that fit what the business has, each with a ready draft config',
        response: { 200: ZEnvelope(z.array(ZSuggestedAgent)) },
      },
    },
    async (request) => ok(await suggestAgents(deps.db, businessOf(request).id)),
  );
  app.get(
    '/api/agents/:id/',
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZAgent) } } },
    async (request) => ok(await agents.findAgent(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/agents/:id/',
    {
      config: write,
      schema: { tags, params: ZIdParams, body: ZUpdateAgentRequest, response: { 200: ZEnvelope(ZAgent) } },
    },
    async (request) =>
      ok(await agents.updateAgent(deps, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/agents/:id/',
    {
      config: { ...write, openapi: { answers: { 204: { description: 'Deleted' } } } },
      schema: { tags, summary: 'Delete an agent', params: ZIdParams },
    },
    async (request, reply) => {
      await agents.deleteAgent(
        deps,
        businessOf(request).id,
        request.params.id,
        actorIdOf(request),
        request.id,
      );
      return reply.code(204).send();
    },
  );
  app.post(
    '/api/agents/:id/avatar/',
    {
      config: {
        ...write,
        rateLimit: { max: 30, timeWindow: '1 minute' },
        openapi: { body: { 'multipart/form-data': z.object({ file: z.file() }) }, errors: [413] },
      },
      bodyLimit: AGENT_AVATAR_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload the agent’s avatar (multipart: file), kept under agent_images/',
        consumes: ['multipart/form-data'],
        params: ZIdParams,
        response: { 200: ZEnvelope(ZAgent) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw AppError.fields({ file: [M.multipartOnly] });
      const { file } = await readUpload(
        request.parts({ limits: { fileSize: AGENT_AVATAR_LIMIT_BYTES + 1, files: 1 } }),
      );
      if (!file) throw AppError.fields({ file: [M.noFile] });
      return ok(await agents.uploadAvatar(deps, businessOf(request).id, request.params.id, file));
    },
  );
  app.post(
    '/api/agents/:id/update-agent-config/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Write the next config version (earlier versions never change)',
        params: ZIdParams,
        body: ZAgentConfigRequest,
        response: { 200: ZEnvelope(ZAgent) },
      },
    },
    async (request) =>
      ok(
        await agents.updateAgentConfig(
          deps,
          businessOf(request).id,
          request.params.id,
          actorIdOf(request),
          request.body,
        ),
      ),
  );
  app.get(
    '/api/agents/:id/config-versions/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'Every config version, newest first',
        params: ZIdParams,
        response: { 200: ZEnvelope(z.array(ZAgentConfig)) },
      },
    },
    async (request) => ok(await agents.findConfigVersions(deps, businessOf(request).id, request.params.id)),
  );
  app.get(
    '/api/agents/:id/schedule/',
    {
      config: read,
      schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZAgentSchedule.nullable()) } },
    },
    async (request) => ok(await agents.findSchedule(deps, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/agents/:id/schedule/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Set the schedule; next_run_at is computed in its time zone',
        params: ZIdParams,
        body: ZAgentScheduleRequest,
        response: { 200: ZEnvelope(ZAgentSchedule) },
      },
    },
    async (request) =>
      ok(await agents.putSchedule(deps, businessOf(request).id, request.params.id, request.body)),
  );
};
