// The baseline: a bare Fastify hello-world with its defaults (logger off), in its own process.
// Started by bench/lib/servers.mjs with an IPC channel (serve.mjs).
// GET / is the health suite's hello-world; POST / (whatsapp-webhook suite) parses the JSON body
// and answers with Titan's webhook acknowledgement.
import Fastify from 'fastify';
import { serveBaseline } from './serve.mjs';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.post('/', { bodyLimit: 4 * 1024 * 1024 }, async () => ({ status: 200, message: 'OK', result: null }));

await serveBaseline(app);
