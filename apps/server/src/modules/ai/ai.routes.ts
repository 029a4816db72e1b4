// The staff copilot (POST /api/ai/suggest-reply/, /api/ai/rewrite/, /api/ai/summarize/) and the AI
// runs behind every AI answer (GET /api/ai/runs/{id}/). Everyone who may reply in the inbox may use
// the copilot, on the conversations their scope shows them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAiArticleDraft,
  ZAiArticleDraftRequest,
  ZAiAskAnswer,
  ZAiAskRequest,
  ZAiConversationRequest,
  ZAiCopilotAnswer,
  ZAiRateRequest,
  ZAiReport,
  ZAiReportQuery,
  ZAiRewriteRequest,
  ZAiRun,
  ZAiRunList,
  ZAiRunListQuery,
  ZEnvelope,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { businessOf, userIdOf } from '../../platform/request-context';
import { scopeOf } from '../../platform/inbox-scope';
import { draftArticleFromReply } from './ai.articles';
import * as copilot from './ai.copilot';
import * as ratings from './ai.ratings';
import type { AiDeps } from './ai.deps';

const tags = ['ai'];
/** Drafting a reply is part of replying: the inbox's permission. */
const reply = {
  business: true,
  permission: 'inbox.use',
  rateLimit: { max: 60, timeWindow: '1 minute' },
} as const;
const read = { business: true, permission: 'engage.read' } as const;
/** Writing the knowledge base (a draft article) is engage.write's, as POST /api/kb/articles/. */
const writeKb = {
  business: true,
  permission: 'engage.write',
  rateLimit: { max: 60, timeWindow: '1 minute' },
} as const;

export const aiRoutes: FastifyPluginAsyncZod<{ deps: AiDeps }> = async (app, { deps }) => {
  app.post(
    '/api/ai/suggest-reply/',
    {
      config: { ...reply, openapi: { errors: [404, 409, 502, 503, 504] } },
      schema: {
        tags,
        summary: 'A reply to the customer grounded in the published articles, for staff to edit (never sent)',
        body: ZAiConversationRequest,
        response: { 200: ZEnvelope(ZAiCopilotAnswer) },
      },
    },
    async (request) =>
      ok(
        await copilot.suggestReply(
          deps,
          await scopeOf(deps.db, request),
          userIdOf(request),
          request.body.conversation_id,
        ),
      ),
  );
  app.post(
    '/api/ai/summarize/',
    {
      config: { ...reply, openapi: { errors: [404, 409, 502, 503, 504] } },
      schema: {
        tags,
        summary: 'A short summary of a conversation for staff',
        body: ZAiConversationRequest,
        response: { 200: ZEnvelope(ZAiCopilotAnswer) },
      },
    },
    async (request) =>
      ok(
        await copilot.summarize(
          deps,
          await scopeOf(deps.db, request),
          userIdOf(request),
          request.body.conversation_id,
        ),
      ),
  );
  app.post(
    '/api/ai/ask/',
    {
      config: { ...reply, openapi: { errors: [404, 502, 503, 504] } },
      schema: {
        tags,
        summary:
          "Answer a staff member's question from the published articles and the conversation, with its sources (without a configured model: the matching articles and why there is no answer)",
        body: ZAiAskRequest,
        response: { 200: ZEnvelope(ZAiAskAnswer) },
      },
    },
    async (request) =>
      ok(await copilot.ask(deps, await scopeOf(deps.db, request), userIdOf(request), request.body)),
  );
  app.post(
    '/api/ai/article-drafts/',
    {
      config: { ...writeKb, openapi: { errors: [404, 409, 502, 503, 504] } },
      schema: {
        tags,
        summary:
          "Turn a staff reply into a draft help-centre article (written by the business's model when one is configured; otherwise the reply as written, said plainly)",
        body: ZAiArticleDraftRequest,
        response: { 201: ZEnvelope(ZAiArticleDraft) },
      },
    },
    async (request, response) =>
      created(
        response,
        await draftArticleFromReply(deps, await scopeOf(deps.db, request), userIdOf(request), request.body),
      ),
  );
  app.post(
    '/api/ai/rewrite/',
    {
      config: { ...reply, openapi: { errors: [409, 502, 503, 504] } },
      schema: {
        tags,
        summary: 'Improve, shorten or translate a draft reply',
        body: ZAiRewriteRequest,
        response: { 200: ZEnvelope(ZAiCopilotAnswer) },
      },
    },
    async (request) =>
      ok(await copilot.rewrite(deps, businessOf(request).id, userIdOf(request), request.body)),
  );
  app.get(
    '/api/ai/runs/',
    {
      config: read,
      schema: {
        tags,
        summary:
          "A conversation's AI runs, newest first: every answer the first responder gave or handoff it made, and copilot calls",
        querystring: ZAiRunListQuery,
        response: { 200: ZEnvelope(ZAiRunList) },
      },
    },
    async (request) =>
      ok({
        results: await copilot.listRuns(deps, await scopeOf(deps.db, request), request.query.conversation_id),
      }),
  );
  app.get(
    '/api/ai/runs/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: 'An AI run: its steps (retrieval hits with scores, model calls), tokens and outcome',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: ZEnvelope(ZAiRun) },
      },
    },
    async (request) =>
      ok(await copilot.findRun(deps, await scopeOf(deps.db, request), userIdOf(request), request.params.id)),
  );
  app.put(
    '/api/ai/runs/:id/rating/',
    {
      config: { ...reply, openapi: { errors: [404, 409] } },
      schema: {
        tags,
        summary:
          "Rate a first responder's answer or handoff good or bad, with a reason (null takes the rating back)",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: ZAiRateRequest,
        response: { 200: ZEnvelope(ZAiRun) },
      },
    },
    async (request) =>
      ok(
        await ratings.rateRun(
          deps,
          await scopeOf(deps.db, request),
          userIdOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.get(
    '/api/ai/report/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'How the first responder did over a period (default: the last 30 days): answers, handoffs by reason, staff ratings, tokens, and the newest answers rated bad',
        querystring: ZAiReportQuery,
        response: { 200: ZEnvelope(ZAiReport) },
      },
    },
    async (request) => ok(await ratings.responderReport(deps, businessOf(request).id, request.query)),
  );
};
