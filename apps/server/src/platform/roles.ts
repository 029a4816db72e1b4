// What each role may do (api.md "Business context and team"); one table, read everywhere. A
// business's custom roles (issue 34) are sets of these same permissions: every route's check reads
// the permission set the caller holds, never the role's name, so a custom role works everywhere.
import type { TPermission, TRole, TRoleInfoOut as TRoleInfo } from '@titan/contracts';

const AGENT: TPermission[] = ['inbox.use', 'engage.read'];
const ADMIN: TPermission[] = [
  ...AGENT,
  'engage.write',
  'engage.send',
  'team.manage',
  'business.update',
  'api_keys.manage',
];
const OWNER: TPermission[] = [...ADMIN, 'billing.manage', 'business.delete', 'ownership.transfer'];

export const ROLE_PERMISSIONS: Record<TRole, readonly TPermission[]> = {
  owner: OWNER,
  admin: ADMIN,
  agent: AGENT,
};

/** An API key made without a role acts with the agent role plus sending. */
export const API_KEY_PERMISSIONS: readonly TPermission[] = [...AGENT, 'engage.send'];

export const ROLE_INFO: TRoleInfo[] = [
  { value: 'owner', label: 'Owner', permissions: [...OWNER], custom: false, chat_group_ids: null },
  { value: 'admin', label: 'Admin', permissions: [...ADMIN], custom: false, chat_group_ids: null },
  { value: 'agent', label: 'Agent', permissions: [...AGENT], custom: false, chat_group_ids: null },
];

const BUILT_IN_SETS: Record<TRole, ReadonlySet<TPermission>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  agent: new Set(AGENT),
};
const API_KEY_SET: ReadonlySet<TPermission> = new Set(API_KEY_PERMISSIONS);
const customSets = new Map<string, ReadonlySet<TPermission>>();

/**
 * The permissions a member or key holds: a custom role's own list when it has one, else its
 * built-in role's (null role: a key made before roles). Sets are shared, one per distinct list.
 */
export function permissionSetOf(
  role: TRole | null,
  customPermissions: readonly string[] | null | undefined,
): ReadonlySet<TPermission> {
  if (customPermissions) {
    const key = [...customPermissions].sort().join(',');
    let set = customSets.get(key);
    if (!set) {
      set = new Set(customPermissions as TPermission[]);
      if (customSets.size > 10_000) customSets.clear();
      customSets.set(key, set);
    }
    return set;
  }
  return role ? BUILT_IN_SETS[role] : API_KEY_SET;
}

type RolesListener = (db: object, businessId: number) => void;
const rolesListeners = new Set<RolesListener>();

/** Called when a business's custom role changes (the auth cache listens: its members are looked up again). */
export function onBusinessRolesChanged(listener: RolesListener): () => void {
  rolesListeners.add(listener);
  return () => rolesListeners.delete(listener);
}

/** A custom role of this business changed or went (other instances hear it on the change feed). */
export function businessRolesChanged(db: object, businessId: number): void {
  for (const listener of rolesListeners) listener(db, businessId);
}
