// POST /api/auth/oauth/login/ with the authorization code and PKCE verifier → as login. Used by
// completeOidcSignIn (utils/oidc.ts), which checks the state first.
import { ZEnvelope, ZLoginAnswer, type TLoginAnswer, type TOAuthLoginRequest } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const OAUTH_LOGIN_PATH = '/api/auth/oauth/login/';

export async function oauthLogin(body: TOAuthLoginRequest): Promise<TLoginAnswer> {
  const { data } = await publicClient.post(OAUTH_LOGIN_PATH, body);
  return ZEnvelope(ZLoginAnswer).parse(data).result;
}
