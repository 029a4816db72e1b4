import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEnvelope,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZLoginAnswer,
  ZLogoutRequest,
  ZRefreshRequest,
  ZRegisterRequest,
  ZResendVerificationRequest,
  ZResetPasswordRequest,
  ZChangePasswordRequest,
  ZTokenPair,
  ZUpdateProfileRequest,
  ZUser,
  ZVerifyEmailRequest,
  ZProfile,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { userIdOf } from '../../platform/request-context';
import * as auth from './auth.service';

const ZNull = ZEnvelope(z.null());
const tags = ['auth'];

export function clientOf(request: FastifyRequest): auth.ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null, requestId: request.id };
}

export const authRoutes: FastifyPluginAsyncZod<{ deps: auth.AuthDeps }> = async (app, { deps }) => {
  app.post(
    '/api/auth/register/',
    {
      config: { public: true },
      schema: { tags, body: ZRegisterRequest, response: { 201: ZEnvelope(z.object({ user: ZUser })) } },
    },
    async (request, reply) =>
      created(reply, { user: await auth.register(deps, request.body, clientOf(request)) }),
  );

  app.post(
    '/api/auth/register/verify-email/',
    {
      config: { public: true },
      schema: { tags, body: ZVerifyEmailRequest, response: { 200: ZEnvelope(z.object({ user: ZUser })) } },
    },
    async (request) => ok({ user: await auth.verifyEmail(deps, request.body.key, clientOf(request)) }),
  );

  app.post(
    '/api/auth/register/resend-verification/',
    {
      config: { public: true },
      schema: { tags, body: ZResendVerificationRequest, response: { 200: ZNull } },
    },
    async (request) => {
      await auth.resendVerification(deps, request.body.email, clientOf(request));
      return ok(null);
    },
  );

  app.post(
    '/api/auth/login/',
    {
      config: { public: true, openapi: { errors: [403, 429] } },
      schema: { tags, body: ZLoginRequest, response: { 200: ZEnvelope(ZLoginAnswer) } },
    },
    async (request) => ok(await auth.login(deps, request.body, clientOf(request))),
  );

  app.post(
    '/api/auth/refresh/',
    {
      config: { public: true, openapi: { errors: [401] } },
      schema: { tags, body: ZRefreshRequest, response: { 200: ZEnvelope(ZTokenPair) } },
    },
    async (request) => ok(await auth.refresh(deps, request.body.refresh)),
  );

  app.post(
    '/api/auth/logout/',
    // Public so that a client whose access token already expired can still end its session.
    { config: { public: true }, schema: { tags, body: ZLogoutRequest, response: { 200: ZNull } } },
    async (request) => {
      await auth.logout(deps, request.body.refresh);
      return ok(null);
    },
  );

  app.post(
    '/api/auth/password/forgot/',
    { config: { public: true }, schema: { tags, body: ZForgotPasswordRequest, response: { 200: ZNull } } },
    async (request) => {
      await auth.forgotPassword(deps, request.body.email, clientOf(request));
      return ok(null);
    },
  );

  app.post(
    '/api/auth/password/reset/',
    { config: { public: true }, schema: { tags, body: ZResetPasswordRequest, response: { 200: ZNull } } },
    async (request) => {
      await auth.resetPassword(deps, request.body, clientOf(request));
      return ok(null);
    },
  );

  app.post(
    '/api/auth/password/change/',
    {
      schema: {
        tags,
        summary: 'Change the signed-in member’s password; their other sessions are signed out',
        body: ZChangePasswordRequest,
        response: { 200: ZNull },
      },
    },
    async (request) => {
      const userId = userIdOf(request); // a member's own session: API keys are refused
      const { sessionId } = request.auth as { sessionId: string };
      await auth.changePassword(deps, { userId, sessionId }, request.body, clientOf(request));
      return ok(null);
    },
  );

  app.get(
    '/api/users/profile/',
    { config: { mfaEnrolment: true }, schema: { tags, response: { 200: ZEnvelope(ZProfile) } } },
    async (request) => ok(await auth.getProfile(deps.db, userIdOf(request))),
  );

  app.put(
    '/api/users/profile/',
    { schema: { tags, body: ZUpdateProfileRequest, response: { 200: ZEnvelope(ZProfile) } } },
    async (request) => ok(await auth.updateProfile(deps.db, userIdOf(request), request.body)),
  );
};
