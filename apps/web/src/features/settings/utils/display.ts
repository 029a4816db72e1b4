// How roles and people are named on the settings screens.
import type { TMember, TRole, TRoleInfo, TRoleRef } from '@titan/contracts';

/** A role's label from the roles list, or its value while the list is loading. */
export function roleLabel(roles: readonly TRoleInfo[] | undefined, role: TRole | number): string {
  return roles?.find((info) => info.value === role)?.label ?? String(role);
}

/** The roles to pick from: the built-in ones, then the business's own (a select's value is a string). */
export function roleOptions(roles: readonly TRoleInfo[] | undefined, fallback: readonly TRole[]) {
  return (
    roles?.map(({ value, label }) => ({ value: String(value), label })) ??
    fallback.map((value) => ({ value, label: value }))
  );
}

/** A select's value back as a role: a custom role's id is a number, a built-in role its name. */
export function toRoleRef(value: string): TRoleRef {
  return /^\d+$/.test(value) ? Number(value) : (value as TRole);
}

export function memberName(user: TMember['user']): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
}
