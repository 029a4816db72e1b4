// PUT /api/business/roles/{id}/ → the custom role with its new name, permissions and scope; members
// and API keys holding it have the new rights at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCustomRole, ZEnvelope, type TCustomRole, type TCustomRoleRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { ROLES_PATH, rolesQueryOptions } from '../../../lib/business/roles';

export async function updateRole({
  id,
  ...input
}: TCustomRoleRequest & { id: number }): Promise<TCustomRole> {
  const { data } = await protectedClient.put(`${ROLES_PATH}${id}/`, input);
  return ZEnvelope(ZCustomRole).parse(data).result;
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryOptions().queryKey }),
  });
}
