import http from 'node:http';
import { fork } from 'node:child_process';
import { fixedLoad, httpClient } from '../lib/fixed-load.mjs';
if (process.argv[2] === 'server') {
  const body = 'x'.repeat(4400);
  const extra = {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'x-request-id': '426fe92d-7243-439d-8227-30b975412462',
  };
  const server = http.createServer((req, res) => {
    const h = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
    if (req.url === '/many') { res.writeHead(200, { ...h, ...extra }); }
    else if (req.url === '/manyset') { for (const [k, v] of Object.entries({ ...h, ...extra })) res.setHeader(k, v); }
    else res.writeHead(200, h);
    res.end(body);
  });
  server.keepAliveTimeout = 72000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('message', () => process.send(process.cpuUsage()));
} else {
  const child = fork(new URL(import.meta.url).pathname, ['server']);
  const port = await new Promise((r) => child.once('message', r));
  const cpu = () => new Promise((r) => { child.once('message', r); child.send('cpu'); });
  const url = `http://127.0.0.1:${port}`;
  for (const path of ['/few', '/many', '/manyset', '/few', '/many']) {
    const c = httpClient(url, { sockets: 10 });
    await fixedLoad({ total: 3000, concurrency: 10, fn: () => c.get(path) });
    const s0 = await cpu(); const u0 = process.cpuUsage();
    const n = 20000;
    await fixedLoad({ total: n, concurrency: 10, fn: () => c.get(path) });
    const u = process.cpuUsage(u0); const s1 = await cpu();
    console.log(path, 'client', ((u.user + u.system) / n).toFixed(1), 'server', ((s1.user + s1.system - s0.user - s0.system) / n).toFixed(1), 'µs/call');
    c.close();
  }
  child.kill();
}
