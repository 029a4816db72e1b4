// DELETE /api/user-plugins/{id}/ → the connection removed.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { USER_PLUGINS_PATH, useInvalidateUserPlugins } from './get-user-plugins';

export function useDeleteUserPlugin() {
  const invalidate = useInvalidateUserPlugins();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${USER_PLUGINS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
