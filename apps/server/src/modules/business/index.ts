// The public face of the business module: what other modules and the app's composition may use.
// Everything else in modules/business/ is private to it (eslint: titan-server/module-faces).

export {
  type BusinessRow,
  countOwnersForUpdate,
  deleteMember,
  findBusinessByCode,
  findBusinessById,
  findMember,
  findMembership,
  findMembershipByCode,
  findMembershipAccess,
  findMembershipRole,
  findCustomRole,
  insertMembership,
  listMembers,
  type MemberRow,
  setMemberRole,
  updateBusiness,
} from './business.repository';
export { businessRoutes } from './business.routes';
export { assertMayGrantRole, resolveRoleRef, type RoleGrant, ROLE_ERRORS } from './business.roles';
export {
  businessTimeZone,
  findBusiness,
  findBusinessByCode as findBusinessViewByCode,
  frequencyCapOf,
  setSubscriptionStatus,
} from './business.service';
