// GET /api/health/ on the real built Titan server (one `select 1` on PostgreSQL per request),
// beside a bare Fastify hello-world measured on the same machine in the same run.
export const name = 'health';

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');
const perSec = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');

export const columns = [
  { key: 'server', label: 'server' },
  {
    key: 'reqPerSec',
    label: 'req/s',
    align: 'right',
    format: (v, row) => (row.kind === 'ratio' ? ratio(v) : perSec(v)),
  },
  {
    key: 'p50Ms',
    label: 'p50 ms',
    align: 'right',
    format: (v, row) => (row.kind === 'ratio' ? ratio(v) : ms(v)),
  },
  {
    key: 'p99Ms',
    label: 'p99 ms',
    align: 'right',
    format: (v, row) => (row.kind === 'ratio' ? ratio(v) : ms(v)),
  },
];

function row(server, m) {
  return {
    server,
    kind: 'measured',
    reqPerSec: m.reqPerSec,
    p50Ms: m.latencyMs.p50,
    p99Ms: m.latencyMs.p99,
    p90Ms: m.latencyMs.p90,
    responses2xx: m.responses2xx,
    non2xx: m.non2xx,
    errors: m.errors,
    timeouts: m.timeouts,
    statusCodes: m.statusCodes,
    durationS: m.durationS,
    url: m.url,
  };
}

export async function run(ctx) {
  const { settings } = ctx;
  const database = await ctx.database();
  // The full description (and any fallback warning) is printed under the table too.
  ctx.progress(database.kind === 'postgres' ? `database: postgres, ${database.name}` : database.describe);
  const notes = [
    `database: ${database.describe}`,
    'titan: apps/server/dist/main.js with NODE_ENV=production, LOG_LEVEL=warn, RUN_WORKERS=false (an API instance), ' +
      'default pool; each request runs `select 1` on the database',
  ];

  // One server at a time, so the idle one takes nothing from the measured one.
  ctx.progress('starting bare fastify');
  const bare = ctx.use(await ctx.startBareFastify());
  ctx.progress(`measuring bare fastify at ${bare.url}/ (pid ${bare.pid})`);
  const bareM = await ctx.measure({ url: `${bare.url}/` });
  await bare.stop();

  ctx.progress('starting titan');
  const titan = ctx.use(await ctx.startTitan(database));
  ctx.progress(`measuring titan at ${titan.url}/api/health/ (pid ${titan.pid})`);
  const titanM = await ctx.measure({ url: `${titan.url}/api/health/` });
  await titan.stop();

  for (const [label, m] of [
    ['titan', titanM],
    ['bare fastify', bareM],
  ]) {
    const failed = m.non2xx + m.errors + m.timeouts;
    if (failed > 0) {
      notes.push(
        `WARNING: ${label} had ${m.non2xx} non-2xx responses, ${m.errors} errors, ${m.timeouts} timeouts ` +
          `(status codes ${JSON.stringify(m.statusCodes)}); req/s counts 2xx only`,
      );
    }
    if (m.responses2xx === 0) throw new Error(`${label} answered no request with 2xx: no figures to report`);
  }

  return {
    title:
      `health — GET /api/health/ vs bare Fastify hello-world ` +
      `(${database.kind}, ${settings.connections} connections, ${settings.durationS} s)`,
    rows: [
      row('titan /api/health', titanM),
      row('bare fastify', bareM),
      {
        server: 'ratio titan/bare',
        kind: 'ratio',
        reqPerSec: titanM.reqPerSec / bareM.reqPerSec,
        p50Ms: null, // left blank in the table: the ratios of interest are throughput and tail
        p99Ms: titanM.latencyMs.p99 / bareM.latencyMs.p99,
        p50Ratio: titanM.latencyMs.p50 / bareM.latencyMs.p50,
      },
    ],
    notes,
  };
}
