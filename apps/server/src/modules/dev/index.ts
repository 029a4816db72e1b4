// The public face of the dev module: what other modules and the app's composition may use.
// Everything else in modules/dev/ is private to it (eslint: titan-server/module-faces).

export { outboxRoutes } from './outbox.routes';
