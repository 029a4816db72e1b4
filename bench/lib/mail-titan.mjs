// A Titan that sends real mail: an SMTP sink (bench/servers/smtp-count.mjs) and a DNS server
// (tools/dns-sim) in their own processes, the owner signed up on a development instance, then the
// built Titan (production, job workers on) with SMTP_URL at the sink and a sending domain verified
// against the DNS server. Used by the suites whose Titan sends email (campaign-send, journeys).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { apiCall, authHeaders, createBusiness, login, signUp } from './identity.mjs';
import { freePort, spawnNode, stopProcess, waitUntilReady } from './processes.mjs';
import { REPO_ROOT } from './servers.mjs';

export const HOST = '127.0.0.1';
const DNS_CLI = join(REPO_ROOT, 'tools', 'dns-sim', 'src', 'cli.ts');
const SINK = join(REPO_ROOT, 'bench', 'servers', 'smtp-count.mjs');

export async function startChild(label, script, env, readyUrl, tsx = false) {
  const proc = spawnNode(label, script, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...(tsx ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim() } : {}),
      ...env,
    },
  });
  try {
    await waitUntilReady(proc, readyUrl, { timeoutMs: 60_000 });
  } catch (err) {
    await stopProcess(proc);
    throw err;
  }
  return { label, pid: proc.child.pid, stop: () => stopProcess(proc) };
}

/** The sink's counts: messages, bytes, dkimSigned, verp, listUnsubscribePost. */
export async function sinkState(url) {
  return (await fetch(`${url}/state`)).json();
}

/**
 * Starts the sink, the DNS server and Titan, signs the owner up, verifies `domain`. Answers
 * `{titan, headers, businessCode, sink, sinkUrl, smtpPort}`; every process is stopped with the suite.
 */
export async function startMailTitan(ctx, database, { domain, owner, businessName, env = {} }) {
  ctx.progress('starting the SMTP sink and the DNS server');
  const [smtpPort, sinkHttp, dnsPort, dnsControl] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const sink = ctx.use(
    await startChild(
      'smtp sink',
      SINK,
      { SINK_SMTP_PORT: String(smtpPort), SINK_HTTP_PORT: String(sinkHttp) },
      `http://${HOST}:${sinkHttp}/state`,
    ),
  );
  const sinkUrl = `http://${HOST}:${sinkHttp}`;
  ctx.use(
    await startChild(
      'dns sim',
      DNS_CLI,
      { PORT: String(dnsPort), HOST, CONTROL_PORT: String(dnsControl), ZONES: domain },
      `http://${HOST}:${dnsControl}/zones`,
      true,
    ),
  );
  // One APP_SECRET for every start of this Titan: the domain's DKIM key is sealed with it, and a
  // Titan started again (the embedded database is one process's at a time) must open it.
  const mailEnv = { DNS_SERVERS: `${HOST}:${dnsPort}`, APP_SECRET: randomBytes(36).toString('base64url') };

  ctx.progress(`database ${database.name}; signing up the owner (titan in development)`);
  const dev = await ctx.startTitan(database, { env: { ...mailEnv, NODE_ENV: 'development' } });
  let businessCode;
  try {
    const session = await signUp(dev.url, { ...owner, firstName: 'Bench', lastName: 'Owner' });
    businessCode = (await createBusiness(dev.url, session.access, businessName)).unique_code;
  } finally {
    await dev.stop();
  }
  const titanEnv = {
    ...mailEnv,
    SMTP_URL: `smtp://${HOST}:${smtpPort}`,
    RUN_WORKERS: 'true',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const titan = ctx.use(await ctx.startTitan(database, { env: titanEnv }));
  const { access } = await login(titan.url, owner.email, owner.password);
  const headers = authHeaders(access, businessCode);

  ctx.progress(`verifying ${domain} against the DNS server`);
  const created = (
    await apiCall(titan.url, 'POST', '/api/email/domains/', { body: { domain }, headers, expect: [201] })
  ).result;
  for (const r of created.records) {
    const res = await fetch(`http://${HOST}:${dnsControl}/records`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: r.host, type: r.type, values: [r.value] }),
    });
    if (!res.ok) throw new Error(`the DNS server refused ${r.host}: HTTP ${res.status}`);
  }
  const verified = (await apiCall(titan.url, 'POST', `/api/email/domains/${created.id}/verify/`, { headers }))
    .result;
  if (verified.status !== 'verified')
    throw new Error(`the domain did not verify: ${JSON.stringify(verified.records)}`);
  // titanEnv: to start Titan again the same way (the embedded database is one process's at a time).
  return { titan, headers, businessCode, sink, sinkUrl, smtpPort, titanEnv };
}
