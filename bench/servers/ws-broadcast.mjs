// The realtime baseline: a bare `ws` server in its own process. Clients connect to /ws; an HTTP
// POST /broadcast sends its body, as one text frame, to every open client (serialised once) and
// answers 204. Started by bench/lib/servers.mjs with an IPC channel; it binds a free port and
// reports it.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ noServer: true });
const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/broadcast') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      for (const client of wss.clients) {
        if (client.readyState === client.OPEN) client.send(text);
      }
      res.writeHead(204).end();
    });
    return;
  }
  if (req.method === 'GET' && req.url === '/') {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ clients: wss.clients.size }));
    return;
  }
  res.writeHead(404).end();
});
server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});

const close = () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
process.on('disconnect', close);

server.listen({ port: 0, host: process.env.HOST ?? '127.0.0.1' }, () => {
  process.send?.({ type: 'listening', port: server.address().port });
});
