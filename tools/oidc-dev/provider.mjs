// A real OpenID Connect provider (oidc-provider) for local sign-in and tests: authorization code
// + PKCE, a login page that takes any email address, state kept in memory.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { interactionPolicy } from 'oidc-provider';

const INTERACTION = /^\/interaction\/([\w-]+)(\/login|\/abort)?\/?$/;

/** The subject for an email address: stable across restarts, and not the address itself. */
export function subjectFor(email) {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * Storage for the provider's artifacts (sessions, codes, tokens, grants) in this process only;
 * each provider gets its own.
 */
function createMemoryAdapter() {
  const records = new Map();
  const byUid = new Map();
  const byUserCode = new Map();
  const byGrant = new Map();
  const live = (key) => {
    const record = records.get(key);
    if (!record) return undefined;
    if (record.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      records.delete(key);
      return undefined;
    }
    return record.payload;
  };
  return class MemoryAdapter {
    constructor(model) {
      this.model = model;
    }

    key(id) {
      return `${this.model}:${id}`;
    }

    async upsert(id, payload, expiresIn) {
      const key = this.key(id);
      const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : undefined;
      records.set(key, { payload, expiresAt });
      if (payload.uid) byUid.set(payload.uid, id);
      if (payload.userCode) byUserCode.set(payload.userCode, id);
      if (payload.grantId) {
        if (!byGrant.has(payload.grantId)) byGrant.set(payload.grantId, new Set());
        byGrant.get(payload.grantId).add(key);
      }
    }

    async find(id) {
      return live(this.key(id));
    }

    async findByUid(uid) {
      const id = byUid.get(uid);
      return id === undefined ? undefined : this.find(id);
    }

    async findByUserCode(userCode) {
      const id = byUserCode.get(userCode);
      return id === undefined ? undefined : this.find(id);
    }

    async consume(id) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id) {
      records.delete(this.key(id));
    }

    async revokeByGrantId(grantId) {
      for (const key of byGrant.get(grantId) ?? []) records.delete(key);
      byGrant.delete(grantId);
    }
  };
}

const escapeHtml = (value) =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function loginPage({ uid, clientId, error, values }) {
  const field = (name, label, type = 'text') =>
    `<label>${label}<input name="${name}" type="${type}" value="${escapeHtml(values[name] ?? '')}"${
      name === 'email' ? ' required autofocus' : ''
    }></label>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in — OIDC dev provider</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f5;display:grid;place-items:center;min-height:100vh;margin:0}
form{background:#fff;padding:2rem;border-radius:12px;box-shadow:0 1px 3px #0002;width:min(22rem,90vw);display:grid;gap:.9rem}
h1{font-size:1.2rem;margin:0}p{margin:0;color:#52525b;font-size:.9rem}
label{display:grid;gap:.3rem;font-size:.9rem}input[type=text],input[type=email]{padding:.5rem;border:1px solid #d4d4d8;border-radius:6px;font:inherit}
.check{display:flex;gap:.5rem;align-items:center}.error{color:#b91c1c}
.actions{display:flex;gap:.5rem}button{flex:1;padding:.6rem;border-radius:6px;border:0;font:inherit;cursor:pointer;background:#18181b;color:#fff}
button[formaction]{background:#e4e4e7;color:#18181b}
</style></head><body>
<form method="post" action="/interaction/${uid}/login">
<h1>OIDC dev provider</h1>
<p>Sign in to <strong>${escapeHtml(clientId)}</strong> as anyone: no password, for local development only.</p>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
${field('email', 'Email', 'email')}
${field('given_name', 'First name')}
${field('family_name', 'Last name')}
<label class="check"><input name="email_verified" type="checkbox"${
    values.email_verified === false ? '' : ' checked'
  }>The provider has verified this email address</label>
<div class="actions"><button type="submit">Sign in</button>
<button type="submit" formaction="/interaction/${uid}/abort" formnovalidate>Cancel</button></div>
</form></body></html>`;
}

async function readForm(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Creates the provider and a Node request handler that serves it plus its login page.
 * `clients` are registered as given (oidc-provider client metadata); PKCE is always required.
 * `idTokenClaims: true` puts the email and profile claims into the ID token too (many providers do);
 * otherwise they come only from the userinfo endpoint, as the OpenID Connect core spec describes.
 */
export function createDevProvider({ issuer, clients, idTokenClaims = false }) {
  // Accounts exist from the moment someone signs in with an address; the claims are what they typed.
  const accounts = new Map();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    use: 'sig',
    alg: 'RS256',
  };

  // Ask who is signing in every time, so that one browser can try several accounts.
  const policy = interactionPolicy.base();
  policy
    .get('login')
    .checks.add(
      new interactionPolicy.Check('dev_always_login', 'every sign-in asks for an email address', (ctx) =>
        ctx.oidc.result?.login
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(issuer, {
    clients,
    adapter: createMemoryAdapter(),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: !idTokenClaims,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 3600,
      Grant: 3600,
    },
    async findAccount(_ctx, sub) {
      const claims = accounts.get(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
  });
  const providerHandler = provider.callback();

  async function interaction(req, res, uid, action) {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const clientId = details.params.client_id;
    if (action === '/abort' && req.method === 'POST') {
      await provider.interactionFinished(req, res, {
        error: 'access_denied',
        error_description: 'The user cancelled the sign-in.',
      });
      return;
    }
    if (action === '/login' && req.method === 'POST') {
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const values = {
        email,
        given_name: (form.get('given_name') ?? '').trim(),
        family_name: (form.get('family_name') ?? '').trim(),
        email_verified: form.get('email_verified') === 'on',
      };
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage({ uid, clientId, error: 'Enter an email address.', values }));
        return;
      }
      const sub = subjectFor(email);
      const name = [values.given_name, values.family_name].filter(Boolean).join(' ');
      accounts.set(sub, {
        email,
        email_verified: values.email_verified,
        ...(values.given_name ? { given_name: values.given_name } : {}),
        ...(values.family_name ? { family_name: values.family_name } : {}),
        ...(name ? { name } : {}),
      });
      // A first-party dev provider: signing in also grants what the client asked for (no consent page).
      const grant = new provider.Grant({ accountId: sub, clientId });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(loginPage({ uid, clientId, error: null, values: { email: details.params.login_hint ?? '' } }));
  }

  function handler(req, res) {
    const match = INTERACTION.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) {
      providerHandler(req, res);
      return;
    }
    interaction(req, res, match[1], match[2]).catch((err) => {
      if (!res.headersSent) {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(
          `This sign-in has expired or is invalid; start again from the application.\n(${err.message})\n`,
        );
      } else res.destroy();
    });
  }

  return { provider, handler, issuer };
}

/** Starts a provider on host:port (port 0 picks a free one); the issuer is http://host:port. */
export async function startDevProvider({ host = '127.0.0.1', port = 0, clients, idTokenClaims = false }) {
  let handler = null;
  const server = createServer((req, res) => handler(req, res));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const issuer = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const dev = createDevProvider({ issuer, clients, idTokenClaims });
  handler = dev.handler;
  return {
    issuer,
    port: address.port,
    provider: dev.provider,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
