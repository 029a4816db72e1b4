// POST /api/user-plugins/callback/ {code, state} → the connection, authorized (the OAuth callback page).
import { ZEnvelope, ZUserPlugin, type TOAuthCallbackRequest, type TUserPlugin } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { USER_PLUGINS_PATH } from './get-user-plugins';

export async function completePluginOAuth(body: TOAuthCallbackRequest): Promise<TUserPlugin> {
  const { data } = await protectedClient.post(`${USER_PLUGINS_PATH}callback/`, body);
  return ZEnvelope(ZUserPlugin).parse(data).result;
}
