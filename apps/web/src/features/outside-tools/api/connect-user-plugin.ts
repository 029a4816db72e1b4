// POST /api/user-plugins/{id}/connect/ → the provider's authorization URL (OAuth connect).
import { useMutation } from '@tanstack/react-query';
import { ZConnectResult, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { USER_PLUGINS_PATH } from './get-user-plugins';

export function useConnectUserPlugin() {
  return useMutation({
    mutationFn: async (id: number): Promise<string> => {
      const { data } = await protectedClient.post(`${USER_PLUGINS_PATH}${id}/connect/`);
      return ZEnvelope(ZConnectResult).parse(data).result.authorization_url;
    },
  });
}
