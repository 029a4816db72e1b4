// POST /api/business/roles/ → a custom role: a name, some of the existing permissions, and
// optionally the chat groups it is limited to.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCustomRole, ZEnvelope, type TCustomRole, type TCustomRoleRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { ROLES_PATH, rolesQueryOptions } from '../../../lib/business/roles';

export async function createRole(input: TCustomRoleRequest): Promise<TCustomRole> {
  const { data } = await protectedClient.post(ROLES_PATH, input);
  return ZEnvelope(ZCustomRole).parse(data).result;
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryOptions().queryKey }),
  });
}
