import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZConversation,
  ZConversationIdParams,
  ZConversationListQuery,
  ZEnvelope,
  ZMessage,
  ZMessageListQuery,
  ZPage,
  ZSendMessageRequest,
  ZUpdateConversationRequest,
} from '@titan/contracts';
import { created, ok, sendOkJson } from '../../platform/http';
import { actorIdOf } from '../auth';
import { scopeOf } from './inbox-scope';
import * as inbox from './conversations.service';

const tags = ['conversations'];
const config = { business: true, permission: 'inbox.use' } as const;

export const conversationRoutes: FastifyPluginAsyncZod<{ deps: inbox.InboxDeps }> = async (app, { deps }) => {
  app.get(
    '/api/msg/conversations/',
    {
      config,
      schema: {
        tags,
        querystring: ZConversationListQuery,
        response: { 200: ZEnvelope(ZPage(ZConversation)) },
      },
    },
    async (request, reply) =>
      sendOkJson(
        reply,
        await inbox.findConversations(deps.db, await scopeOf(deps.db, request), request.query),
      ),
  );

  app.get(
    '/api/msg/conversations/:id/',
    { config, schema: { tags, params: ZConversationIdParams, response: { 200: ZEnvelope(ZConversation) } } },
    async (request) =>
      ok(await inbox.findConversation(deps.db, await scopeOf(deps.db, request), request.params.id)),
  );

  app.put(
    '/api/msg/conversations/:id/',
    {
      config,
      schema: {
        tags,
        params: ZConversationIdParams,
        body: ZUpdateConversationRequest,
        response: { 200: ZEnvelope(ZConversation) },
      },
    },
    async (request) =>
      ok(
        await inbox.updateConversation(
          deps.db,
          await scopeOf(deps.db, request),
          request.params.id,
          request.body,
          deps.onConversationRead,
        ),
      ),
  );

  app.get(
    '/api/msg/conversations/:id/messages/',
    {
      config,
      schema: {
        tags,
        params: ZConversationIdParams,
        querystring: ZMessageListQuery,
        response: { 200: ZEnvelope(z.array(ZMessage)) },
      },
    },
    async (request) =>
      ok(await inbox.findMessages(deps, await scopeOf(deps.db, request), request.params.id, request.query)),
  );

  app.post(
    '/api/msg/conversations/:id/messages/',
    {
      config,
      schema: {
        tags,
        params: ZConversationIdParams,
        body: ZSendMessageRequest,
        response: { 201: ZEnvelope(ZMessage) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await inbox.sendStaffMessage(
          deps,
          await scopeOf(deps.db, request),
          actorIdOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
};
