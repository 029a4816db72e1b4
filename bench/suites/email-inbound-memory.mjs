// Inbound email, memory (issue 30: "memory flat (peak RSS growth ≤ 100 MiB over 20,000 mails)"):
// 20,000 customers' mails (BENCH_INBOUND_MEMORY_MAILS) of a 50 KB body and a 200 KB attachment sent
// over SMTP to Titan's listener for the business's inbox address, after a warm-up of 200, with
// Titan's RSS (its process, the inbound threads included) sampled every 100 ms. Figures: the RSS at
// the start, its peak and the growth to the peak (target ≤ 100 MiB), the RSS at each fifth of the
// run (flat, not climbing), and mails/s. Checked: every mail is a message, one conversation per
// sender. Needs PostgreSQL; about as many seconds as mails / the email-inbound suite's mails/s.
import { cpuSeconds, rssBytes } from '../lib/rows-table.mjs';
import { countInbound, MAIL_SHAPE, sendAll, startInboundTitan } from '../lib/inbound-mail.mjs';

export const name = 'email-inbound-memory';

const MAILS = Number(process.env.BENCH_INBOUND_MEMORY_MAILS ?? 20_000);
const TARGET_RSS_MIB = 100;
const mib = (bytes) => bytes / 2 ** 20;
const fixed = (digits) => (v) => (typeof v === 'number' ? v.toFixed(digits) : (v ?? ''));

export const columns = [
  { key: 'mails', label: 'mails', align: 'right', format: (v) => v.toLocaleString('en-US') },
  { key: 'seconds', label: 'seconds', align: 'right', format: fixed(1) },
  { key: 'perSec', label: 'mails/s', align: 'right', format: fixed(1) },
  { key: 'rssStart', label: 'RSS start MiB', align: 'right', format: fixed(1) },
  { key: 'rssPeak', label: 'RSS peak MiB', align: 'right', format: fixed(1) },
  { key: 'growth', label: 'peak growth MiB', align: 'right', format: fixed(1) },
  { key: 'rssEnd', label: 'RSS end MiB', align: 'right', format: fixed(1) },
  { key: 'check', label: 'check' },
  { key: 'verdict', label: 'target' },
];

export async function run(ctx) {
  const database = await ctx.database();
  const notes = [`database: ${database.describe}`, `${MAILS.toLocaleString('en-US')} mails of ${MAIL_SHAPE}`];
  ctx.progress('starting titan with its SMTP listener');
  const { titan, business, inbox, listenerPort } = await startInboundTitan(ctx, database);
  ctx.progress('warm-up');
  await sendAll(listenerPort, inbox.address, Math.min(200, MAILS), 'warm');

  const rssStart = rssBytes(titan.pid);
  const cpu0 = cpuSeconds(titan.pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssBytes(titan.pid));
    } catch {
      // gone: the send fails below
    }
  }, 100);
  // Five legs: the RSS after each shows whether memory climbs with the mails taken.
  const legs = [];
  let seconds = 0;
  try {
    for (let leg = 0; leg < 5; leg++) {
      const n = Math.floor((MAILS * (leg + 1)) / 5) - Math.floor((MAILS * leg) / 5);
      ctx.progress(
        `${Math.floor((MAILS * leg) / 5).toLocaleString('en-US')} of ${MAILS.toLocaleString('en-US')} mails`,
      );
      seconds += await sendAll(listenerPort, inbox.address, n, `memory${leg}`);
      legs.push(mib(rssBytes(titan.pid)));
    }
  } catch (err) {
    throw new Error(`${err.message}\n--- titan's last output ---\n${titan.output()}`);
  } finally {
    clearInterval(sampler);
  }
  const rssEnd = rssBytes(titan.pid);
  const growth = mib(rssPeak - rssStart);
  notes.push(
    `RSS after each fifth of the mails: ${legs.map((v) => `${v.toFixed(1)} MiB`).join(', ')}`,
    `Titan's CPU: ${(((cpuSeconds(titan.pid) - cpu0) * 1000) / MAILS).toFixed(1)} ms per mail (all its threads)`,
  );

  const problems = [];
  for (let leg = 0; leg < 5; leg++) {
    const n = Math.floor((MAILS * (leg + 1)) / 5) - Math.floor((MAILS * leg) / 5);
    problems.push(
      ...(await countInbound(database, business.id, `memory${leg}`, n, notes)).map(
        (p) => `leg ${leg + 1}: ${p}`,
      ),
    );
  }
  return {
    title: `Inbound email → conversations: memory over ${MAILS.toLocaleString('en-US')} mails`,
    rows: [
      {
        mails: MAILS,
        seconds,
        perSec: MAILS / seconds,
        rssStart: mib(rssStart),
        rssPeak: mib(rssPeak),
        growth,
        rssEnd: mib(rssEnd),
        check: problems.length ? problems.join('; ') : 'ok',
        verdict: `growth ≤ ${TARGET_RSS_MIB} MiB ${growth <= TARGET_RSS_MIB ? 'pass' : 'FAIL'}`,
      },
    ],
    notes,
  };
}
