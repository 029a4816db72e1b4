// Signing up and logging in through Titan's real HTTP API (as apps/server/src/testing/identity.ts
// does in-process): register → verification key from the development outbox → verify → login.
// The outbox exists only when Titan runs with NODE_ENV other than production, no SMTP_URL and a
// loopback HOST, and answers only requests from that machine, so sign-up needs a Titan started
// with { env: { NODE_ENV: 'development' } } on 127.0.0.1; login works on any.

async function call(baseUrl, method, path, { body, headers = {}, expect = [200] } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (!expect.includes(res.status)) {
    throw new Error(`${method} ${path} answered HTTP ${res.status}: ${text.slice(0, 400)}`);
  }
  return json;
}

export const authHeaders = (access, businessCode) => ({
  authorization: `Bearer ${access}`,
  ...(businessCode ? { 'x-business-code': businessCode } : {}),
});

/** { access, refresh, user } of a verified account. */
export async function login(baseUrl, email, password) {
  const out = await call(baseUrl, 'POST', '/api/auth/login/', { body: { email, password } });
  return out.result;
}

/** Registers, confirms the address from the development outbox and logs in. */
export async function signUp(baseUrl, { email, password, firstName = 'Bench', lastName = 'Owner' }) {
  await call(baseUrl, 'POST', '/api/auth/register/', {
    body: { first_name: firstName, last_name: lastName, email, password },
    expect: [201],
  });
  const outbox = await call(baseUrl, 'GET', `/api/dev/outbox/?to=${encodeURIComponent(email)}`, {
    expect: [200, 404],
  });
  if (!outbox) {
    throw new Error(
      'GET /api/dev/outbox/ is missing: start Titan with NODE_ENV=development and no SMTP_URL to sign up',
    );
  }
  const mails = outbox.result?.results ?? outbox.result ?? [];
  const link = mails.flatMap((m) => m.links ?? []).find((l) => l.includes('/auth/account-confirm-email/'));
  if (!link) throw new Error(`no confirmation mail to ${email} in the development outbox`);
  const key = link.split('/').filter(Boolean).at(-1);
  await call(baseUrl, 'POST', '/api/auth/register/verify-email/', { body: { key } });
  return login(baseUrl, email, password);
}

/** POST /api/business/ → the business, with its unique_code. */
export async function createBusiness(baseUrl, access, name) {
  const out = await call(baseUrl, 'POST', '/api/business/', {
    body: { name },
    headers: authHeaders(access),
    expect: [201],
  });
  return out.result;
}

export { call as apiCall };

/**
 * Signs an owner up on a short-lived development instance of Titan on `database` (its outbox holds
 * the confirmation mail), creates their business and stops the instance; answers the business code.
 */
export async function ownerOnDevInstance(ctx, database, owner, businessName) {
  ctx.progress('signing up the owner on a development instance');
  const dev = await ctx.startTitan(database, { env: { NODE_ENV: 'development' } });
  try {
    const session = await signUp(dev.url, owner);
    return (await createBusiness(dev.url, session.access, businessName)).unique_code;
  } finally {
    await dev.stop();
  }
}
