import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBulkConversationRequest,
  ZBulkConversationResult,
  ZConversationCounts,
  ZConversationCountsQuery,
  ZConversation,
  ZConversationIdParams,
  ZConversationListQuery,
  ZEnvelope,
  ZMessage,
  ZMessageListQuery,
  ZPage,
  ZNoteRequest,
  ZSendMessageRequest,
  ZStartConversationRequest,
  ZStartedConversation,
  ZUpdateConversationRequest,
} from '@titan/contracts';
import { created, ok, sendOkJson } from '../../platform/http';
import { actorIdOf } from '../../platform/request-context';
import { scopeOf } from '../../platform/inbox-scope';
import * as inbox from './conversations.service';
import { addNote } from './notes.service';
import { startChannelConversation } from './start-conversation';

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
        await inbox.findConversations(
          deps.db,
          await scopeOf(deps.db, request),
          request.query,
          actorIdOf(request),
        ),
      ),
  );

  // Staff start a conversation on email or SMS: its first message leaves as a reply does.
  app.post(
    '/api/msg/conversations/',
    {
      config: { ...config, openapi: { errors: [402, 404, 409, 503] } },
      schema: {
        tags,
        summary: 'Start an email or SMS conversation',
        body: ZStartConversationRequest,
        response: { 200: ZEnvelope(ZStartedConversation), 201: ZEnvelope(ZStartedConversation) },
      },
    },
    async (request, reply) => {
      const { started, created: isNew } = await startChannelConversation(
        deps,
        await scopeOf(deps.db, request),
        actorIdOf(request),
        request.body,
      );
      return isNew ? created(reply, started) : ok(started);
    },
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
      config: { ...config, openapi: { errors: [409] } },
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
          deps,
          await scopeOf(deps.db, request),
          request.params.id,
          request.body,
          deps.onConversationRead,
          actorIdOf(request),
        ),
      ),
  );

  // The sidebar's views: all, mine, unassigned, per assignee and per chat group.
  app.get(
    '/api/msg/conversations/counts/',
    {
      config,
      schema: {
        tags,
        querystring: ZConversationCountsQuery,
        response: { 200: ZEnvelope(ZConversationCounts) },
      },
    },
    async (request) =>
      ok(
        await inbox.countConversationViews(
          deps.db,
          await scopeOf(deps.db, request),
          actorIdOf(request),
          request.query.status,
        ),
      ),
  );

  app.post(
    '/api/msg/conversations/bulk/',
    {
      config,
      schema: {
        tags,
        body: ZBulkConversationRequest,
        response: { 200: ZEnvelope(ZBulkConversationResult) },
      },
    },
    async (request) =>
      ok(
        await inbox.bulkUpdateConversations(
          deps,
          await scopeOf(deps.db, request),
          request.body,
          actorIdOf(request),
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
      ok(
        await inbox.findMessages(
          deps,
          await scopeOf(deps.db, request),
          request.params.id,
          request.query,
          'staff',
        ),
      ),
  );

  app.post(
    '/api/msg/conversations/:id/messages/',
    {
      config: { ...config, openapi: { errors: [402, 409, 503] } },
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

  // A private note: staff alone ever see it (never a send, never in a visitor's payload).
  app.post(
    '/api/msg/conversations/:id/notes/',
    {
      config,
      schema: {
        tags,
        params: ZConversationIdParams,
        body: ZNoteRequest,
        response: { 201: ZEnvelope(ZMessage) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await addNote(
          deps,
          await scopeOf(deps.db, request),
          actorIdOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
};
