// How a baseline Fastify server runs under bench/lib/servers.mjs: it binds a free port, reports it
// over the IPC channel, and exits on SIGTERM / SIGINT or when the parent goes away.

/** Listens on a free port, reports it, and closes `app` (then `cleanup`) when told to stop. */
export async function serveBaseline(app, cleanup = async () => {}) {
  const close = async () => {
    try {
      await app.close();
      await cleanup();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  // The parent went away: do not linger.
  process.on('disconnect', close);

  await app.listen({ port: 0, host: process.env.HOST ?? '127.0.0.1' });
  process.send?.({ type: 'listening', port: app.server.address().port });
}
