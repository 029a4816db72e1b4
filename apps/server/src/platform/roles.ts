// What each role may do (api.md "Business context and team"); one table, read everywhere.
import type { TPermission, TRole, TRoleInfo } from '@titan/contracts';

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

/** An API key acts with the agent role plus sending. */
export const API_KEY_PERMISSIONS: readonly TPermission[] = [...AGENT, 'engage.send'];

export const ROLE_INFO: TRoleInfo[] = [
  { value: 'owner', label: 'Owner', permissions: [...OWNER] },
  { value: 'admin', label: 'Admin', permissions: [...ADMIN] },
  { value: 'agent', label: 'Agent', permissions: [...AGENT] },
];
