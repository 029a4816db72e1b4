// The demo's data, made through Titan's real HTTP API and the WhatsApp simulator's control API:
// an owner, the business "Titan Demo", its WhatsApp number on the simulator, the simulator's
// templates and a few customer messages. Safe to run again: each step only does what is missing.

export const DEMO_OWNER = {
  email: 'demo@titan.local',
  password: process.env.DEMO_PASSWORD || 'titan-demo-owner',
  firstName: 'Demo',
  lastName: 'Owner',
};
export const DEMO_BUSINESS = 'Titan Demo';
export const DEMO_VERIFY_TOKEN = 'titan-demo-verify-token';

/** The customers whose messages fill the inbox on the first run. */
export const DEMO_CUSTOMERS = [
  { from: '4915112345678', name: 'Ada Lovelace', text: 'Hi! Is my order #1042 on its way?' },
  { from: '447700900123', name: 'Alan Turing', text: 'Do you ship to Manchester? 📦' },
  { from: '15550109876', name: 'Grace Hopper', text: 'Can I change the delivery address of my order?' },
];

class ApiError extends Error {
  constructor(method, path, status, text) {
    super(`${method} ${path} answered HTTP ${status}: ${text.slice(0, 300)}`);
    this.status = status;
  }
}

/** One JSON call; resolves with { status, json } for the statuses in `expect`, else throws. */
async function call(baseUrl, method, path, { body, headers = {}, expect = [200] } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new ApiError(method, path, res.status, text);
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

const bearer = (access, businessCode) => ({
  authorization: `Bearer ${access}`,
  ...(businessCode ? { 'x-business-code': businessCode } : {}),
});

/**
 * Confirms the address: from `readMailLink(email, marker)` when the demo reads mail elsewhere (its
 * SMTP sink; asking Titan to send the mail again when it is not there, e.g. after a restart), else
 * from the development outbox (not production, no SMTP_URL, loopback HOST).
 */
async function verifyFromOutbox(titanUrl, email, readMailLink) {
  const marker = '/auth/account-confirm-email/';
  let link;
  if (readMailLink) {
    const poll = async () => {
      for (let i = 0; i < 50 && !link; i++) {
        link = await readMailLink(email, marker);
        if (!link) await new Promise((r) => setTimeout(r, 200));
      }
    };
    await poll();
    if (!link) {
      await call(titanUrl, 'POST', '/api/auth/register/resend-verification/', { body: { email } });
      await poll();
    }
    if (!link) throw new Error(`no confirmation mail to ${email} reached the SMTP sink`);
  } else {
    const { status, json } = await call(titanUrl, 'GET', `/api/dev/outbox/?to=${encodeURIComponent(email)}`, {
      expect: [200, 404],
    });
    if (status === 404) {
      throw new Error('GET /api/dev/outbox/ is missing: run Titan with NODE_ENV=development and no SMTP_URL');
    }
    link = (json.result ?? []).flatMap((mail) => mail.links ?? []).find((l) => l.includes(marker));
    if (!link) throw new Error(`no confirmation mail to ${email} in the development outbox`);
  }
  const key = link.split('/').filter(Boolean).at(-1);
  await call(titanUrl, 'POST', '/api/auth/register/verify-email/', { body: { key } });
}

/** Signs the owner in, registering and verifying first when the account does not exist yet. */
async function ownerSession(titanUrl, owner, log, readMailLink) {
  const credentials = { email: owner.email, password: owner.password };
  const first = await call(titanUrl, 'POST', '/api/auth/login/', {
    body: credentials,
    expect: [200, 400, 403],
  });
  if (first.status === 200) return { session: first.json.result, created: false };
  if (first.status === 400) {
    log(`signing up ${owner.email}`);
    const reg = await call(titanUrl, 'POST', '/api/auth/register/', {
      body: { first_name: owner.firstName, last_name: owner.lastName, ...credentials },
      expect: [201, 400],
    });
    if (reg.status === 400) {
      throw new Error(
        `${owner.email} exists but its password is not "${owner.password}" ` +
          `(${JSON.stringify(reg.json?.errors ?? reg.json)}): set DEMO_PASSWORD, or delete the demo's data directory to start over`,
      );
    }
  }
  // Registered just now, or earlier by a run that stopped before the verification (403).
  await verifyFromOutbox(titanUrl, owner.email, readMailLink);
  const { json } = await call(titanUrl, 'POST', '/api/auth/login/', { body: credentials });
  return { session: json.result, created: true };
}

/**
 * Seeds the demo on a running Titan (`titanUrl`, NODE_ENV=development) and wires the simulator
 * `sim`: { url (its base URL, for the control API), phoneNumberId, wabaId, displayPhoneNumber,
 * accessToken, appSecret } — the options it was started with plus its `url`. `webhookUrl` is
 * where the simulator posts (default: titanUrl's webhook on 127.0.0.1 when titanUrl is localhost).
 * `readMailLink(email, marker)`: where the demo reads mail when Titan sends it over SMTP (the
 * sink); without it the development outbox is read.
 * Returns { owner, business, created, conversations, customers, warnings }.
 */
export async function seedDemo({
  titanUrl,
  sim,
  owner = DEMO_OWNER,
  businessName = DEMO_BUSINESS,
  customers = DEMO_CUSTOMERS,
  webhookUrl,
  log = () => {},
  readMailLink,
}) {
  const warnings = [];
  const warn = (text) => {
    warnings.push(text);
    log(`warning: ${text}`);
  };

  const { session, created } = await ownerSession(titanUrl, owner, log, readMailLink);
  const { json: profile } = await call(titanUrl, 'GET', '/api/users/profile/', {
    headers: bearer(session.access),
  });
  let business = profile.result.businesses.find((b) => b.name === businessName);
  if (!business) {
    log(`creating the business "${businessName}"`);
    const { json } = await call(titanUrl, 'POST', '/api/business/', {
      body: { name: businessName },
      headers: bearer(session.access),
      expect: [201],
    });
    business = json.result;
  }
  const headers = bearer(session.access, business.unique_code);

  // Always saved: the simulator's credentials are those of this run (they may come from env).
  await call(titanUrl, 'PUT', '/api/whatsapp/account/', {
    headers,
    body: {
      phone_number_id: sim.phoneNumberId,
      waba_id: sim.wabaId,
      display_phone_number: sim.displayPhoneNumber,
      verify_token: sim.verifyToken ?? DEMO_VERIFY_TOKEN,
      access_token: sim.accessToken,
      app_secret: sim.appSecret,
    },
  });

  // Tolerated: a Titan without template sync (404) or a sync Meta refused still makes a demo.
  try {
    const { json } = await call(titanUrl, 'POST', '/api/whatsapp/template/sync/', { headers });
    log(`synced ${json.result.synced} WhatsApp templates from the simulator`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    warn(`template sync failed, the demo has no templates: ${err.message}`);
  }

  const target = webhookUrl ?? defaultWebhookUrl(titanUrl);
  await call(sim.url, 'POST', '/sim/webhook-url', { body: { url: target } });
  log(`simulator webhooks go to ${target}`);

  // The inbox gets its sample conversations once: only while it has no WhatsApp conversation.
  let conversations = await whatsappConversations(titanUrl, headers);
  if (conversations.length === 0 && customers.length > 0) {
    log(`sending ${customers.length} customer messages from the simulator`);
    for (const c of customers) {
      const { json } = await call(sim.url, 'POST', '/sim/inbound', {
        body: { from: c.from, name: c.name, type: 'text', text: c.text },
      });
      if (json.status !== 200)
        throw new Error(`Titan answered the simulator's webhook with HTTP ${json.status}`);
    }
    // The webhook's job runs in the background: wait until every conversation is there.
    const deadline = Date.now() + 30_000;
    while ((conversations = await whatsappConversations(titanUrl, headers)).length < customers.length) {
      if (Date.now() > deadline) {
        throw new Error(
          `only ${conversations.length} of ${customers.length} WhatsApp conversations after 30 s: are Titan's workers running?`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { owner, business, created, conversations, customers, warnings };
}

async function whatsappConversations(titanUrl, headers) {
  const { json } = await call(titanUrl, 'GET', '/api/msg/conversations/?channel__in=whatsapp&page_size=100', {
    headers,
  });
  return json.result.results;
}

/** The simulator posts from its own process: "localhost" may resolve to ::1 where Titan is not. */
function defaultWebhookUrl(titanUrl) {
  const url = new URL('/api/whatsapp/webhook/', titanUrl);
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url.toString();
}
