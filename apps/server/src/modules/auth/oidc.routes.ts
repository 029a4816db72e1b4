// OpenID Connect sign-in (api.md "Identity"): the providers to offer and the code exchange.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEnvelope, ZLoginAnswer, ZOAuthLoginRequest, ZOAuthProvider } from '@titan/contracts';
import { ok } from '../../platform/http';
import { clientOf } from './auth.routes';
import * as oidc from './oidc.service';

const tags = ['auth'];

export const oidcRoutes: FastifyPluginAsyncZod<{ deps: oidc.OidcDeps }> = async (app, { deps }) => {
  app.get(
    '/api/auth/oauth/providers/',
    { config: { public: true }, schema: { tags, response: { 200: ZEnvelope(z.array(ZOAuthProvider)) } } },
    async () => ok(await oidc.listOAuthProviders(deps)),
  );

  app.post(
    '/api/auth/oauth/login/',
    {
      config: { public: true },
      schema: { tags, body: ZOAuthLoginRequest, response: { 200: ZEnvelope(ZLoginAnswer) } },
    },
    async (request) => ok(await oidc.oauthLogin(deps, request.body, clientOf(request))),
  );
};
