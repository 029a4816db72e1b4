// DELETE /api/business/users/invitations/{id}/ revokes an open invitation.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { INVITATIONS_PATH, invitationsQueryOptions } from './get-invitations';

export async function revokeInvitation(id: number): Promise<void> {
  await protectedClient.delete(`${INVITATIONS_PATH}${id}/`);
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey }),
  });
}
