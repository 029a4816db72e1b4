// Two-factor sign-in, passkeys and sessions (next-api.md "Platform").
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUSINESS_CODE_HEADER,
  ZEnvelope,
  ZLoginAnswer,
  ZLoginResult,
  ZMfaLoginRequest,
  ZMfaStatus,
  ZPasskey,
  ZRecoveryCodes,
  ZSession,
  ZSessionsQuery,
  ZTotpConfirmRequest,
  ZTotpSetupResult,
  ZWebauthnAuthenticateOptionsRequest,
  ZWebauthnAuthenticateVerifyRequest,
  ZWebauthnOptions,
  ZWebauthnRegisterOptionsRequest,
  ZWebauthnRegisterVerifyRequest,
} from '@titan/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { recordAudit } from '../audit';
import { findMembershipByCode } from '../business';
import { sessionIdOf, userIdOf } from '../../platform/request-context';
import { clientOf } from './auth.routes';
import type { AuthDeps } from './auth.service';
import * as mfa from './mfa.service';

const ZNull = ZEnvelope(z.null());
const tags = ['auth'];
/** Routes a session that must enrol in 2FA can still reach. */
const enrol = { mfaEnrolment: true } as const;

/**
 * Whose sessions a call is about: the caller's own, or (an owner naming the business with
 * X-Business-Code) a member's. 404 for anyone else, so sessions of other businesses stay unseen.
 */
async function sessionsOwner(deps: AuthDeps, request: FastifyRequest, userId?: number) {
  const caller = userIdOf(request);
  if (userId === undefined || userId === caller) return { userId: caller, businessId: null };
  const code = request.headers[BUSINESS_CODE_HEADER];
  if (typeof code !== 'string' || !code.trim()) throw AppError.notFound();
  const own = await findMembershipByCode(deps.db, caller, code.trim());
  const theirs = await findMembershipByCode(deps.db, userId, code.trim());
  if (own?.role !== 'owner' || !theirs) throw AppError.notFound();
  return { userId, businessId: own.businessId };
}

export const mfaRoutes: FastifyPluginAsyncZod<{ deps: AuthDeps }> = async (app, { deps }) => {
  app.post(
    '/api/auth/login/mfa/',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The second step of a sign-in: a TOTP code or a recovery code',
        body: ZMfaLoginRequest,
        response: { 200: ZEnvelope(ZLoginResult) },
      },
    },
    async (request) => ok(await mfa.loginMfa(deps, request.body, clientOf(request))),
  );

  app.get(
    '/api/auth/2fa/',
    {
      config: enrol,
      schema: {
        tags,
        summary: 'What the signed-in user has set up',
        response: { 200: ZEnvelope(ZMfaStatus) },
      },
    },
    async (request) => ok(await mfa.mfaStatus(deps, userIdOf(request), sessionIdOf(request) ?? '')),
  );

  app.post(
    '/api/auth/2fa/totp/setup/',
    {
      config: enrol,
      schema: {
        tags,
        summary: 'A new TOTP secret to confirm',
        response: { 200: ZEnvelope(ZTotpSetupResult) },
      },
    },
    async (request) => ok(await mfa.totpSetup(deps, userIdOf(request))),
  );

  app.post(
    '/api/auth/2fa/totp/confirm/',
    {
      config: enrol,
      schema: {
        tags,
        summary: 'Turns TOTP on with a current code; answers the recovery codes, once',
        body: ZTotpConfirmRequest,
        response: { 200: ZEnvelope(ZRecoveryCodes) },
      },
    },
    async (request) => ok(await mfa.totpConfirm(deps, userIdOf(request), request.body.code)),
  );

  app.delete(
    '/api/auth/2fa/totp/',
    { schema: { tags, summary: 'Turns TOTP off', response: { 200: ZNull } } },
    async (request) => {
      await mfa.totpDisable(deps, userIdOf(request));
      return ok(null);
    },
  );

  app.post(
    '/api/auth/2fa/recovery-codes/',
    {
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working)',
        response: { 200: ZEnvelope(ZRecoveryCodes) },
      },
    },
    async (request) => ok(await mfa.regenerateRecoveryCodes(deps, userIdOf(request))),
  );

  app.post(
    '/api/auth/webauthn/register/options/',
    {
      config: enrol,
      schema: { tags, body: ZWebauthnRegisterOptionsRequest, response: { 200: ZEnvelope(ZWebauthnOptions) } },
    },
    async (request) => ok(await mfa.webauthnRegisterOptions(deps, userIdOf(request))),
  );

  app.post(
    '/api/auth/webauthn/register/verify/',
    {
      config: enrol,
      schema: { tags, body: ZWebauthnRegisterVerifyRequest, response: { 200: ZEnvelope(ZPasskey) } },
    },
    async (request) => ok(await mfa.webauthnRegisterVerify(deps, userIdOf(request), request.body)),
  );

  app.delete(
    '/api/auth/webauthn/credentials/:id/',
    { schema: { tags, params: z.object({ id: z.string().min(1).max(1024) }), response: { 200: ZNull } } },
    async (request) => {
      await mfa.deletePasskey(deps, userIdOf(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/api/auth/webauthn/authenticate/options/',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Options to sign in with a passkey (with mfa_token: as the second step)',
        body: ZWebauthnAuthenticateOptionsRequest,
        response: { 200: ZEnvelope(ZWebauthnOptions) },
      },
    },
    async (request) => ok(await mfa.webauthnAuthenticateOptions(deps, request.body, clientOf(request))),
  );

  app.post(
    '/api/auth/webauthn/authenticate/verify/',
    {
      config: { public: true },
      schema: { tags, body: ZWebauthnAuthenticateVerifyRequest, response: { 200: ZEnvelope(ZLoginAnswer) } },
    },
    async (request) => ok(await mfa.webauthnAuthenticateVerify(deps, request.body, clientOf(request))),
  );

  app.get(
    '/api/auth/sessions/',
    {
      config: enrol,
      schema: {
        tags,
        summary: 'The signed-in devices (an owner may name a member: ?user= with X-Business-Code)',
        querystring: ZSessionsQuery,
        response: { 200: ZEnvelope(z.array(ZSession)) },
      },
    },
    async (request) => {
      const { userId } = await sessionsOwner(deps, request, request.query.user);
      return ok(await mfa.listSessions(deps, userId, sessionIdOf(request)));
    },
  );

  app.delete(
    '/api/auth/sessions/:id/',
    {
      config: enrol,
      schema: {
        tags,
        summary: 'Signs a device out',
        params: z.object({ id: z.uuid() }),
        response: { 200: ZNull },
      },
    },
    async (request) => {
      const owner = await mfa.findSessionOwner(deps, request.params.id);
      if (owner === null) throw AppError.notFound();
      const { userId, businessId } = await sessionsOwner(deps, request, owner);
      if (businessId === null) {
        await mfa.endSession(deps, userId, request.params.id);
      } else {
        await mfa.endSession(deps, userId, request.params.id, (tx) =>
          recordAudit(tx, {
            businessId,
            actor: { type: 'member', id: userIdOf(request) },
            action: 'member.session_ended',
            objectType: 'member',
            objectId: userId,
            before: { session: request.params.id },
            after: { session: null },
            ip: request.ip,
            userAgent: request.headers['user-agent'] ?? null,
          }),
        );
      }
      return ok(null);
    },
  );
};
