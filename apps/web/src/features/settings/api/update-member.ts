// PUT /api/business/users/{id}/ {role} → the member; 409 when it would leave no owner.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMember, type TMember, type TUpdateMemberRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { profileQueryOptions } from '../../../lib/session/profile';
import { MEMBERS_PATH, membersQueryOptions } from '../../../lib/business/members';

export async function updateMember({ id, ...body }: TUpdateMemberRequest & { id: number }): Promise<TMember> {
  const { data } = await protectedClient.put(`${MEMBERS_PATH}${id}/`, body);
  return ZEnvelope(ZMember).parse(data).result;
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSettled: async () => {
      // The signed-in member's own role (and so their permissions) may have changed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey }),
      ]);
    },
  });
}
