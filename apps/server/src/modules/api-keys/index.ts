// The public face of the api-keys module: what other modules and the app's composition may use.
// Everything else in modules/api-keys/ is private to it (eslint: titan-server/module-faces).

export { apiKeyRoutes } from './api-keys.routes';
export { authenticateApiKey } from './api-keys.service';
