// The public face of the outside-connections module: the lifecycle a business's connections to
// outside services share (MCP servers, plugin connections): Titan as their OAuth client (connect
// states, sealed tokens, refreshes one at a time under a lease, expiry told once by mail). Their
// rows' CRUD and lease come from db/connection-rows.ts, built by each owning repository. Everything
// else here is private to it (eslint: titan-server/module-faces).

export {
  checkIssuer,
  codeRefused,
  GrantExpired,
  newConnectState,
  type OAuthDeps,
  refreshWithLease,
  requireUser,
  sealTokens,
  takeConnectState,
  tellConnectionExpired,
} from './oauth-client';
