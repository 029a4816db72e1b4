// How roles and people are named on the settings screens.
import type { TMember, TRole, TRoleInfo } from '@titan/contracts';

/** A role's label from the roles list, or its value while the list is loading. */
export function roleLabel(roles: readonly TRoleInfo[] | undefined, role: TRole): string {
  return roles?.find((info) => info.value === role)?.label ?? role;
}

export function roleOptions(roles: readonly TRoleInfo[] | undefined, fallback: readonly TRole[]) {
  return (
    roles?.map(({ value, label }) => ({ value, label })) ?? fallback.map((value) => ({ value, label: value }))
  );
}

export function memberName(user: TMember['user']): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
}
