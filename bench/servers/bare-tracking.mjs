// The tracking endpoints' floor: a bare node:http server answering what Titan answers for the open
// pixel (the same 43-byte GIF with the same no-store headers) and the click (a 302 to the URL in the
// token, read without checking its signature, nothing recorded). Started by bench/lib/servers.mjs
// with an IPC channel; GET / answers 200 for the readiness check.
import { createServer } from 'node:http';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const NO_STORE = 'no-store, no-cache, must-revalidate, max-age=0';

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/t/o/')) {
    res.writeHead(200, {
      'content-type': 'image/gif',
      'content-length': GIF.length,
      'cache-control': NO_STORE,
      pragma: 'no-cache',
      expires: '0',
    });
    res.end(GIF);
    return;
  }
  if (url.startsWith('/t/c/')) {
    // Token: version, kind, 16-byte send id, URL bytes, 16-byte tag (base64url).
    const raw = Buffer.from(url.slice(5), 'base64url');
    const location = raw.subarray(18, raw.length - 16).toString('utf8');
    res.writeHead(302, { location, 'cache-control': NO_STORE, 'content-length': 0 });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

const close = () => server.close(() => process.exit(0));
process.once('SIGTERM', close);
process.once('SIGINT', close);
process.on('disconnect', close);
server.listen(0, process.env.HOST ?? '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: server.address().port });
});
