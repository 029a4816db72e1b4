// A local Web Push service, for tests and the demo (no real push service is reachable here). It
// plays both sides a browser and its push service play:
// - `subscribe()` makes a subscription as a browser's PushManager does: a P-256 key pair and a
//   16-byte auth secret (kept here, as the browser keeps them), and an endpoint on this server;
// - `POST /push/:token` receives a push as RFC 8030 says (TTL, Content-Encoding: aes128gcm,
//   Urgency, Topic), checks its `Authorization: vapid t=…, k=…` (RFC 8292: ES256 JWT whose aud is
//   this origin, exp within 24 h, a sub) and decrypts the body (RFC 8291) with the subscription's
//   private key and auth secret — what a browser would show — answering 201 with a Location;
// - a subscription that was `expire()`d answers 410 Gone, as push services do for dead ones.
import { createECDH, createPublicKey, hkdfSync, randomBytes, verify, createDecipheriv } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type PushSubscriptionJson = {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
};

export type ReceivedPush = {
  token: string;
  /** The decrypted payload, as the service worker's `event.data.text()` reads it. */
  text: string;
  headers: { ttl: string | null; urgency: string | null; topic: string | null };
  vapid: { sub: string; aud: string; exp: number; publicKey: string };
  receivedAt: Date;
};

type Subscription = { token: string; ecdh: ReturnType<typeof createECDH>; auth: Buffer; gone: boolean };

const b64u = (b: Buffer) => b.toString('base64url');

/** RFC 8291 §3.4 + RFC 8188: one aes128gcm record (or several), decrypted with the UA's keys. */
export function decryptAes128gcm(
  body: Buffer,
  uaPrivate: ReturnType<typeof createECDH>,
  authSecret: Buffer,
): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (salt.length !== 16 || idlen !== 65 || rs < 18) throw new Error('bad aes128gcm header');
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonceBase = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const out: Buffer[] = [];
  for (let seq = 0, at = 0; at < ciphertext.length; seq++, at += rs) {
    const record = ciphertext.subarray(at, at + rs);
    const nonce = Buffer.from(nonceBase);
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Padding: the delimiter (2 in the last record, 1 before) then zeros.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    if (end < 0 || (plain[end] !== 1 && plain[end] !== 2)) throw new Error('bad record padding');
    out.push(plain.subarray(0, end));
  }
  return Buffer.concat(out);
}

/** RFC 8292: `vapid t=<jwt>, k=<key>`, its ES256 signature by k, aud this origin, exp ≤ 24 h. */
export function checkVapid(
  header: string | undefined,
  origin: string,
  now = Date.now(),
): ReceivedPush['vapid'] {
  const m = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!m) throw new Error('missing vapid authorization');
  const params = Object.fromEntries(
    m[1]!.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const [h, p, s] = String(params.t ?? '').split('.');
  const key = Buffer.from(String(params.k ?? ''), 'base64url');
  if (!h || !p || !s || key.length !== 65 || key[0] !== 4) throw new Error('malformed vapid token or key');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(key.subarray(1, 33)), y: b64u(key.subarray(33)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!signed) throw new Error('vapid signature does not verify');
  const header_ = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (header_.alg !== 'ES256') throw new Error('vapid alg is not ES256');
  if (claims.aud !== origin) throw new Error(`vapid aud ${claims.aud} is not ${origin}`);
  if (!claims.exp || claims.exp * 1000 < now || claims.exp * 1000 > now + 24 * 3600 * 1000 + 60_000)
    throw new Error('vapid exp out of range');
  if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) throw new Error('vapid sub missing');
  return { sub: claims.sub, aud: claims.aud, exp: claims.exp, publicKey: String(params.k) };
}

export type PushSim = {
  url: string;
  server: Server;
  /** A new subscription, as `PushSubscription.toJSON()` gives it. */
  subscribe(): PushSubscriptionJson;
  /** Makes a subscription answer 410 Gone from now on. */
  expire(endpoint: string): void;
  received: ReceivedPush[];
  /** Pushes refused (bad VAPID, undecryptable), with the reason. */
  refused: { token: string; reason: string }[];
  /** Resolves with the next push to this endpoint (or one already received and not yet taken). */
  next(endpoint: string, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
};

export async function startPushSim(options: { port?: number; host?: string } = {}): Promise<PushSim> {
  const subscriptions = new Map<string, Subscription>();
  const received: ReceivedPush[] = [];
  const refused: PushSim['refused'] = [];
  const taken = new Set<ReceivedPush>();
  const waiters: { token: string; resolve: (p: ReceivedPush) => void }[] = [];
  let origin = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) return void res.writeHead(404).end();
    const sub = subscriptions.get(match[1]!);
    if (!sub) return void res.writeHead(404).end();
    if (sub.gone) return void res.writeHead(410).end();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    try {
      const vapid = checkVapid(req.headers.authorization, origin);
      if (req.headers['content-encoding'] !== 'aes128gcm')
        throw new Error('content-encoding is not aes128gcm');
      if (req.headers.ttl === undefined) throw new Error('TTL header missing');
      const text = decryptAes128gcm(body, sub.ecdh, sub.auth).toString('utf8');
      const push: ReceivedPush = {
        token: sub.token,
        text,
        headers: {
          ttl: String(req.headers.ttl),
          urgency: (req.headers.urgency as string | undefined) ?? null,
          topic: (req.headers.topic as string | undefined) ?? null,
        },
        vapid,
        receivedAt: new Date(),
      };
      received.push(push);
      const i = waiters.findIndex((w) => w.token === sub.token);
      if (i >= 0) {
        taken.add(push);
        waiters.splice(i, 1)[0]!.resolve(push);
      }
      res.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
    } catch (err) {
      refused.push({ token: sub.token, reason: (err as Error).message });
      res.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const addr = server.address() as { port: number };
  origin = `http://${options.host ?? '127.0.0.1'}:${addr.port}`;
  const tokenOf = (endpoint: string) => endpoint.slice(endpoint.lastIndexOf('/') + 1);

  return {
    url: origin,
    server,
    received,
    refused,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const token = randomBytes(16).toString('base64url');
      const auth = randomBytes(16);
      subscriptions.set(token, { token, ecdh, auth, gone: false });
      return {
        endpoint: `${origin}/push/${token}`,
        expirationTime: null,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
      };
    },
    expire(endpoint) {
      const sub = subscriptions.get(tokenOf(endpoint));
      if (sub) sub.gone = true;
    },
    next(endpoint, timeoutMs = 10_000) {
      const token = tokenOf(endpoint);
      const ready = received.find((p) => p.token === token && !taken.has(p));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          token,
          resolve: (p: ReceivedPush) => {
            clearTimeout(timer);
            resolve(p);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(`no push to ${endpoint} within ${timeoutMs} ms (refused: ${JSON.stringify(refused)})`),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
