// The demo's data, made through Titan's real HTTP API with the typed client (@titan/client), so the
// demo breaks at compile time when the API it relies on changes, and the WhatsApp simulator's
// control API: an owner, the business "Titan Demo", its WhatsApp number on the simulator, the
// simulator's templates and a few customer messages; then the demo's SMS account, MCP server and
// plan (connectIntegrations). Safe to run again: each step only does what is missing.
import { createTitanClient, TitanApiError, unwrap, type TitanApi } from '@titan/client';

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

type Owner = typeof DEMO_OWNER;
type Customer = (typeof DEMO_CUSTOMERS)[number];
type Log = (text: string) => void;
type ReadMailLink = (email: string, marker: string) => Promise<string | undefined | null>;

/** The WhatsApp Cloud API simulator: the options it was started with, and its base URL. */
export type DemoSim = {
  url: string;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  accessToken: string;
  appSecret: string;
  verifyToken?: string;
};

/** One call to a simulator's control API (not Titan's API, so not the typed client). */
async function simCall(baseUrl: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/**
 * Confirms the address: from `readMailLink(email, marker)` when the demo reads mail elsewhere (its
 * SMTP sink; asking Titan to send the mail again when it is not there, e.g. after a restart), else
 * from the development outbox (not production, no SMTP_URL, loopback HOST).
 */
async function verifyEmail(open: TitanApi, email: string, readMailLink?: ReadMailLink) {
  const marker = '/auth/account-confirm-email/';
  let link: string | undefined | null;
  if (readMailLink) {
    const poll = async () => {
      for (let i = 0; i < 50 && !link; i++) {
        link = await readMailLink(email, marker);
        if (!link) await new Promise((r) => setTimeout(r, 200));
      }
    };
    await poll();
    if (!link) {
      const resent = await open.POST('/api/auth/register/resend-verification/', { body: { email } });
      if (!resent.response.ok)
        throw new Error(`resending the confirmation answered HTTP ${resent.response.status}`);
      await poll();
    }
    if (!link) throw new Error(`no confirmation mail to ${email} reached the SMTP sink`);
  } else {
    const outbox = await open.GET('/api/dev/outbox/', { params: { query: { to: email } } });
    if (outbox.response.status === 404) {
      throw new Error('GET /api/dev/outbox/ is missing: run Titan with NODE_ENV=development and no SMTP_URL');
    }
    const mails = await unwrap(outbox);
    link = mails.flatMap((mail) => mail.links ?? []).find((l) => l.includes(marker));
    if (!link) throw new Error(`no confirmation mail to ${email} in the development outbox`);
  }
  const key = link.split('/').filter(Boolean).at(-1)!;
  await unwrap(open.POST('/api/auth/register/verify-email/', { body: { key } }));
}

/** Signs the owner in, registering and verifying first when the account does not exist yet. */
async function ownerSession(open: TitanApi, owner: Owner, log: Log, readMailLink?: ReadMailLink) {
  const credentials = { email: owner.email, password: owner.password };
  const login = async () => {
    const session = await unwrap(open.POST('/api/auth/login/', { body: credentials }));
    if (!('access' in session))
      throw new Error(`${owner.email} signs in with a second factor: the demo cannot sign in as it`);
    return session;
  };
  try {
    return { session: await login(), created: false };
  } catch (err) {
    if (!(err instanceof TitanApiError) || (err.status !== 400 && err.status !== 403)) throw err;
    if (err.status === 400) {
      log(`signing up ${owner.email}`);
      try {
        await unwrap(
          open.POST('/api/auth/register/', {
            body: { first_name: owner.firstName, last_name: owner.lastName, ...credentials },
          }),
        );
      } catch (regErr) {
        if (!(regErr instanceof TitanApiError) || regErr.status !== 400) throw regErr;
        throw new Error(
          `${owner.email} exists but its password is not "${owner.password}" ` +
            `(${JSON.stringify(regErr.result)}): set DEMO_PASSWORD, or delete the demo's data directory to start over`,
        );
      }
    }
  }
  // Registered just now, or earlier by a run that stopped before the verification (403).
  await verifyEmail(open, owner.email, readMailLink);
  return { session: await login(), created: true };
}

/**
 * Seeds the demo on a running Titan (`titanUrl`, NODE_ENV=development) and wires the simulator
 * `sim`. `webhookUrl` is where the simulator posts (default: titanUrl's webhook on 127.0.0.1 when
 * titanUrl is localhost). `readMailLink(email, marker)`: where the demo reads mail when Titan sends
 * it over SMTP (the sink); without it the development outbox is read.
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
}: {
  titanUrl: string;
  sim: DemoSim;
  owner?: Owner;
  businessName?: string;
  customers?: Customer[];
  webhookUrl?: string;
  log?: Log;
  readMailLink?: ReadMailLink;
}) {
  const warnings: string[] = [];
  const warn = (text: string) => {
    warnings.push(text);
    log(`warning: ${text}`);
  };
  const open = createTitanClient({ baseUrl: titanUrl });
  const { session, created } = await ownerSession(open, owner, log, readMailLink);
  const signedIn = createTitanClient({ baseUrl: titanUrl, accessToken: session.access });
  const profile = await unwrap(signedIn.GET('/api/users/profile/'));
  let business: { id: number; name: string; unique_code: string } | undefined = profile.businesses.find(
    (b) => b.name === businessName,
  );
  if (!business) {
    log(`creating the business "${businessName}"`);
    business = await unwrap(signedIn.POST('/api/business/', { body: { name: businessName } }));
  }
  const api = createTitanClient({
    baseUrl: titanUrl,
    accessToken: session.access,
    businessCode: business.unique_code,
  });

  // Always saved: the simulator's credentials are those of this run (they may come from env).
  await unwrap(
    api.PUT('/api/whatsapp/account/', {
      body: {
        phone_number_id: sim.phoneNumberId,
        waba_id: sim.wabaId,
        display_phone_number: sim.displayPhoneNumber,
        verify_token: sim.verifyToken ?? DEMO_VERIFY_TOKEN,
        access_token: sim.accessToken,
        app_secret: sim.appSecret,
      },
    }),
  );

  // Tolerated: a sync Meta refused still makes a demo.
  try {
    const synced = await unwrap(api.POST('/api/whatsapp/template/sync/'));
    log(`synced ${synced.synced} WhatsApp templates from the simulator`);
  } catch (err) {
    if (!(err instanceof TitanApiError)) throw err;
    warn(`template sync failed, the demo has no templates: ${err.message}`);
  }

  const target = webhookUrl ?? defaultWebhookUrl(titanUrl);
  await simCall(sim.url, '/sim/webhook-url', { url: target });
  log(`simulator webhooks go to ${target}`);

  // The inbox gets its sample conversations once: only while it has no WhatsApp conversation.
  let conversations = await whatsappConversations(api);
  if (conversations.length === 0 && customers.length > 0) {
    log(`sending ${customers.length} customer messages from the simulator`);
    for (const c of customers) {
      const answer = await simCall(sim.url, '/sim/inbound', {
        from: c.from,
        name: c.name,
        type: 'text',
        text: c.text,
      });
      if (answer.status !== 200)
        throw new Error(`Titan answered the simulator's webhook with HTTP ${String(answer.status)}`);
    }
    // The webhook's job runs in the background: wait until every conversation is there.
    const deadline = Date.now() + 30_000;
    while ((conversations = await whatsappConversations(api)).length < customers.length) {
      if (Date.now() > deadline) {
        throw new Error(
          `only ${conversations.length} of ${customers.length} WhatsApp conversations after 30 s: are Titan's workers running?`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { owner, business, created, access: session.access, conversations, customers, warnings };
}

async function whatsappConversations(api: TitanApi) {
  const page = await unwrap(
    api.GET('/api/msg/conversations/', { params: { query: { channel__in: 'whatsapp', page_size: 100 } } }),
  );
  return page.results;
}

/** The simulator posts from its own process: "localhost" may resolve to ::1 where Titan is not. */
function defaultWebhookUrl(titanUrl: string) {
  const url = new URL('/api/whatsapp/webhook/', titanUrl);
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url.toString();
}

/**
 * The demo business's outside services, each through the typed client: its SMS account on the
 * Twilio simulator, the MCP simulator's bearer-token server, and a Chargebee customer (the
 * simulator's plan is then set by the caller). Each failure becomes a warning.
 */
export async function connectIntegrations({
  titanUrl,
  accessToken,
  businessCode,
  sms,
  mcp,
  warn,
}: {
  titanUrl: string;
  accessToken: string;
  businessCode: string;
  sms: { accountSid: string; authToken: string; number: string };
  mcp: { bearerUrl: string; token: string };
  warn: (text: string) => void;
}) {
  const api = createTitanClient({ baseUrl: titanUrl, accessToken, businessCode });
  try {
    // Titan checks the account with "Twilio" (the simulator) before saving it.
    await unwrap(
      api.PUT('/api/sms/account/', {
        body: { account_sid: sms.accountSid, auth_token: sms.authToken, from_number: sms.number },
      }),
    );
  } catch (err) {
    warn(`the SMS account could not be connected: ${(err as Error).message}`);
  }
  try {
    const servers = await unwrap(api.GET('/api/config/mcp-servers/'));
    if (!servers.some((s) => s.url === mcp.bearerUrl)) {
      await unwrap(
        api.POST('/api/config/mcp-servers/', {
          body: { name: 'Demo shop (bearer)', url: mcp.bearerUrl, auth: 'bearer', token: mcp.token },
        }),
      );
    }
  } catch (err) {
    warn(`the MCP simulator could not be registered: ${(err as Error).message}`);
  }
  // Makes the business a Chargebee customer on first run (a 502 after a restart is expected: the
  // customer exists in Titan already, and the simulator keeps nothing).
  await api.POST('/api/chargebee/portal-session/').catch(() => undefined);
}
