import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBusinessCodeParams,
  ZConversationIdParams,
  ZCreatePublicConversationRequest,
  ZCreateVisitorRequest,
  ZEnvelope,
  ZGroupInfoParams,
  ZMessageListQuery,
  ZPublicChatInfo,
  ZPublicConversation,
  ZPublicMessage,
  ZPublicSendMessageRequest,
  ZUpdateVisitorRequest,
  ZUploadResult,
  ZVisitor,
  ZVisitorSession,
  ZNoQuery,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { readUpload, registerMultipart } from '../files';
import * as chat from './public-chat.service';

const tags = ['public chat'];
// Visitors authenticate with their own token (Authorization: Visitor …), not a staff session.
const config = { public: true } as const;
/** Public, but the visitor's session token is required (`Authorization: Visitor <token>`). */
const visitorConfig = { public: true, openapi: { visitor: true, errors: [429] } } as const;

function callerOf(request: FastifyRequest): chat.Caller {
  const origin = request.headers.origin;
  // "null" stays a value: an opaque origin is foreign, not absent (see Caller).
  return { ip: request.ip, origin: typeof origin === 'string' ? origin : null };
}

function visitorToken(request: FastifyRequest): string | undefined {
  const [scheme, token] = (request.headers.authorization ?? '').split(/\s+/, 2);
  return scheme?.toLowerCase() === 'visitor' ? token : undefined;
}

export const publicChatRoutes: FastifyPluginAsyncZod<{ deps: chat.PublicChatDeps }> = async (
  app,
  { deps },
) => {
  await registerMultipart(app);
  const visitorOf = (request: FastifyRequest) => chat.visitorFromToken(deps, visitorToken(request));

  app.get(
    '/api/public/business/:business_code/',
    { config, schema: { tags, params: ZBusinessCodeParams, response: { 200: ZEnvelope(ZPublicChatInfo) } } },
    async (request) => ok(await chat.chatInfo(deps, request.params.business_code, null, callerOf(request))),
  );

  app.get(
    '/api/public/chat-groups/:business_code/:group_slug/',
    { config, schema: { tags, params: ZGroupInfoParams, response: { 200: ZEnvelope(ZPublicChatInfo) } } },
    async (request) =>
      ok(
        await chat.chatInfo(deps, request.params.business_code, request.params.group_slug, callerOf(request)),
      ),
  );

  app.post(
    '/api/public/customers/',
    {
      config: { ...config, openapi: { errors: [404, 429] } },
      schema: { tags, body: ZCreateVisitorRequest, response: { 201: ZEnvelope(ZVisitorSession) } },
    },
    async (request, reply) => created(reply, await chat.createVisitor(deps, request.body, callerOf(request))),
  );

  app.get(
    '/api/public/customers/me/',
    {
      config: visitorConfig,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'The visitor’s own record (name, email)',
        response: { 200: ZEnvelope(ZVisitor) },
      },
    },
    async (request) => ok(await chat.findVisitorSelf(deps, await visitorOf(request), callerOf(request))),
  );

  app.put(
    '/api/public/customers/me/',
    {
      config: visitorConfig,
      schema: {
        tags,
        summary: 'The email a visitor leaves while nobody is online; the conversation goes on by email',
        body: ZUpdateVisitorRequest,
        response: { 200: ZEnvelope(ZVisitor) },
      },
    },
    async (request) =>
      ok(await chat.updateVisitorSelf(deps, await visitorOf(request), request.body, callerOf(request))),
  );

  app.get(
    '/api/public/conversations/',
    {
      config: visitorConfig,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'The visitor’s conversations',
        response: { 200: ZEnvelope(z.array(ZPublicConversation)) },
      },
    },
    async (request) =>
      ok(await chat.findVisitorConversations(deps, await visitorOf(request), callerOf(request))),
  );

  app.post(
    '/api/public/conversations/',
    {
      config: { ...visitorConfig, openapi: { errors: [404, 429] } },
      schema: {
        tags,
        body: ZCreatePublicConversationRequest,
        response: { 201: ZEnvelope(ZPublicConversation) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await chat.startVisitorConversation(deps, await visitorOf(request), request.body, callerOf(request)),
      ),
  );

  app.get(
    '/api/public/conversations/:id/messages/',
    {
      config: visitorConfig,
      schema: {
        tags,
        params: ZConversationIdParams,
        querystring: ZMessageListQuery,
        response: { 200: ZEnvelope(z.array(ZPublicMessage)) },
      },
    },
    async (request) =>
      ok(
        await chat.findVisitorMessages(
          deps,
          await visitorOf(request),
          request.params.id,
          request.query,
          callerOf(request),
        ),
      ),
  );

  app.post(
    '/api/public/conversations/:id/messages/',
    {
      config: visitorConfig,
      schema: {
        tags,
        params: ZConversationIdParams,
        body: ZPublicSendMessageRequest,
        response: { 201: ZEnvelope(ZPublicMessage) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await chat.sendVisitorMessage(
          deps,
          await visitorOf(request),
          request.params.id,
          request.body,
          callerOf(request),
        ),
      ),
  );

  app.post(
    '/api/public/upload/',
    {
      config: {
        ...config,
        openapi: {
          visitor: true,
          body: {
            'multipart/form-data': z.object({
              file: z.file(),
              conversation_id: z.coerce.number().int().positive(),
            }),
          },
          errors: [404, 413, 429],
        },
      },
      schema: {
        tags,
        summary: 'Visitor upload (multipart: file, conversation_id)',
        response: { 201: ZEnvelope(ZUploadResult) },
      },
    },
    async (request, reply) => {
      const visitor = await visitorOf(request);
      if (!request.isMultipart()) throw AppError.fields({ file: ['Send the file as multipart/form-data.'] });
      const { fields, file } = await readUpload(request.parts());
      const conversationId = Number(fields.conversation_id);
      const errors: Record<string, string[]> = {};
      if (!Number.isSafeInteger(conversationId) || conversationId <= 0)
        errors.conversation_id = ['This field is required.'];
      if (!file) errors.file = ['No file was submitted.'];
      if (Object.keys(errors).length > 0 || !file) throw AppError.fields(errors);
      return created(reply, await chat.visitorUpload(deps, visitor, conversationId, file, callerOf(request)));
    },
  );
};
