// The receiver both sides of the webhook-delivery suite post to: bare node:http answering 200 to
// every POST, reading each body to its end without parsing it. It keeps the first arrival time of
// each `webhook-id` (and counts repeats, so the suite can check "delivered once each") and the
// first requests whole (headers and body) for the suite to verify their signatures.
// Control: GET /stats, POST /times (a JSON array of ids → their arrival times), POST /reset.
import { createServer } from 'node:http';

const SAMPLES = 20;
let arrivals = new Map();
let state = { requests: 0, repeats: 0, firstAt: null, lastAt: null, samples: [] };

const reset = () => {
  arrivals = new Map();
  state = { requests: 0, repeats: 0, firstAt: null, lastAt: null, samples: [] };
};

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const server = createServer(async (req, res) => {
  const body = await readBody(req);
  if (req.url === '/hook' && req.method === 'POST') {
    const now = Date.now();
    const id = req.headers['webhook-id'];
    state.requests++;
    state.firstAt ??= now;
    state.lastAt = now;
    if (typeof id === 'string') {
      if (arrivals.has(id)) state.repeats++;
      else arrivals.set(id, now);
    }
    if (state.samples.length < SAMPLES) state.samples.push({ headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  const json = (value) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  if (req.url === '/stats') return json({ ...state, distinct: arrivals.size });
  if (req.url === '/times' && req.method === 'POST') {
    const ids = JSON.parse(body || '[]');
    return json(ids.map((id) => arrivals.get(id) ?? null));
  }
  if (req.url === '/reset' && req.method === 'POST') {
    reset();
    return json({ ok: true });
  }
  if (req.url === '/') return json({ ok: true });
  res.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, process.env.HOST ?? '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: server.address().port });
});
