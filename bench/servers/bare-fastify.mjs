// The baseline: a bare Fastify hello-world with its defaults (logger off), in its own process.
// Started by bench/lib/servers.mjs with an IPC channel; it binds a free port and reports it.
// GET / is the health suite's hello-world; POST / (whatsapp-webhook suite) parses the JSON body
// and answers with Titan's webhook acknowledgement.
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.post('/', { bodyLimit: 4 * 1024 * 1024 }, async () => ({ status: 200, message: 'OK', result: null }));

const close = async () => {
  try {
    await app.close();
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
