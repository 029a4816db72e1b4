// GET /api/business/roles/ → each role with its permissions; usePermissions() answers what the
// signed-in member's role may do in the current business, so any screen can show or hide its actions.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZRoleInfo, type TPermission, type TRoleInfo } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../protected-client';
import { BUSINESS_SCOPE } from '../query-client';
import { useCurrentMembership } from '../session/current-business';

export const ROLES_PATH = '/api/business/roles/';

export async function getRoles(): Promise<TRoleInfo[]> {
  const { data } = await protectedClient.get(ROLES_PATH);
  return ZEnvelope(z.array(ZRoleInfo)).parse(data).result;
}

export function rolesQueryOptions() {
  return queryOptions({ queryKey: [BUSINESS_SCOPE, 'roles'], queryFn: getRoles, staleTime: Infinity });
}

export function useRoles() {
  return useQuery(rolesQueryOptions());
}

/** Until the roles are known, nothing is allowed: actions appear rather than disappear. */
export function usePermissions(): { can: (permission: TPermission) => boolean; ready: boolean } {
  const roles = useRoles();
  const membership = useCurrentMembership();
  const granted = new Set(roles.data?.find((role) => role.value === membership?.role)?.permissions ?? []);
  return { can: (permission) => granted.has(permission), ready: roles.isSuccess && membership !== null };
}
