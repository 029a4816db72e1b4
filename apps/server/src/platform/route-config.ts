// Per-route declarations read by platform plugins: auth is declared on the route, never by URL.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
  }
}
export {};
