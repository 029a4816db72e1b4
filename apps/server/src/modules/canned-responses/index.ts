// The public face of the canned-responses module: what other modules and the app's composition may use.
// Everything else in modules/canned-responses/ is private to it (eslint: titan-server/module-faces).

export { cannedResponseRoutes } from './canned-responses.routes';
