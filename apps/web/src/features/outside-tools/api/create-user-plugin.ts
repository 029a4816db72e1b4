// POST /api/user-plugins/ → the new connection (not yet authorized when the plugin uses OAuth).
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZUserPlugin, type TUserPlugin, type TUserPluginRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { USER_PLUGINS_PATH, useInvalidateUserPlugins } from './get-user-plugins';

export function useCreateUserPlugin() {
  const invalidate = useInvalidateUserPlugins();
  return useMutation({
    mutationFn: async (body: TUserPluginRequest): Promise<TUserPlugin> => {
      const { data } = await protectedClient.post(USER_PLUGINS_PATH, body);
      return ZEnvelope(ZUserPlugin).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
