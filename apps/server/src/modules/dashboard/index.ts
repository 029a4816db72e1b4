// The public face of the dashboard module: what other modules and the app's composition may use.
// Everything else in modules/dashboard/ is private to it (eslint: titan-server/module-faces).

export { dashboardRoutes } from './dashboard.routes';
