// The floor under the inbox list: a bare Fastify (logger off) that answers GET /list/:id by running
// one registered statement on a pg pool of Titan's size and sending its JSON text in Titan's
// envelope — HTTP plus the same single SQL round trip, without authentication, validation, hooks
// or logging. Started by bench/lib/servers.mjs with an IPC channel (serve.mjs).
// BENCH_BARE_DATABASE_URL names the database.
// PUT /statements/:id { name, text, values, page, pageSize } registers a statement (the list's, built by
// bench/suites/inbox-list.mjs); GET /list/:id runs it. GET / answers for readiness.
import Fastify from 'fastify';
import { serveBaseline } from './serve.mjs';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.BENCH_BARE_DATABASE_URL,
  max: 10, // Titan's DATABASE_POOL_MAX default
  options: '-c jit=off', // as Titan's pool
});
pool.on('error', () => {});
const statements = new Map();

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.put('/statements/:id', async (request) => {
  const { name, text, values, page, pageSize } = request.body;
  statements.set(request.params.id, { query: { name, text, values, rowMode: 'array' }, page, pageSize });
  return { ok: true };
});
app.get('/list/:id', async (request, reply) => {
  const statement = statements.get(request.params.id);
  if (!statement) return reply.code(404).send({ error: 'no such statement' });
  const {
    rows: [[count, results]],
  } = await pool.query(statement.query);
  const { page, pageSize } = statement;
  const next = page * pageSize < Number(count) ? page + 1 : null;
  const previous = page > 1 ? page - 1 : null;
  return reply
    .type('application/json; charset=utf-8')
    .send(
      `{"status":200,"message":"OK","result":{"count":${count},"next":${next},"previous":${previous},"results":${results}}}`,
    );
});

await serveBaseline(app, () => pool.end());
