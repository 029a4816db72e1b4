// An AI agent's run over a list of 10,000 customers through the built Titan server, against
// tools/llm-sim answering at once (no chunk delay): POST /api/agents/{id}/run-now/ answers 202, and
// the `agents.run` job pages through the audience — per recipient the guardrails known beforehand
// (consent, suppression, the weekly cap across agents, quiet hours), one structured-decision call
// to the model (its usage recorded), the send guardrails, a delivery per recipient and a step per
// call written a page at a time with the cursor — and the planned deliveries become SMS sends
// (recorded, queued, handed to the `sms.send` job, which posts them to tools/sms-sim meanwhile),
// until the run is `completed`. Titan's peak RSS is sampled every 100 ms (and at each tenth of the
// run, to show it flat).
//
// The floor, in the same run: the bench process making the same number of chat completions at the
// simulator, with the very body Titan sent (system prompt, customer, json_schema) and as many in
// flight as Titan's run (8). Titan's own time per recipient = (Titan's total − the floor's) / N.
//
// Env: BENCH_AGENT_RECIPIENTS (default 10000).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Agent, fetch as undiciFetch } from 'undici';
import { apiCall, authHeaders, login, ownerOnDevInstance } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { freePort, spawnNode, stopProcess, waitUntilReady } from '../lib/processes.mjs';
import { cpuSeconds, rssBytes } from '../lib/rows-table.mjs';
import { REPO_ROOT } from '../lib/servers.mjs';

export const name = 'agents-run';

const TARGET_MS_PER_RECIPIENT = 5;
const IN_FLIGHT = 8; // Titan's run decides 8 recipients at once (AgentRunDeps.concurrency)
const HOST = '127.0.0.1';
const OWNER = { email: 'bench.agents@example.test', password: 'bench correct horse battery staple' };
const LLM_CLI = join(REPO_ROOT, 'tools', 'llm-sim', 'src', 'cli.ts');
const SMS_CLI = join(REPO_ROOT, 'tools', 'sms-sim', 'src', 'cli.ts');
const LLM_KEY = 'bench-llm-key';
const LLM_MODEL = 'titan-sim-1';
const ACCOUNT = {
  sid: 'ACbe1cbe1cbe1cbe1cbe1cbe1cbe1cbe1c',
  token: 'bench-auth-token-0123456789abcdef',
  number: '+15550100901',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const num = (digits) => (v) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const mib = (v) => (Number.isFinite(v) ? (v / 2 ** 20).toFixed(0) : '—');

export const columns = [
  { key: 'side', label: 'side' },
  { key: 'recipients', label: 'recipients', align: 'right' },
  { key: 'seconds', label: 'seconds', align: 'right', format: num(1) },
  { key: 'perRecipientMs', label: 'ms/recipient', align: 'right', format: num(2) },
  { key: 'titanMs', label: 'Titan ms/recipient (− floor)', align: 'right', format: num(2) },
  { key: 'cpuMs', label: 'Titan CPU ms/recipient', align: 'right', format: num(2) },
  { key: 'rssStart', label: 'RSS start MiB', align: 'right', format: mib },
  { key: 'rssPeak', label: 'peak RSS MiB', align: 'right', format: mib },
  { key: 'rssTenths', label: 'RSS at each tenth (MiB)' },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: `target (Titan ≤ ${TARGET_MS_PER_RECIPIENT} ms/recipient, RSS flat)` },
];

async function startSim(ctx, label, cli, env, readyPath) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const proc = spawnNode(label, cli, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim(),
      SIM_PORT: String(port),
      SIM_HOST: HOST,
      ...env,
    },
  });
  try {
    await waitUntilReady(proc, `${url}${readyPath}`, { timeoutMs: 60_000 });
  } catch (err) {
    await stopProcess(proc);
    throw err;
  }
  ctx.use({ label, pid: proc.child.pid, stop: () => stopProcess(proc) });
  return url;
}

export async function run(ctx) {
  const count = intFromEnv('BENCH_AGENT_RECIPIENTS', 10_000);
  const database = await ctx.database();
  if (database.kind !== 'postgres') throw new Error(`this suite needs PostgreSQL: ${database.describe}`);

  ctx.progress('starting the LLM simulator (answering at once) and the Twilio simulator');
  const llmUrl = await startSim(
    ctx,
    'llm sim',
    LLM_CLI,
    { SIM_API_KEY: LLM_KEY, SIM_MODELS: LLM_MODEL, SIM_CHUNK_DELAY_MS: '0' },
    '/sim/state',
  );
  const smsUrl = await startSim(
    ctx,
    'sms sim',
    SMS_CLI,
    {
      SIM_ACCOUNT_SID: ACCOUNT.sid,
      SIM_AUTH_TOKEN: ACCOUNT.token,
      SIM_NUMBERS: ACCOUNT.number,
      SIM_STATUS_DELAY_MS: '0',
    },
    '/sim/stats',
  );

  const businessCode = await ownerOnDevInstance(ctx, database, OWNER, 'Bench Agents Ltd');
  const titan = ctx.use(
    await ctx.startTitan(database, {
      env: {
        RUN_WORKERS: 'true',
        LOG_LEVEL: 'warn',
        SMS_API_URL: smsUrl,
        // The server's model (a business's own must be https in production).
        LLM_BASE_URL: `${llmUrl}/v1`,
        LLM_API_KEY: LLM_KEY,
        LLM_MODEL,
      },
    }),
  );
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  const headers = authHeaders(access, businessCode);
  await apiCall(titan.url, 'PUT', '/api/sms/account/', {
    body: { account_sid: ACCOUNT.sid, auth_token: ACCOUNT.token, from_number: ACCOUNT.number },
    headers,
  });
  const list = (
    await apiCall(titan.url, 'POST', '/api/business/customer-lists/', {
      body: { name: 'Everyone' },
      headers,
      expect: [201],
    })
  ).result;

  ctx.progress(
    `seeding ${count.toLocaleString('en-US')} customers (mobile numbers, SMS opt-in) into the list`,
  );
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 2,
    application_name: 'titan-bench-agents',
  });
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const {
    rows: [biz],
  } = await pool.query('select id from businesses where unique_code = $1', [businessCode]);
  await pool.query(
    `with c as (
       insert into customers (business_id, name, phone, sms_status, fields)
       select $1, 'Customer ' || g, '+1415' || lpad(g::text, 7, '0'), 'subscribed',
         jsonb_build_object('plan', case when g % 3 = 0 then 'gold' else 'basic' end)
       from generate_series(1, $2) g returning id)
     insert into customer_list_members (list_id, customer_id) select $3, id from c`,
    [biz.id, count, list.id],
  );
  await pool.query('analyze customers; analyze customer_list_members');

  /** One agent run over the whole list in `mode`, watched until it ends: its row of the table. */
  const measureRun = async (mode) => {
    const agent = (
      await apiCall(titan.url, 'POST', '/api/agents/', {
        headers,
        expect: [201],
        body: {
          name: `Win-back (${mode})`,
          status: 'active',
          config: {
            instructions:
              'Write one short, friendly text inviting the customer back. Gold customers get a thank-you.',
            goal: 'Bring back customers who have not visited lately',
            audience: { list_ids: [list.id] },
            channels: [{ channel: 'sms' }],
            tools: [],
            limits: { max_sends_per_run: 10_000, per_recipient_per_week: 1, max_steps: 2, max_tokens: 4000 },
            send_mode: mode,
            quiet_hours: null,
          },
        },
      })
    ).result;
    await fetch(`${llmUrl}/sim/reset`, { method: 'POST' });
    ctx.progress(`titan (${mode}): an agent run over ${count.toLocaleString('en-US')} recipients`);
    const rssStart = rssBytes(titan.pid);
    const cpuStart = cpuSeconds(titan.pid);
    let rssPeak = rssStart;
    const rssTenths = [];
    const t0 = performance.now();
    const runs = (
      await apiCall(titan.url, 'POST', `/api/agents/${agent.id}/run-now/`, {
        headers,
        body: {},
        expect: [202],
      })
    ).result.runs;
    const runId = runs[0].id;
    let detail;
    let progressAt = 0;
    for (;;) {
      rssPeak = Math.max(rssPeak, rssBytes(titan.pid));
      const { rows } = await pool.query(
        `select status, (counts->>'considered')::int as considered, error from agent_runs where id = $1`,
        [runId],
      );
      const considered = rows[0].considered ?? 0;
      while (rssTenths.length < 10 && considered >= ((rssTenths.length + 1) * count) / 10)
        rssTenths.push(rssBytes(titan.pid));
      if (rows[0].status !== 'running') {
        detail = rows[0];
        break;
      }
      if (performance.now() - t0 > 60 * 60_000)
        throw new Error(`titan: ${considered} of ${count} after an hour`);
      if (performance.now() - progressAt > 10_000) {
        progressAt = performance.now();
        ctx.progress(`titan (${mode}): ${considered} recipients decided`);
      }
      await sleep(100);
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpuMs = ((cpuSeconds(titan.pid) - cpuStart) * 1000) / count;
    const { rows: checkRows } = await pool.query(
      `select count(*)::int as deliveries,
         count(*) filter (where status = 'sent')::int as sent,
         count(distinct idempotency_key)::int as keys,
         (select count(*)::int from sends where cause_id = $2) as sends,
         (select count(*)::int from agent_run_steps where run_id = $1) as steps,
         (select count(*)::int from llm_usage where ref = $2) as llm_calls
       from agent_deliveries where run_id = $1`,
      [runId, runId],
    );
    const check = checkRows[0];
    const expectedSends = mode === 'auto' ? count : 0;
    const ok =
      detail.status === 'completed' &&
      check.deliveries === count &&
      check.sent === expectedSends &&
      check.keys === count &&
      check.sends === expectedSends &&
      check.llm_calls === count;
    const sample = (await (await fetch(`${llmUrl}/sim/requests`)).json()).requests[0]?.body;
    return {
      sample,
      row: {
        side:
          mode === 'auto'
            ? 'titan: agent run, auto (SMS sends made and going out to Twilio meanwhile)'
            : 'titan: agent run, dry run (every decision recorded, nothing sent)',
        recipients: count,
        seconds,
        perRecipientMs: (seconds * 1000) / count,
        cpuMs,
        rssStart,
        rssPeak,
        rssTenthsBytes: rssTenths,
        rssTenths: rssTenths.map((b) => Math.round(b / 2 ** 20)).join(' '),
        check: ok
          ? `ok: ${check.deliveries} deliveries, ${check.sent} sent, ${check.steps} steps, ${check.llm_calls} LLM calls recorded`
          : `MISMATCH: ${JSON.stringify({ status: detail.status, error: detail.error, ...check })}`,
        ok,
      },
    };
  };

  const dry = await measureRun('dry_run');
  const auto = await measureRun('auto');
  const sample = dry.sample ?? auto.sample;
  if (!sample) throw new Error('the simulator recorded no request from Titan');
  await titan.stop();

  // ---- the floor: the same chat completions, straight at the simulator
  await fetch(`${llmUrl}/sim/reset`, { method: 'POST' });
  ctx.progress(`floor: ${count.toLocaleString('en-US')} bare chat completions, ${IN_FLIGHT} in flight`);
  const dispatcher = new Agent({ connections: IN_FLIGHT, keepAliveTimeout: 30_000 });
  ctx.defer(() => dispatcher.close());
  const body = JSON.stringify(sample);
  const f0 = performance.now();
  let next = 0;
  let refused = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await undiciFetch(`${llmUrl}/v1/chat/completions`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${LLM_KEY}`, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) refused++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const floorSeconds = (performance.now() - f0) / 1000;

  const finish = ({ row }) => {
    const titanMs = ((row.seconds - floorSeconds) * 1000) / count;
    const t = row.rssTenthsBytes;
    // Flat: the heap levels off — the last three tenths of the run within 32 MiB of each other (a
    // leak of a few KiB per recipient would move them apart by tens of MiB).
    const last3 = t.slice(-3);
    const flat = t.length === 10 && Math.max(...last3) - Math.min(...last3) < 32 * 2 ** 20;
    const { rssTenthsBytes: _t, ok, ...rest } = row;
    return {
      ...rest,
      titanMs,
      verdict:
        ok && titanMs <= TARGET_MS_PER_RECIPIENT && flat
          ? 'met'
          : `not met${titanMs > TARGET_MS_PER_RECIPIENT ? ` (${titanMs.toFixed(2)} ms)` : ''}${flat ? '' : ' (RSS still growing)'}`,
    };
  };
  ctx.note(
    `Titan's own time per recipient is (Titan's seconds − the floor's) / recipients; the floor makes the same chat completion (Titan's own request body) ${IN_FLIGHT} at a time. ` +
      'The auto row includes, in the same process and at the same time, the SMS channel taking the sends to Twilio and applying its status callbacks (sms-bulk measures that alone). ' +
      'RSS flat: the last three tenths of the run within 32 MiB of each other (the heap levels off). The machine is shared: figures move with its load.',
  );
  return [
    finish(dry),
    finish(auto),
    {
      side: 'floor (bare chat completions)',
      recipients: count,
      seconds: floorSeconds,
      perRecipientMs: (floorSeconds * 1000) / count,
      titanMs: NaN,
      cpuMs: NaN,
      rssStart: NaN,
      rssPeak: NaN,
      rssTenths: '',
      check: refused === 0 ? 'ok' : `${refused} refused`,
      verdict: '',
    },
  ];
}
