#!/usr/bin/env node
// `npm run demo`: Titan with its own embedded database (./data/demo) beside the local WhatsApp
// Cloud API simulator, seeded through the real API with the typed client on first run (scripts/demo-seed.ts), so the
// inbox, the WhatsApp channel and the customer's phone page can be tried by hand. A local
// authoritative DNS server (tools/dns-sim) holds the demo's sending domain, so a domain added in
// Settings → Email domains can be published and verified without the internet.
//
// Titan runs through scripts/start.mjs (config check, stale bundles rebuilt) with NODE_ENV=
// development. Its mail goes over SMTP to tools/smtp-sink (printed below with [sink]), which
// bounces and complains for the demo addresses and sends those reports back to Titan's bounce
// listener (BOUNCE_SMTP_PORT), so the whole email loop runs locally; sending domains verify against
// tools/dns-sim (DNS_SERVERS). Text messages go to tools/sms-sim (Twilio's Messages API, SMS_API_URL):
// the demo business's SMS account is connected to it, and its phone page texts the business back.
// Env: PORT (Titan, 3000), DEMO_SMS_SIM_PORT (the Twilio simulator, 4020), DEMO_SIM_PORT (simulator, 4010), DEMO_SMTP_PORT (sink, 2525),
// DEMO_BOUNCE_PORT (Titan's bounce listener, 2526), DEMO_DNS_PORT (DNS server, UDP and TCP, 5300),
// DEMO_DNS_CONTROL_PORT (its HTTP control, 5380), DEMO_LLM_PORT (the LLM simulator, 4030),
// DEMO_MCP_PORT (tools/mcp-sim, an MCP server behind its own OAuth server, 4040),
// DEMO_CHARGEBEE_PORT (the Chargebee simulator, 4050),
// DEMO_PASSWORD (the owner's, on first run),
// LOG_LEVEL (warn), the simulator's SIM_* credentials. Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { seedAreas } from './demo-areas.ts';
import { connectIntegrations, seedDemo } from './demo-seed.ts';

const root = join(import.meta.dirname, '..');
const DATA_DIR = './data/demo';

function portFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`${name}: expected a port number (1-65535) (got ${JSON.stringify(raw)})`);
    process.exit(1);
  }
  return port;
}

const titanPort = portFromEnv('PORT', 3000);
const simPort = portFromEnv('DEMO_SIM_PORT', 4010);
const smsSimPort = portFromEnv('DEMO_SMS_SIM_PORT', 4020);
/** The demo business's Twilio account on tools/sms-sim. */
const SMS = {
  accountSid: 'ACde300000000000000000000000000001',
  authToken: 'sms-sim-auth-token-for-the-demo',
  number: '+15550100200',
  phone: '+14155550123',
};
const dnsPort = portFromEnv('DEMO_DNS_PORT', 5300);
const dnsControlPort = portFromEnv('DEMO_DNS_CONTROL_PORT', 5380);
/** The zone the demo's DNS server is authoritative for: add this domain (or a name under it). */
const DEMO_DNS_ZONE = 'demo-shop.test';
const smtpPort = portFromEnv('DEMO_SMTP_PORT', 2525);
const bouncePort = portFromEnv('DEMO_BOUNCE_PORT', 2526);
/** Addresses the sink bounces (a DSN back to Titan) and complains about (an ARF report). */
const DEMO_BOUNCE = 'bounce@demo.test';
const DEMO_COMPLAIN = 'complain@demo.test';
const env = process.env;
const sim = {
  accessToken: env.SIM_ACCESS_TOKEN || 'sim-access-token-for-the-demo',
  appSecret: env.SIM_APP_SECRET || 'sim-app-secret-for-the-demo',
  phoneNumberId: env.SIM_PHONE_NUMBER_ID || '100000000000001',
  wabaId: env.SIM_WABA_ID || '200000000000001',
  displayPhoneNumber: env.SIM_DISPLAY_PHONE_NUMBER || '15550100100',
};

/** The children, each leading its own process group: Ctrl-C reaches only this process, which
 * then stops each child exactly once (a second signal makes Titan skip its graceful close). */
const children = [];
let stopping = false;

function startChild(label, args, childEnv, { pipeOutput }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    detached: true,
    stdio: ['ignore', pipeOutput ? 'pipe' : 'inherit', pipeOutput ? 'pipe' : 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const entry = { label, child, exited, running: true };
  exited.then(({ code, signal }) => {
    entry.running = false;
    if (!stopping) {
      console.error(`\n${label} exited (code ${code}, signal ${signal}); stopping the demo.`);
      void shutdown(1);
    }
  });
  children.push(entry);
  return entry;
}

/** SIGTERM to the child's whole group (a build start.mjs runs included); SIGKILL after 30 s. */
async function stopChild(entry) {
  if (!entry.running) return;
  try {
    process.kill(-entry.child.pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => {
    console.error(`${entry.label} did not stop after 30 s: killing it`);
    try {
      process.kill(-entry.child.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, 30_000);
  await entry.exited;
  clearTimeout(timer);
}

/** Stops both children and exits; when a stop is already under way, waits for it (never returns). */
async function shutdown(code) {
  if (stopping) return new Promise(() => {});
  stopping = true;
  console.log('\nStopping Titan and the simulators…');
  // Titan first: it may be posting to the simulator.
  for (const entry of [...children].reverse()) await stopChild(entry);
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
// If this process dies another way, the children must not linger.
process.on('exit', () => {
  for (const entry of children) {
    if (!entry.running) continue;
    try {
      process.kill(-entry.child.pid, 'SIGTERM');
    } catch {
      // gone
    }
  }
});

/**
 * Starts a simulator whose CLI prints what Titan needs: its output is shown tagged, and the answer
 * is `parse(everything printed so far)` once that is not null — or null when it exits first.
 */
function startPrinting(label, tag, script, childEnv, parse) {
  const proc = startChild(label, ['--import', 'tsx', script], childEnv, { pipeOutput: true });
  return new Promise((resolve) => {
    let text = '';
    proc.child.stdout.on('data', (chunk) => {
      text += chunk;
      for (const line of String(chunk).split('\n')) if (line.trim()) console.log(`[${tag}] ${line}`);
      const found = parse(text);
      if (found) resolve(found);
    });
    proc.child.stderr.on('data', (chunk) => process.stderr.write(`[${tag}] ${chunk}`));
    proc.exited.then(() => resolve(null));
  });
}

// ---- the simulator: its CLI prints the URLs Titan needs
const printed = await startPrinting(
  'the WhatsApp simulator',
  'sim',
  'tools/whatsapp-cloud-sim/src/cli.ts',
  {
    ...env,
    SIM_PORT: String(simPort),
    SIM_HOST: '127.0.0.1',
    SIM_ACCESS_TOKEN: sim.accessToken,
    SIM_APP_SECRET: sim.appSecret,
    SIM_PHONE_NUMBER_ID: sim.phoneNumberId,
    SIM_WABA_ID: sim.wabaId,
    SIM_DISPLAY_PHONE_NUMBER: sim.displayPhoneNumber,
    SIM_WEBHOOK_URL: '', // set once Titan is up
  },
  (text) => {
    const graph = /Graph URL:\s+(\S+)/.exec(text);
    const phone = /Phone page:\s+(\S+)/.exec(text);
    const base = /simulator on (\S+)/.exec(text);
    return graph && phone && base ? { graphUrl: graph[1], phoneUrl: phone[1], url: base[1] } : null;
  },
);
if (!printed) await shutdown(1);
Object.assign(sim, printed);

// ---- the Twilio simulator: Titan's texts go there; its phone page texts the business back
const smsSim = await startPrinting(
  'the SMS simulator',
  'sms',
  'tools/sms-sim/src/cli.ts',
  {
    ...env,
    SIM_PORT: String(smsSimPort),
    SIM_HOST: '127.0.0.1',
    SIM_ACCOUNT_SID: SMS.accountSid,
    SIM_AUTH_TOKEN: SMS.authToken,
    SIM_NUMBERS: SMS.number,
    SIM_STATUS_DELAY_MS: '1500',
    SIM_INBOUND_URL: `http://localhost:${titanPort}/api/sms/webhook/inbound/`,
  },
  (text) => {
    const api = /API URL:\s+(\S+)/.exec(text);
    const phone = /Phone page:\s+(\S+)/.exec(text);
    return api && phone ? { apiUrl: api[1], phoneUrl: phone[1] } : null;
  },
);
if (!smsSim) await shutdown(1);

// ---- the DNS server: Titan verifies sending domains against it (DNS_SERVERS)
const dns = await startPrinting(
  'the DNS server',
  'dns',
  'tools/dns-sim/src/cli.ts',
  {
    ...env,
    PORT: String(dnsPort),
    HOST: '127.0.0.1',
    CONTROL_PORT: String(dnsControlPort),
    ZONES: DEMO_DNS_ZONE,
  },
  (text) => {
    const address = /listening on (\S+)/.exec(text);
    const control = /Control endpoint: (\S+)\/zones/.exec(text);
    return address && control ? { address: address[1], control: control[1] } : null;
  },
);
if (!dns) await shutdown(1);

// ---- the LLM simulator: an OpenAI-compatible model for AI templates (Titan's LLM_*)
const llmPort = portFromEnv('DEMO_LLM_PORT', 4030);
const llm = await startPrinting(
  'the LLM simulator',
  'llm',
  'tools/llm-sim/src/cli.ts',
  { ...env, SIM_PORT: String(llmPort), SIM_HOST: '127.0.0.1' },
  (text) => {
    const base = /LLM_BASE_URL=(\S+)/.exec(text);
    const key = /LLM_API_KEY=(\S+)/.exec(text);
    const model = /LLM_MODEL=(\S+)/.exec(text);
    return base && key && model ? { baseUrl: base[1], apiKey: key[1], model: model[1] } : null;
  },
);
if (!llm) await shutdown(1);

// ---- the MCP simulator: an MCP server with business tools behind its own OAuth server
const mcpPort = portFromEnv('DEMO_MCP_PORT', 4040);
const mcp = await startPrinting(
  'the MCP simulator',
  'mcp',
  'tools/mcp-sim/src/cli.ts',
  { ...env, SIM_PORT: String(mcpPort), SIM_HOST: '127.0.0.1' },
  (text) => {
    const oauth = /OAuth-protected MCP server: (\S+)/.exec(text);
    const bearer = /Bearer-token MCP server: +(\S+) +\(token (\S+)\)/.exec(text);
    return oauth && bearer ? { oauthUrl: oauth[1], bearerUrl: bearer[1], token: bearer[2] } : null;
  },
);
if (!mcp) await shutdown(1);

// ---- the Chargebee simulator: billing (Titan's CHARGEBEE_*), its pricing page and portal, webhooks to Titan
const chargebeePort = portFromEnv('DEMO_CHARGEBEE_PORT', 4050);
const chargebee = await startPrinting(
  'the Chargebee simulator',
  'chargebee',
  'tools/chargebee-sim/src/cli.ts',
  {
    ...env,
    SIM_PORT: String(chargebeePort),
    SIM_HOST: '127.0.0.1',
    SIM_WEBHOOK_URL: `http://127.0.0.1:${titanPort}/api/chargebee/webhook/`,
  },
  (text) => {
    const vars = Object.fromEntries(
      [...text.matchAll(/(CHARGEBEE_[A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]),
    );
    const url = /Chargebee simulator on (\S+)/.exec(text);
    return url && vars.CHARGEBEE_WEBHOOK_PASSWORD ? { url: url[1], vars } : null;
  },
);
if (!chargebee) await shutdown(1);

// ---- the SMTP sink: Titan's mail goes there; reports for the demo addresses come back to Titan
const sinkProc = startChild(
  'the SMTP sink',
  ['--import', 'tsx', 'tools/smtp-sink/src/cli.ts'],
  {
    ...env,
    PORT: String(smtpPort),
    BOUNCE_TO: `127.0.0.1:${bouncePort}`,
    SINK_BOUNCE: DEMO_BOUNCE,
    SINK_COMPLAIN: DEMO_COMPLAIN,
  },
  { pipeOutput: true },
);
/** What the sink printed: every mail's recipient and text (the seed reads its confirmation link). */
let sinkText = '';
const sinkReady = new Promise((resolve) => {
  sinkProc.child.stdout.on('data', (chunk) => {
    sinkText += chunk;
    if (sinkText.length > 2_000_000) sinkText = sinkText.slice(-1_000_000);
    for (const line of String(chunk).split('\n')) if (line.trim()) console.log(`[sink] ${line}`);
    if (sinkText.includes('SMTP sink listening on')) resolve(true);
  });
  sinkProc.child.stderr.on('data', (chunk) => process.stderr.write(`[sink] ${chunk}`));
  sinkProc.exited.then(() => resolve(false));
});
if (!(await sinkReady)) await shutdown(1);
/** The newest link containing `marker` in a mail the sink printed for `email`. */
function readMailLink(email, marker) {
  const at = sinkText.lastIndexOf(`To:      ${email}`);
  if (at === -1) return null;
  const links = sinkText.slice(at).match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
  return links.find((l) => l.includes(marker)) ?? null;
}

// ---- Titan, on its own embedded database, mail through the sink, and fast WhatsApp retries
const titanEnv = { ...env };
// The demo's database, secret and URLs are its own, whatever the shell has for the normal server.
for (const key of ['DATABASE_URL', 'APP_SECRET', 'PUBLIC_URL', 'SMTP_URL', 'HOST', 'RUN_WORKERS']) {
  delete titanEnv[key];
}
Object.assign(titanEnv, {
  PORT: String(titanPort),
  DATA_DIR,
  NODE_ENV: 'development',
  // Request logs would bury the summary below; LOG_LEVEL=info brings them back.
  LOG_LEVEL: env.LOG_LEVEL || 'warn',
  WHATSAPP_GRAPH_URL: sim.graphUrl,
  WHATSAPP_RETRY_DELAYS_MS: '200,500,1000',
  DNS_SERVERS: dns.address,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  BOUNCE_SMTP_PORT: String(bouncePort),
  EMAIL_RETRY_DELAYS_MS: '1000,4000,16000',
  LLM_BASE_URL: llm.baseUrl,
  LLM_API_KEY: llm.apiKey,
  LLM_MODEL: llm.model,
  SMS_API_URL: smsSim.apiUrl,
  ...chargebee.vars,
});
const titanUrl = `http://localhost:${titanPort}`;
console.log(`Starting Titan on ${titanUrl} (DATA_DIR=${DATA_DIR}; stale bundles are built first)…`);
const titanProc = startChild('Titan', ['scripts/start.mjs'], titanEnv, { pipeOutput: false });

// Probed on 127.0.0.1: Titan binds IPv4 127.0.0.1, and "localhost" may resolve to ::1 first.
const probeUrl = `http://127.0.0.1:${titanPort}`;
for (;;) {
  if (!titanProc.running) await shutdown(1);
  try {
    const res = await fetch(`${probeUrl}/api/health/`, { signal: AbortSignal.timeout(2_000) });
    if (res.ok) break;
  } catch {
    // building or starting
  }
  await new Promise((r) => setTimeout(r, 300));
}

let seeded;
try {
  seeded = await seedDemo({
    titanUrl: probeUrl,
    sim,
    log: (text) => console.log(`[demo] ${text}`),
    readMailLink: async (email, marker) => readMailLink(email, marker),
  });
} catch (err) {
  console.error(`\nSeeding the demo failed: ${err.message}`);
  await shutdown(1);
}

const ownerAccess = seeded.access;

// The demo business's SMS account (the Twilio simulator), the MCP simulator's bearer-token server
// (its tools listed at once) and its Chargebee customer, through the typed client.
await connectIntegrations({
  titanUrl: probeUrl,
  accessToken: ownerAccess,
  businessCode: seeded.business.unique_code,
  sms: SMS,
  mcp,
  warn: (text) => seeded.warnings.push(text),
});

// Billing: the demo business is a Chargebee customer on the Growth plan, so it may send. The
// simulator keeps nothing across restarts: subscribing again re-creates the customer there.
try {
  const res = await fetch(`${chargebee.url}/sim/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      customer_id: `titan-${seeded.business.unique_code}`,
      plan_id: 'growth-USD-monthly',
    }),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
} catch (err) {
  seeded.warnings.push(`the demo business could not be subscribed to a plan: ${err.message}`);
}

// Every other area: a chat-widget conversation, email templates, a list of subscribed customers,
// an AI agent with a finished (dry) run against the LLM simulator.
await seedAreas({
  titanUrl: probeUrl,
  accessToken: ownerAccess,
  businessCode: seeded.business.unique_code,
  llm,
  log: (text) => console.log(`[demo] ${text}`),
  warn: (text) => seeded.warnings.push(text),
});

const customer = seeded.customers[0];
const phonePage = customer
  ? `${sim.phoneUrl}?wa_id=${customer.from}&name=${encodeURIComponent(customer.name)}`
  : sim.phoneUrl;
console.log(`
Titan demo is ready${seeded.created ? ' (seeded just now)' : ''}
  Titan:       ${titanUrl}
  Log in:      ${seeded.owner.email} / ${seeded.owner.password}   (business "${seeded.business.name}")
  Phone page:  ${phonePage}   (a customer chatting with the business on WhatsApp)
  Simulator:   ${sim.url}/sim/state
  SMS:         Settings → SMS is connected to the Twilio simulator (${smsSim.apiUrl}); send a test text to
               ${SMS.phone} and reply (or STOP) from its phone: ${smsSim.phoneUrl}?number=${encodeURIComponent(SMS.phone)}
  DNS server:  ${dns.address} (authoritative for ${DEMO_DNS_ZONE}); publish a record shown in
               Settings → Email domains with:
               curl -X PUT ${dns.control}/records -d '{"name":"<host>","type":"TXT","values":["<value>"]}'
  WhatsApp conversations in the inbox: ${seeded.conversations.length}, and one from the chat widget
  Email:       templates "Welcome back" and "Spring offer"; the list "Newsletter subscribers" (3 subscribed)
  Agents:      "Win-back (demo)" with a finished dry run: Event logs → Agents shows what it would send
  Campaigns:   "Spring offer (demo draft)" to the newsletter list: its checklist, preview and test send
  Billing:     the business is on the Growth plan of the Chargebee simulator (${chargebee.url}/sim/state);
               Settings → Billing shows usage against its quotas and opens its pricing page and portal
  AI model:    ${llm.model} at ${llm.baseUrl} (tools/llm-sim: scripted, deterministic answers;
               try ${titanUrl}/engage/ai-template)
  MCP servers: Settings → MCP servers lists the simulator's bearer-token server with its tools; add
               ${mcp.oauthUrl} with OAuth to go through its authorization page (tools/mcp-sim)
  Mail:        sent over SMTP to the sink (smtp://127.0.0.1:${smtpPort}; each mail printed with [sink]);
               ${DEMO_BOUNCE} bounces and ${DEMO_COMPLAIN} complains, back to Titan on port ${bouncePort}${seeded.warnings.map((w) => `\n  Warning: ${w}`).join('')}
  Data: ${DATA_DIR} (delete it to start over). Ctrl-C stops them all.
`);
