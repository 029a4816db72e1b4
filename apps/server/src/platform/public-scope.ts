// Routes added by third-party plugins (static files, API docs) cannot take our route config;
// registering them inside a scope with this hook declares them public explicitly.
import type { FastifyInstance } from 'fastify';

export function markRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), public: true };
  });
}
