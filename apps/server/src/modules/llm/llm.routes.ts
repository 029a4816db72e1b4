// The business's AI model in Settings (engage.md §6): /api/config/llm/ (the key write-only) and a
// connection test that calls the model once.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZLlmSettings, ZLlmTestResult, ZSaveLlmSettingsRequest } from '@titan/contracts';
import { ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import * as llm from './llm.service';

const tags = ['llm'];
/** Whether AI features are available is for everyone in the engage area to know; changes are for admins. */
const read = { business: true, permission: 'engage.read' } as const;
const manage = { business: true, permission: 'business.update' } as const;

export const llmRoutes: FastifyPluginAsyncZod<{ deps: llm.LlmDeps }> = async (app, { deps }) => {
  app.get(
    '/api/config/llm/',
    {
      config: read,
      schema: {
        tags,
        summary: "The business's own model (never its key), and which model the AI features use",
        response: { 200: ZEnvelope(ZLlmSettings) },
      },
    },
    async (request) => ok(await llm.findLlmSettings(deps, businessOf(request).id)),
  );
  app.put(
    '/api/config/llm/',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Use an OpenAI-compatible model of its own (api_key: omitted keeps it, null removes it)',
        body: ZSaveLlmSettingsRequest,
        response: { 200: ZEnvelope(ZLlmSettings) },
      },
    },
    async (request) =>
      ok(await llm.saveLlmSettings(deps, businessOf(request).id, actorIdOf(request), request.body)),
  );
  app.delete(
    '/api/config/llm/',
    {
      config: manage,
      schema: {
        tags,
        summary: "Forget the business's own model (the server's is used, if any)",
        response: { 200: ZEnvelope(ZLlmSettings) },
      },
    },
    async (request) => ok(await llm.deleteLlmSettings(deps, businessOf(request).id)),
  );
  app.post(
    '/api/config/llm/test/',
    {
      config: { ...manage, rateLimit: { max: 10, timeWindow: '1 minute' }, openapi: { errors: [409] } },
      schema: {
        tags,
        summary: 'Call the model in use once: whether it answers, and what it says or why not',
        response: { 200: ZEnvelope(ZLlmTestResult) },
      },
    },
    async (request) => ok(await llm.testLlm(deps, businessOf(request).id, actorIdOf(request))),
  );
};
