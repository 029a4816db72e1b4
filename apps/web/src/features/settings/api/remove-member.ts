// DELETE /api/business/users/{id}/ removes a member; 409 for the last owner.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { MEMBERS_PATH, membersQueryOptions } from '../../../lib/business/members';

export async function removeMember(id: number): Promise<void> {
  await protectedClient.delete(`${MEMBERS_PATH}${id}/`);
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersQueryOptions().queryKey }),
  });
}
