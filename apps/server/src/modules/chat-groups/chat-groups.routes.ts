import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZAddChatGroupUserRequest,
  ZChatGroupSettings,
  ZChatGroupUser,
  ZChatGroupUserParams,
  ZEnvelope,
  ZIdParams,
  ZSaveChatGroupRequest,
  ZUpdateChatGroupRequest,
  ZUpdateWidgetSettingsRequest,
  ZWidgetSettings,
  ZNoQuery,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import * as groups from './chat-groups.service';
import * as widget from './widget-settings.service';

const tags = ['chat groups'];
const read = { business: true, permission: 'inbox.use' } as const;
const manage = { business: true, permission: 'team.manage' } as const;

export const chatGroupRoutes: FastifyPluginAsyncZod<{ db: Db; secrets: SecretBox }> = async (
  app,
  { db, secrets },
) => {
  app.get(
    '/api/msg/widget-settings/',
    { config: manage, schema: { tags, response: { 200: ZEnvelope(ZWidgetSettings) } } },
    async (request) => ok(await widget.findWidgetSettings(db, secrets, businessOf(request).id)),
  );
  app.put(
    '/api/msg/widget-settings/',
    {
      config: manage,
      schema: { tags, body: ZUpdateWidgetSettingsRequest, response: { 200: ZEnvelope(ZWidgetSettings) } },
    },
    async (request) =>
      ok(await widget.updateWidgetSettings(db, secrets, businessOf(request).id, request.body)),
  );
  app.post(
    '/api/msg/widget-settings/rotate-secret/',
    { config: manage, schema: { tags, response: { 200: ZEnvelope(ZWidgetSettings) } } },
    async (request) => ok(await widget.rotateIdentitySecret(db, secrets, businessOf(request).id)),
  );

  app.get(
    '/api/msg/chat-groups/',
    {
      config: read,
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZChatGroupSettings)) } },
    },
    async (request) => ok(await groups.findChatGroups(db, businessOf(request).id)),
  );
  app.post(
    '/api/msg/chat-groups/',
    {
      config: manage,
      schema: { tags, body: ZSaveChatGroupRequest, response: { 201: ZEnvelope(ZChatGroupSettings) } },
    },
    async (request, reply) =>
      created(reply, await groups.createChatGroup(db, businessOf(request).id, request.body)),
  );
  app.get(
    '/api/msg/chat-groups/:id/',
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZChatGroupSettings) } } },
    async (request) => ok(await groups.findChatGroup(db, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/msg/chat-groups/:id/',
    {
      config: manage,
      schema: {
        tags,
        params: ZIdParams,
        body: ZUpdateChatGroupRequest,
        response: { 200: ZEnvelope(ZChatGroupSettings) },
      },
    },
    async (request) =>
      ok(await groups.updateChatGroup(db, businessOf(request).id, request.params.id, request.body)),
  );
  app.delete(
    '/api/msg/chat-groups/:id/',
    { config: manage, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(z.null()) } } },
    async (request) => {
      await groups.deleteChatGroup(db, businessOf(request).id, request.params.id);
      return ok(null);
    },
  );
  app.get(
    '/api/msg/chat-groups/:id/users/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        params: ZIdParams,
        response: { 200: ZEnvelope(z.array(ZChatGroupUser)) },
      },
    },
    async (request) => ok(await groups.findChatGroupUsers(db, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/msg/chat-groups/:id/users/',
    {
      config: manage,
      schema: {
        tags,
        params: ZIdParams,
        body: ZAddChatGroupUserRequest,
        response: { 201: ZEnvelope(ZChatGroupUser) },
      },
    },
    async (request, reply) =>
      created(
        reply,
        await groups.addChatGroupUser(db, businessOf(request).id, request.params.id, request.body.user_id),
      ),
  );
  app.get(
    '/api/msg/chat-groups/:id/users/:userId/',
    {
      config: read,
      schema: { tags, params: ZChatGroupUserParams, response: { 200: ZEnvelope(ZChatGroupUser) } },
    },
    async (request) =>
      ok(
        await groups.findChatGroupUser(db, businessOf(request).id, request.params.id, request.params.userId),
      ),
  );
  app.delete(
    '/api/msg/chat-groups/:id/users/:userId/',
    {
      config: manage,
      schema: { tags, params: ZChatGroupUserParams, response: { 200: ZEnvelope(z.null()) } },
    },
    async (request) => {
      await groups.removeChatGroupUser(db, businessOf(request).id, request.params.id, request.params.userId);
      return ok(null);
    },
  );
};
