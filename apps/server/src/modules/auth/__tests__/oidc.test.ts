// OpenID Connect sign-in against a real provider (tools/oidc-dev) on loopback: the browser's part
// of the flow is driven over HTTP with a cookie jar, then the code is posted to Titan.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import type { TOAuthProvider } from '@titan/contracts';
import { startDevProvider, subjectFor, type RunningDevProvider } from '@titan/oidc-dev';
import { ConfigError, parseConfigEnv } from '../../../config';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, PASSWORD, signUp, uniqueEmail } from '../../../testing/identity';
import { MESSAGES } from '../auth.service';
import { OIDC_ERRORS } from '../oidc.service';

const PUBLIC_URL = 'https://titan.example.com';
const REDIRECT_URI = `${PUBLIC_URL}/auth-flow`;
const CLIENT_ID = 'titan-test';
const CLIENT_SECRET = 'a-client-secret-only-the-server-knows';

/** Just enough of a browser: follows nothing by itself, keeps cookies for one host. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async fetch(url: URL | string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const expired = attributes.some((a) => {
        const [key = '', value = ''] = a.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(value) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(value).getTime() <= Date.now();
        return false;
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  }

  /** Follows redirects until one leaves for `stopAt`, or a page answers. */
  async follow(res: Response, base: string, stopAt: string): Promise<Response | URL> {
    while (res.status >= 300 && res.status < 400) {
      const location = new URL(res.headers.get('location')!, base);
      if (location.href.startsWith(stopAt)) return location;
      res = await this.fetch(location);
    }
    return res;
  }
}

type Person = { email: string; verified?: boolean; givenName?: string; familyName?: string };
type Authorization = { code: string; state: string; verifier: string };

/**
 * What a person does in the browser: open the provider's authorization URL (built as the web app
 * builds it, from Titan's providers list), fill in the login page, and land on Titan's
 * /auth-flow with a code.
 */
async function authorize(provider: TOAuthProvider, person: Person, issuer: string): Promise<Authorization> {
  const browser = new Browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = new URL(provider.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: provider.client_id,
    redirect_uri: REDIRECT_URI,
    scope: provider.scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  const page = await browser.follow(await browser.fetch(url), issuer, REDIRECT_URI);
  if (page instanceof URL) throw new Error(`the provider skipped its login page: ${page.href}`);
  expect(page.status).toBe(200);
  const action = /<form method="post" action="([^"]+\/login)"/.exec(await page.text())?.[1];
  if (!action) throw new Error('no login form on the provider page');
  const form = new URLSearchParams({
    email: person.email,
    given_name: person.givenName ?? '',
    family_name: person.familyName ?? '',
  });
  if (person.verified ?? true) form.set('email_verified', 'on');
  const submitted = await browser.fetch(new URL(action, issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const landed = await browser.follow(submitted, issuer, REDIRECT_URI);
  if (!(landed instanceof URL)) throw new Error(`the provider did not redirect back: ${landed.status}`);
  expect(landed.searchParams.get('state')).toBe(state);
  return { code: landed.searchParams.get('code')!, state, verifier };
}

async function providersOf(app: FastifyInstance): Promise<TOAuthProvider[]> {
  const res = await app.inject({ method: 'GET', url: '/api/auth/oauth/providers/' });
  expect(res.statusCode).toBe(200);
  return res.json().result as TOAuthProvider[];
}

function oauthLogin(app: FastifyInstance, body: object, remoteAddress = '198.51.100.7') {
  return app.inject({ method: 'POST', url: '/api/auth/oauth/login/', payload: body, remoteAddress });
}

/** The whole sign-in: provider login page, then Titan's code exchange. */
async function signInWithProvider(rt: TestRuntime, issuer: string, person: Person) {
  const [provider] = await providersOf(rt.app!);
  const { code, state, verifier } = await authorize(provider!, person, issuer);
  return oauthLogin(rt.app!, {
    provider: provider!.id,
    code,
    state,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
}

async function countRows(rt: TestRuntime, sql: string, params: unknown[]): Promise<number> {
  const [row] = await rt.database.query<{ n: string | number }>(sql, params);
  return Number(row!.n);
}

const usersWith = (rt: TestRuntime, email: string) =>
  countRows(rt, 'select count(*) as n from users where lower(email) = lower($1)', [email]);
const sessionCount = (rt: TestRuntime) => countRows(rt, 'select count(*) as n from sessions', []);

describe('OIDC configuration', () => {
  const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
    try {
      parseConfigEnv(env);
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('is off by default and labels the button "Single sign-on"', () => {
    const cfg = parseConfigEnv({});
    expect(cfg.OIDC_ISSUER).toBeUndefined();
    expect(cfg.OIDC_LABEL).toBe('Single sign-on');
  });

  it('names each bad variable: a missing client id, a non-URL, plain http away from localhost', () => {
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com' })).toEqual([
      'OIDC_CLIENT_ID: required when OIDC_ISSUER is set',
    ]);
    expect(problemsOf({ OIDC_ISSUER: 'id.example.com', OIDC_CLIENT_ID: 'x' })[0]).toMatch(/^OIDC_ISSUER: /);
    expect(problemsOf({ OIDC_ISSUER: 'http://id.example.com', OIDC_CLIENT_ID: 'x' })).toEqual([
      'OIDC_ISSUER: expected an https:// URL (http:// only for localhost) (got "http://id.example.com")',
    ]);
    expect(problemsOf({ OIDC_ISSUER: 'http://127.0.0.1:4000', OIDC_CLIENT_ID: 'x' })).toEqual([]);
    expect(problemsOf({ OIDC_ISSUER: 'http://localhost:4000', OIDC_CLIENT_ID: 'x' })).toEqual([]);
  });
});

describe('OIDC sign-in with a confidential client', () => {
  let dev: RunningDevProvider;
  let rt: TestRuntime;
  let app: FastifyInstance;
  const signIn = (person: Person) => signInWithProvider(rt, dev.issuer, person);

  beforeAll(async () => {
    dev = await startDevProvider({
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [REDIRECT_URI],
          response_types: ['code'],
          grant_types: ['authorization_code'],
        },
      ],
    });
    rt = await createTestRuntime({
      env: {
        PUBLIC_URL,
        OIDC_ISSUER: dev.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_LABEL: 'Company SSO',
      },
    });
    app = rt.app!;
    await app.ready();
  });
  afterAll(async () => {
    await rt?.destroy();
    await dev?.close();
  });

  it('lists the provider with the authorization endpoint from its discovery document', async () => {
    expect(await providersOf(app)).toEqual([
      {
        id: 'oidc',
        label: 'Company SSO',
        authorization_endpoint: `${dev.issuer}/auth`,
        client_id: CLIENT_ID,
        scope: 'openid email profile',
      },
    ]);
  });

  it('creates a verified, passwordless user on first sign-in, whose tokens work', async () => {
    const email = uniqueEmail('sso-new');
    const res = await signIn({ email, givenName: 'Grace', familyName: 'Hopper' });
    expect(res.statusCode).toBe(200);
    const { access, refresh, user } = res.json().result;
    expect(user).toMatchObject({ email, first_name: 'Grace', last_name: 'Hopper', is_email_verified: true });
    expect(refresh).toEqual(expect.any(String));

    const profile = await app.inject({ method: 'GET', url: '/api/users/profile/', headers: as({ access }) });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().result).toMatchObject({ pk: user.pk, email, businesses: [] });

    const [row] = await rt.database.query<{ password_hash: string | null }>(
      'select password_hash from users where id = $1',
      [user.pk],
    );
    expect(row!.password_hash).toBeNull();
    const identities = await rt.database.query<{ provider: string; subject: string }>(
      'select provider, subject from user_identities where user_id = $1',
      [user.pk],
    );
    expect(identities).toEqual([{ provider: 'oidc', subject: subjectFor(email) }]);
    const events = await rt.database.query<{ event: string; properties: unknown }>(
      'select event, properties from analytics_events where user_id = $1 order by id',
      [user.pk],
    );
    expect(events).toEqual([
      { event: 'user_signed_up', properties: { method: 'oidc' } },
      { event: 'user_logged_in', properties: {} },
    ]);
  });

  it('signs the same person in again as the same user, found by subject', async () => {
    const email = uniqueEmail('sso-again');
    const first = await signIn({ email, givenName: 'Alan' });
    expect(first.statusCode).toBe(200);
    // The second time the provider does not vouch for the address: the linked subject is enough.
    const second = await signIn({ email, verified: false });
    expect(second.statusCode).toBe(200);
    expect(second.json().result.user.pk).toBe(first.json().result.user.pk);
    expect(second.json().result.access).not.toBe(first.json().result.access);
    expect(await usersWith(rt, email)).toBe(1);
    expect(
      await countRows(rt, 'select count(*) as n from user_identities where user_id = $1', [
        first.json().result.user.pk,
      ]),
    ).toBe(1);
  });

  it('links an existing password account by verified email, and its password keeps working', async () => {
    const local = await signUp(app, rt.mailer, { firstName: 'Ada' });
    const res = await signIn({ email: local.email, givenName: 'Someone', familyName: 'Else' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.user).toMatchObject({
      pk: local.user.pk,
      first_name: 'Ada',
      is_email_verified: true,
    });
    expect(await usersWith(rt, local.email)).toBe(1);
    const password = await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: local.email, password: PASSWORD },
      remoteAddress: '198.51.100.20',
    });
    expect(password.statusCode).toBe(200);
  });

  it('takes over an unverified local account by verified email and drops its unproven password', async () => {
    const email = uniqueEmail('sso-unverified-local');
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register/',
      payload: { first_name: 'Squatter', email, password: PASSWORD },
      remoteAddress: '198.51.100.21',
    });
    expect(reg.statusCode).toBe(201);
    const res = await signIn({ email });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.user).toMatchObject({ pk: reg.json().result.user.pk, is_email_verified: true });
    const password = await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email, password: PASSWORD },
      remoteAddress: '198.51.100.21',
    });
    expect(password.statusCode).toBe(400);
    expect(password.json().result).toEqual({ non_field_errors: [MESSAGES.badCredentials] });
  });

  it('refuses an address the provider has not verified, creating and linking nobody', async () => {
    const email = uniqueEmail('sso-unverified');
    const sessionsBefore = await sessionCount(rt);
    const res = await signIn({ email, verified: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(OIDC_ERRORS.emailUnverified);
    expect(res.json().result).toEqual({ non_field_errors: [OIDC_ERRORS.emailUnverified] });
    expect(await usersWith(rt, email)).toBe(0);

    // Nor is an existing account linked on an unverified claim of its address.
    const local = await signUp(app, rt.mailer);
    const linked = await signIn({ email: local.email, verified: false });
    expect(linked.statusCode).toBe(403);
    expect(
      await countRows(rt, 'select count(*) as n from user_identities where user_id = $1', [local.user.pk]),
    ).toBe(0);
    expect(await sessionCount(rt)).toBe(sessionsBefore + 1); // signUp's own login only
  });

  it('answers 400 and starts no session when the code_verifier is wrong or the code is bad', async () => {
    const email = uniqueEmail('sso-pkce');
    const [provider] = await providersOf(app);
    const { code, state, verifier } = await authorize(provider!, { email }, dev.issuer);
    const sessionsBefore = await sessionCount(rt);
    const failed = { non_field_errors: [OIDC_ERRORS.exchangeFailed] };

    const wrongVerifier = await oauthLogin(app, {
      provider: 'oidc',
      code,
      state,
      code_verifier: oidc.randomPKCECodeVerifier(),
      redirect_uri: REDIRECT_URI,
    });
    expect(wrongVerifier.statusCode).toBe(400);
    expect(wrongVerifier.json().result).toEqual(failed);

    const badCode = await oauthLogin(app, {
      provider: 'oidc',
      code: 'not-a-code-the-provider-issued',
      state,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().result).toEqual(failed);
    expect(await sessionCount(rt)).toBe(sessionsBefore);
    expect(await usersWith(rt, email)).toBe(0);
  });

  it('refuses a foreign redirect_uri and an unknown provider before touching the code', async () => {
    const email = uniqueEmail('sso-redirect');
    const [provider] = await providersOf(app);
    const { code, state, verifier } = await authorize(provider!, { email }, dev.issuer);
    const body = { provider: 'oidc', code, state, code_verifier: verifier, redirect_uri: REDIRECT_URI };

    const foreign = await oauthLogin(app, { ...body, redirect_uri: 'https://evil.example.com/auth-flow' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().result).toEqual({ redirect_uri: [OIDC_ERRORS.badRedirectUri] });
    const lookalike = await oauthLogin(app, { ...body, redirect_uri: `${REDIRECT_URI}?next=/x` });
    expect(lookalike.json().result).toEqual({ redirect_uri: [OIDC_ERRORS.badRedirectUri] });
    const unknown = await oauthLogin(app, { ...body, provider: 'google' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().result).toEqual({ provider: [OIDC_ERRORS.unknownProvider] });

    // The refusals did not spend the code.
    const ok = await oauthLogin(app, body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.user.email).toBe(email);
  });

  it('limits sign-in attempts per IP', async () => {
    const body = {
      provider: 'google',
      code: 'x',
      code_verifier: oidc.randomPKCECodeVerifier(),
      redirect_uri: REDIRECT_URI,
    };
    for (let i = 0; i < 30; i += 1) {
      expect((await oauthLogin(app, body, '203.0.113.99')).statusCode).toBe(400);
    }
    const limited = await oauthLogin(app, body, '203.0.113.99');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await oauthLogin(app, body, '203.0.113.100')).statusCode).toBe(400);
  });
});

describe('OIDC not configured', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await createTestRuntime({ env: { PUBLIC_URL } });
    await rt.app!.ready();
  });
  afterAll(() => rt?.destroy());

  it('offers no providers and refuses a login on the provider field', async () => {
    expect(await providersOf(rt.app!)).toEqual([]);
    const res = await oauthLogin(rt.app!, {
      provider: 'oidc',
      code: 'some-code',
      code_verifier: oidc.randomPKCECodeVerifier(),
      redirect_uri: REDIRECT_URI,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ provider: [OIDC_ERRORS.unknownProvider] });
  });
});

describe('OIDC with a public client, and a provider that is down at first', () => {
  const clientId = 'titan-public';
  let port: number;
  let dev: RunningDevProvider | undefined;
  let rt: TestRuntime;

  beforeAll(async () => {
    // A port nobody listens on yet: the provider comes up there later in the test.
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    rt = await createTestRuntime({
      env: { PUBLIC_URL, OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: clientId },
    });
    await rt.app!.ready();
  });
  afterAll(async () => {
    await rt?.destroy();
    await dev?.close();
  });

  it('answers an empty list and a clean 400 while discovery fails, then recovers', async () => {
    expect(await providersOf(rt.app!)).toEqual([]);
    const res = await oauthLogin(rt.app!, {
      provider: 'oidc',
      code: 'some-code',
      code_verifier: oidc.randomPKCECodeVerifier(),
      redirect_uri: REDIRECT_URI,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ non_field_errors: [OIDC_ERRORS.exchangeFailed] });

    dev = await startDevProvider({
      port,
      // Claims in the ID token this time, so Titan has no need to call userinfo.
      idTokenClaims: true,
      clients: [
        {
          client_id: clientId,
          token_endpoint_auth_method: 'none',
          redirect_uris: [REDIRECT_URI],
          response_types: ['code'],
          grant_types: ['authorization_code'],
        },
      ],
    });
    expect((await providersOf(rt.app!)).map((p) => p.authorization_endpoint)).toEqual([`${dev.issuer}/auth`]);
    const email = uniqueEmail('sso-public');
    const signedIn = await signInWithProvider(rt, dev.issuer, { email, givenName: 'Katherine' });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().result.user).toMatchObject({ email, first_name: 'Katherine', last_name: '' });
  });
});
