// /api/notifications/ (next-api.md "Team inbox"): the caller's own notifications in the business
// named by X-Business-Code, their preferences and their browsers' push subscriptions. Members
// only (an API key is no member: 403), with the inbox permission.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NOTIFICATION_ERRORS,
  ZEnvelope,
  ZNotificationListQuery,
  ZNotificationPage,
  ZNotificationPreferences,
  ZNotificationPreferencesUpdate,
  ZNotificationReadRequest,
  ZNotificationReadResult,
  ZPushSetup,
  ZPushSubscription,
  ZPushSubscriptionDelete,
  ZPushSubscriptionRequest,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { businessOf, userIdOf } from '../../platform/request-context';
import * as repo from './notifications.repository';
import { vapidKeys } from './notifications.push';
import {
  getPreferences,
  listNotifications,
  markRead,
  type NotificationDeps,
  updatePreferences,
} from './notifications.service';

const tags = ['notifications'];
const member = { business: true, permission: 'inbox.use' } as const;

/** The caller's sign-in (members only: userIdOf refuses API keys). */
const sessionOf = (request: FastifyRequest) => {
  userIdOf(request);
  return (request.auth as { sessionId: string }).sessionId;
};

export const notificationRoutes: FastifyPluginAsyncZod<{ deps: NotificationDeps }> = async (
  app,
  { deps },
) => {
  const { db } = deps;

  app.get(
    '/api/notifications/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Your notifications, newest first (`unread=true`: only unread), with your unread count',
        querystring: ZNotificationListQuery,
        response: { 200: ZEnvelope(ZNotificationPage) },
      },
    },
    async (request) =>
      ok(await listNotifications(db, businessOf(request).id, userIdOf(request), request.query)),
  );

  app.post(
    '/api/notifications/read/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Marks your notifications read: `{ids}` or `{all: true}`',
        body: ZNotificationReadRequest,
        response: { 200: ZEnvelope(ZNotificationReadResult) },
      },
    },
    async (request) => ok(await markRead(db, businessOf(request).id, userIdOf(request), request.body)),
  );

  app.get(
    '/api/notifications/preferences/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Where each kind of notification reaches you (in the app, by push, by email)',
        response: { 200: ZEnvelope(ZNotificationPreferences) },
      },
    },
    async (request) => ok(await getPreferences(db, businessOf(request).id, userIdOf(request))),
  );

  app.put(
    '/api/notifications/preferences/',
    {
      config: member,
      schema: {
        tags,
        summary: 'Changes where kinds of notification reach you (the types sent; others stay)',
        body: ZNotificationPreferencesUpdate,
        response: { 200: ZEnvelope(ZNotificationPreferences) },
      },
    },
    async (request) =>
      ok(await updatePreferences(db, businessOf(request).id, userIdOf(request), request.body)),
  );

  app.get(
    '/api/notifications/push-subscriptions/',
    {
      config: member,
      schema: {
        tags,
        summary: "The VAPID public key to subscribe with, and your browsers' push subscriptions",
        response: { 200: ZEnvelope(ZPushSetup) },
      },
    },
    async (request) => {
      const [keys, rows] = await Promise.all([
        vapidKeys(deps),
        repo.listPushSubscriptions(db, businessOf(request).id, userIdOf(request)),
      ]);
      return ok({
        vapid_public_key: keys.publicKey,
        subscriptions: rows.map((r) => ({
          id: r.id,
          endpoint: r.endpoint,
          created_at: r.createdAt.toISOString(),
        })),
      });
    },
  );

  app.post(
    '/api/notifications/push-subscriptions/',
    {
      config: member,
      schema: {
        tags,
        summary: "Registers this browser's push subscription (ends with this sign-in)",
        body: ZPushSubscriptionRequest,
        response: { 201: ZEnvelope(ZPushSubscription) },
      },
    },
    async (request, reply) => {
      const row = await repo.upsertPushSubscription(db, {
        businessId: businessOf(request).id,
        userId: userIdOf(request),
        sessionId: sessionOf(request),
        endpoint: request.body.endpoint,
        p256dh: request.body.keys.p256dh,
        auth: request.body.keys.auth,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
      });
      return created(reply, { id: row.id, endpoint: row.endpoint, created_at: row.createdAt.toISOString() });
    },
  );

  app.delete(
    '/api/notifications/push-subscriptions/',
    {
      config: member,
      schema: {
        tags,
        summary: "Removes one of your browsers' push subscriptions (by endpoint)",
        body: ZPushSubscriptionDelete,
        response: { 200: ZEnvelope(z.object({ deleted: z.number().int() })) },
      },
    },
    async (request) => {
      const deleted = await repo.deletePushSubscription(db, {
        businessId: businessOf(request).id,
        userId: userIdOf(request),
        endpoint: request.body.endpoint,
      });
      if (deleted === 0) {
        throw new AppError('not_found', NOTIFICATION_ERRORS.noSubscription, {
          endpoint: [NOTIFICATION_ERRORS.noSubscription],
        });
      }
      return ok({ deleted });
    },
  );
};
