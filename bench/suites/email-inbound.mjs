// Inbound email → conversation (issue 30): customers' mail (a 50 KB body and a 200 KB attachment
// each) sent over SMTP by a pooled nodemailer client to Titan's listener (BOUNCE_SMTP_PORT) for the
// business's inbox address; Titan authenticates each (mailauth against a local DNS server,
// tools/dns-sim, so lookups answer at once), scores, sanitises, folds, stores the attachment and
// writes the conversation and message. The floor, in the same run, is a bare smtp-server (the
// package Titan's listener is built on) that only stores each message whole to a file, fed by the
// same client with the same connections. Target: Titan ≥ 0.5× the floor's mails/s; memory: Titan's
// RSS growth over the run ≤ 100 MiB (the issue's 20,000-mail memory run is email-inbound-memory).
// Checked: every mail is a message, one conversation per sender.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { countInbound, MAIL_SHAPE, sendAll, startInboundTitan } from '../lib/inbound-mail.mjs';
import { freePort } from '../lib/processes.mjs';
import { watchBackendCpu } from '../lib/pg-cpu.mjs';
import { cpuSeconds, rssBytes } from '../lib/rows-table.mjs';

export const name = 'email-inbound';

const MAILS = Number(process.env.BENCH_INBOUND_MAILS ?? 2_000);
const TARGET_RATIO = 0.5;
const TARGET_RSS_MIB = 100;

const num = (v) => (typeof v === 'number' ? Math.round(v).toLocaleString('en-US') : (v ?? ''));
export const columns = [
  { key: 'side', label: 'side' },
  { key: 'mails', label: 'mails', align: 'right', format: num },
  {
    key: 'seconds',
    label: 'seconds',
    align: 'right',
    format: (v) => (typeof v === 'number' ? v.toFixed(2) : ''),
  },
  {
    key: 'perSec',
    label: 'mails/s',
    align: 'right',
    format: (v) => (typeof v === 'number' ? v.toFixed(1) : ''),
  },
  {
    key: 'rss',
    label: 'RSS growth MiB',
    align: 'right',
    format: (v) => (typeof v === 'number' ? v.toFixed(1) : ''),
  },
  {
    key: 'cpuMs',
    label: 'CPU ms/mail',
    align: 'right',
    format: (v) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(1) : ''),
  },
  {
    key: 'pgCpuMs',
    label: 'PostgreSQL CPU ms/mail',
    align: 'right',
    format: (v) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(1) : ''),
  },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: 'target' },
];

/** The floor: smtp-server storing each message whole to its own file, nothing else. */
async function startBareStore() {
  const dir = await mkdtemp(join(tmpdir(), 'titan-bench-inbound-'));
  let stored = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, callback) {
      const out = createWriteStream(join(dir, `${stored + Math.random()}.eml`));
      stream.pipe(out);
      out.on('finish', () => {
        stored += 1;
        callback();
      });
      out.on('error', callback);
    },
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    port,
    stored: () => stored,
    stop: async () => {
      await new Promise((r) => server.close(r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function run(ctx) {
  const database = await ctx.database();
  const notes = [`database: ${database.describe}`, `${MAILS.toLocaleString('en-US')} mails of ${MAIL_SHAPE}`];
  ctx.progress('starting titan with its SMTP listener');
  const { titan, business, inbox, listenerPort } = await startInboundTitan(ctx, database);

  // ---- floor
  ctx.progress('floor: bare smtp-server storing each message');
  const bare = await startBareStore();
  ctx.defer(() => bare.stop());
  await sendAll(bare.port, inbox.address, Math.min(200, MAILS), 'floor-warm');
  const floorCpu0 = process.cpuUsage();
  const floorSeconds = await sendAll(bare.port, inbox.address, MAILS, 'floor');
  const floorCpu = process.cpuUsage(floorCpu0);
  const floorRate = MAILS / floorSeconds;

  // ---- titan
  ctx.progress('titan: warm-up');
  await sendAll(listenerPort, inbox.address, Math.min(200, MAILS), 'warm').catch((err) => {
    throw new Error(`${err.message}\n--- titan's last output ---\n${titan.output()}`);
  });
  ctx.progress(`titan: ${MAILS.toLocaleString('en-US')} mails into conversations`);
  const rssStart = rssBytes(titan.pid);
  let rssPeak = rssStart;
  // CPU: Titan's process (its threads included), its PostgreSQL backends, and this process (the
  // client alone now; the client and the floor's server before).
  const pgCpu = database.kind === 'postgres' ? await watchBackendCpu(database.url) : null;
  const titanCpu0 = cpuSeconds(titan.pid);
  const clientCpu0 = process.cpuUsage();
  const sampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssBytes(titan.pid));
    } catch {
      // gone: the checks below fail
    }
    void pgCpu?.sample().catch(() => undefined);
  }, 100);
  let titanSeconds;
  try {
    titanSeconds = await sendAll(listenerPort, inbox.address, MAILS, 'titan');
  } catch (err) {
    // A refused mail: what Titan logged says why.
    throw new Error(`${err.message}\n--- titan's last output ---\n${titan.output()}`);
  } finally {
    clearInterval(sampler);
  }
  await pgCpu?.sample();
  const clientCpu = process.cpuUsage(clientCpu0);
  const titanCpuMs = ((cpuSeconds(titan.pid) - titanCpu0) * 1000) / MAILS;
  const pgCpuMs = pgCpu ? (pgCpu.total() * 1000) / MAILS : NaN;
  await pgCpu?.end();
  const usMs = (u) => (u.user + u.system) / 1000 / MAILS;
  const floorServerMs = usMs(floorCpu) - usMs(clientCpu);
  notes.push(
    `CPU per mail: titan ${titanCpuMs.toFixed(1)} ms (all its threads), its PostgreSQL backends ` +
      `${Number.isFinite(pgCpuMs) ? `${pgCpuMs.toFixed(1)} ms` : 'not measured'}; the floor's server ` +
      `${floorServerMs.toFixed(1)} ms (this process during the floor, ${usMs(floorCpu).toFixed(1)} ms, less ` +
      `the client alone during titan's run, ${usMs(clientCpu).toFixed(1)} ms)`,
  );
  const titanRate = MAILS / titanSeconds;
  const rssGrowth = (rssPeak - rssStart) / 2 ** 20;

  // Each mail was accepted only once stored (250 after the transaction): count them.
  const problems = await countInbound(database, business.id, 'titan', MAILS, notes);
  const ratio = titanRate / floorRate;
  return {
    title: 'Inbound email → conversations through SMTP',
    rows: [
      {
        side: 'bare smtp-server (store only)',
        mails: MAILS,
        seconds: floorSeconds,
        perSec: floorRate,
        cpuMs: floorServerMs,
        check: bare.stored() >= MAILS ? 'ok' : `${bare.stored()} stored`,
        verdict: '',
      },
      {
        side: 'titan (auth, score, parse, store, conversation)',
        mails: MAILS,
        seconds: titanSeconds,
        perSec: titanRate,
        rss: rssGrowth,
        cpuMs: titanCpuMs,
        pgCpuMs,
        check: problems.length ? problems.join('; ') : 'ok',
        verdict: `${ratio.toFixed(2)}× floor (≥ ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'pass' : 'FAIL'}; RSS ${rssGrowth <= TARGET_RSS_MIB ? 'pass' : 'FAIL'}`,
      },
    ],
    notes,
  };
}
