// The public face of the analytics module: what other modules and the app's composition may use.
// Everything else in modules/analytics/ is private to it (eslint: titan-server/module-faces).

export { analyticsRoutes } from './analytics.routes';
export { deleteOldEvents, recordEvent } from './analytics.service';
