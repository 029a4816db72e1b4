// The public face of the auth module: what other modules and the app's composition may use.
// Everything else in modules/auth/ is private to it (eslint: titan-server/module-faces).

export { AuthCache, authCacheFor, forgetBusiness, forgetCustomer, forgetMembership } from './auth-cache';
export { AUTH_ERRORS, membershipPermissions, registerAuthGuard, resolveSession } from './auth.guard';
export { invitationMail } from './auth.mails';
export { findUserByEmail, findUserById } from './auth.repository';
export { authRoutes } from './auth.routes';
export { pruneChallenges } from './mfa.repository';
export { mfaRoutes } from './mfa.routes';
export { createOidcClient, OidcClient } from './oidc.client';
export { oidcRoutes } from './oidc.routes';
export { AccessTokens, verifyHs256Jwt } from './tokens';
