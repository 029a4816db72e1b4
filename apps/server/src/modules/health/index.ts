// The public face of the health module: what other modules and the app's composition may use.
// Everything else in modules/health/ is private to it (eslint: titan-server/module-faces).

export { healthRoutes } from './health.routes';
