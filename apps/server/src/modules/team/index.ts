// The public face of the team module: what other modules and the app's composition may use.
// Everything else in modules/team/ is private to it (eslint: titan-server/module-faces).

export { teamRoutes } from './team.routes';
export { findMembers } from './team.service';
