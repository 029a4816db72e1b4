// DELETE /api/business/roles/{id}/ removes a custom role nobody holds (409 while members or API keys
// hold it); open invitations offering it are withdrawn with it.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { ROLES_PATH, rolesQueryOptions } from '../../../lib/business/roles';
import { invitationsQueryOptions } from './get-invitations';

export async function deleteRole(id: number): Promise<void> {
  await protectedClient.delete(`${ROLES_PATH}${id}/`);
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: rolesQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey }),
      ]),
  });
}
