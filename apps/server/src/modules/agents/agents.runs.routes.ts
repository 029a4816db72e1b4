// The agents' runs (engage.md §5): run logs per agent and channel, one run with its steps and
// deliveries, the review queue (approve / reject), preview (a dry run on sample recipients), run
// now, and the tools an agent may use.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAgentPreviewRequest,
  ZAgentPreviewResult,
  ZAgentReviewRequest,
  ZAgentReviewResult,
  ZAgentRun,
  ZAgentRunDetailQuery,
  ZAgentRunListQuery,
  ZAgentRunNowRequest,
  ZAgentRunNowResult,
  ZAgentRunSummary,
  ZAgentToolInfo,
  ZEnvelope,
  ZIdParams,
  ZPage,
  ZNoQuery,
} from '@titan/contracts';
import { ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { scopeOf } from '../../platform/inbox-scope';
import { listExternalTools } from '../outside-tools';
import * as runs from './runs/service';
import * as runReads from './runs/read-model';
import type { AgentRunDeps } from './runs/deps';
import { toolInfos } from './agents.tools';

const tags = ['agents'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;

const ZRunParams = ZIdParams.extend({
  runId: z.uuid({ message: 'Run not found.' }),
});

export const agentRunRoutes: FastifyPluginAsyncZod<{ deps: AgentRunDeps }> = async (app, { deps }) => {
  // A static segment: it wins over :id.
  app.get(
    '/api/agents/tools/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'The tools an agent may use: Titan’s built-ins and the connected MCP servers’ and plugins’',
        response: { 200: ZEnvelope(z.array(ZAgentToolInfo)) },
      },
    },
    async (request) => ok(toolInfos(await listExternalTools(deps.external, businessOf(request).id))),
  );
  app.get(
    '/api/agents/:id/runs/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The agent’s runs, newest first (filter by channel, status, trigger)',
        params: ZIdParams,
        querystring: ZAgentRunListQuery,
        response: { 200: ZEnvelope(ZPage(ZAgentRunSummary)) },
      },
    },
    async (request) =>
      ok(await runReads.listAgentRuns(deps, businessOf(request).id, request.params.id, request.query)),
  );
  app.get(
    '/api/agents/:id/runs/:runId/',
    {
      config: read,
      schema: {
        tags,
        summary: 'One run: counts, steps and deliveries (paged together)',
        params: ZRunParams,
        querystring: ZAgentRunDetailQuery,
        response: { 200: ZEnvelope(ZAgentRun) },
      },
    },
    async (request) =>
      ok(
        await runReads.findAgentRun(
          deps,
          await scopeOf(deps.db, request),
          request.params.id,
          request.params.runId,
          request.query,
        ),
      ),
  );
  for (const [path, action] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.post(
      `/api/agents/:id/runs/:runId/${path}/`,
      {
        config: { ...write, openapi: { errors: [409] } },
        schema: {
          tags,
          summary:
            action === 'approved'
              ? 'Approve deliveries waiting for approval ({delivery_ids} or {all: true}); they become sends'
              : 'Reject deliveries waiting for approval ({delivery_ids} or {all: true})',
          params: ZRunParams,
          body: ZAgentReviewRequest,
          response: { 200: ZEnvelope(ZAgentReviewResult) },
        },
      },
      async (request) =>
        ok(
          await runs.reviewRun(
            deps,
            businessOf(request).id,
            request.params.id,
            request.params.runId,
            actorIdOf(request),
            action,
            request.body,
          ),
        ),
    );
  }
  app.post(
    '/api/agents/:id/preview/',
    {
      config: { ...write, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary:
          'A dry run on up to 20 recipients: what would be sent to whom, rendered (409 without a model)',
        params: ZIdParams,
        body: ZAgentPreviewRequest,
        response: { 200: ZEnvelope(ZAgentPreviewResult) },
      },
    },
    async (request) =>
      ok(
        await runs.previewAgent(
          deps,
          businessOf(request).id,
          request.params.id,
          actorIdOf(request),
          request.body,
        ),
      ),
  );
  app.post(
    '/api/agents/:id/run-now/',
    {
      config: { ...write, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Start a manual run on every channel (or one); 202 with the runs (409 without a model)',
        params: ZIdParams,
        body: ZAgentRunNowRequest.optional(),
        response: { 202: ZEnvelope(ZAgentRunNowResult) },
      },
    },
    async (request, reply) => {
      const result = await runs.runNow(
        deps,
        businessOf(request).id,
        request.params.id,
        actorIdOf(request),
        request.body ?? {},
      );
      reply.code(202);
      return { status: 202, message: 'Accepted', result };
    },
  );
};
