// Knowledge-base retrieval (issue 33): GET /api/kb/search/?q= over 10,000 articles (100,000 chunks,
// each with its full-text document and a 256-dimension embedding) of one business — latency
// percentiles of Titan, full text and hybrid, beside the raw SQL of the same query in the same run:
// the statements of apps/server/src/modules/knowledge/knowledge.repository.ts (searchChunks,
// searchVectors; copied below) on a pg pool of the server's default size, same number of calls, same
// concurrency, timed the same way. Hybrid's floor also asks tools/llm-sim for the query's vector
// (as Titan does) and runs both statements at once (as Titan does), so the ratio is Titan's own
// overhead. Targets: p95 <= 1.5x the raw SQL, and p95 <= 50 ms (a quiet machine).
//
// Full text runs on a Titan without an embedding model, hybrid on one with LLM_EMBEDDING_MODEL
// (the server's model: a business's own must be https in production), both on the same database.
// The seed is SQL: articles and chunks of words drawn from a vocabulary, documents built as
// writeChunks builds them, embeddings random unit-ish vectors (their nearness is meaningless here;
// the cost of the scan is not).
//
// Env: BENCH_KB_ARTICLES (default 10000), BENCH_KB_CHUNKS (per article, default 10),
// BENCH_KB_REQUESTS (measured calls per row and side, default 1000), BENCH_KB_CONCURRENCY (default 4),
// BENCH_KB_DATABASE_URL (a kept database: seeded on the first run, reused after, never dropped).
import { join } from 'node:path';
import pg from 'pg';
import { fixedLoad, httpClient } from '../lib/fixed-load.mjs';
import { apiCall, authHeaders, login, ownerOnDevInstance } from '../lib/identity.mjs';
import { intFromEnv } from '../lib/env.mjs';
import { keptOrFreshDatabase } from '../lib/inbox-seed.mjs';
import { freePort, spawnNode, stopProcess, waitUntilReady } from '../lib/processes.mjs';
import { REPO_ROOT } from '../lib/servers.mjs';

export const name = 'kb-search';

const HOST = '127.0.0.1';
const LLM_CLI = join(REPO_ROOT, 'tools', 'llm-sim', 'src', 'cli.ts');
const LLM_KEY = 'bench-llm-key';
const LLM_MODEL = 'titan-sim-1';
const EMBEDDING_MODEL = 'sim-embed';
const DIMENSIONS = 256;
const TARGET_RATIO = 1.5;
const TARGET_P95_MS = 50;
const POOL_MAX = 10; // Titan's DATABASE_POOL_MAX default
const LIMIT = 10; // the search's default limit
const CANDIDATES = 50; // embeddings.service.ts: each ranking's candidates for the fusion
const OWNER = { email: 'owner@kb.bench', password: 'bench-password-kb-1' };
const BUSINESS = 'Bench Umbrellas';

const ms = (v) => (Number.isFinite(v) ? v.toFixed(v < 10 ? 2 : 1) : '—');
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '—');

export const columns = [
  { key: 'mode', label: 'ranking' },
  { key: 'chunks', label: 'chunks', align: 'right', format: (v) => v.toLocaleString('en-US') },
  { key: 'titanP50', label: 'titan p50', align: 'right', format: ms },
  { key: 'titanP95', label: 'p95', align: 'right', format: ms },
  { key: 'sqlP50', label: 'sql p50', align: 'right', format: ms },
  { key: 'sqlP95', label: 'p95', align: 'right', format: ms },
  { key: 'ratioP95', label: 'p95 ratio', align: 'right', format: x },
  { key: 'hits', label: 'hits/query', align: 'right', format: (v) => v.toFixed(1) },
  { key: 'verdict', label: `target (p95 <= ${TARGET_RATIO}x sql, <= ${TARGET_P95_MS} ms)` },
];

/** 400 words the articles are written in; queries take two of them. */
const VOCABULARY = (
  'order parcel delivery shipping tracking refund return exchange warranty repair invoice payment card ' +
  'paypal account password email address phone customer support umbrella canopy handle rib frame wind ' +
  'storm rain size compact golf city stick folding colour black navy red green print logo gift voucher ' +
  'discount code coupon basket checkout price cost fee tax duty customs country europe portugal spain ' +
  'france germany italy kingdom states canada weekday weekend holiday hour minute day week month year ' +
  'label box sleeve packaging plastic recycled bottle wood beech steel fibreglass aluminium nylon polyester ' +
  'cotton water soap clean dry wet mildew stain smell damage broken faulty defect crack tear hole bent ' +
  'stuck jammed button spring runner tip ferrule strap cover case bag pocket hook loop ring cap screw ' +
  'glue thread seam stitch panel vent double single layer coating teflon uv sun shade light heavy weight ' +
  'gram kilogram centimetre metre length width height diameter span arc open close automatic manual ' +
  'push slide lock release safety child kid adult men women unisex style classic modern vintage design ' +
  'pattern stripe dot check floral plain transparent bubble dome square round straight curved crook ' +
  'wooden leather rubber foam grip comfort ergonomic hand wrist arm shoulder carry hang store stand ' +
  'hotel shop store company corporate wholesale bulk quote catalogue sample stock supply delay late ' +
  'early express standard priority free charge charged cancel change update edit delete remove add ' +
  'create sign login logout reset forgot link expire valid invalid error problem issue question answer ' +
  'help guide faq policy terms privacy data personal gdpr cookie newsletter subscribe unsubscribe ' +
  'review rating feedback complaint praise thanks sorry please urgent soon today tomorrow yesterday ' +
  'morning evening night porto lisbon madrid paris berlin london dublin amsterdam brussels vienna ' +
  'zurich oslo stockholm copenhagen helsinki warsaw prague budapest athens rome milan barcelona ' +
  'valencia seville bilbao braga coimbra faro madeira azores island mainland north south east west ' +
  'carrier courier post office pickup locker collection point signature doorstep neighbour safe place ' +
  'receipt proof photo picture image video message chat call contact reply respond wait queue agent ' +
  'human person team staff manager owner founder history story workshop craft handmade quality test ' +
  'tunnel speed gust invert flip shape bend snap replace replacement spare part parts kit tool'
).split(/\s+/);

export async function run(ctx) {
  const articles = intFromEnv('BENCH_KB_ARTICLES', 10_000);
  const perArticle = intFromEnv('BENCH_KB_CHUNKS', 10);
  const requests = intFromEnv('BENCH_KB_REQUESTS', 1_000);
  const concurrency = intFromEnv('BENCH_KB_CONCURRENCY', 4);
  const database = await keptOrFreshDatabase(ctx, 'BENCH_KB_DATABASE_URL', 'kb-search');
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  ctx.defer(() => admin.end());
  const reused = database.kept ? await findSeeded(admin, articles * perArticle) : null;
  const businessCode = reused?.code ?? (await ownerOnDevInstance(ctx, database, OWNER, BUSINESS));
  const { rows: b } = await admin.query('select id from businesses where unique_code = $1', [businessCode]);
  const businessId = Number(b[0].id);

  const t0 = Date.now();
  if (reused) ctx.progress(`reusing the seeded knowledge base in ${database.name} (BENCH_KB_DATABASE_URL)`);
  else {
    ctx.progress(`seeding ${articles.toLocaleString('en-US')} articles × ${perArticle} chunks`);
    await seed(admin, businessId, articles, perArticle);
  }
  const { rows: counted } = await admin.query(
    'select count(*)::int as n from kb_chunks where business_id = $1',
    [businessId],
  );
  const chunks = counted[0].n;
  if (!reused)
    ctx.note(
      `seeded ${chunks.toLocaleString('en-US')} chunks with documents and embeddings in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );

  const llmUrl = await startLlmSim(ctx);
  const queries = Array.from({ length: 50 }, (_, i) => {
    const a = VOCABULARY[(i * 37) % VOCABULARY.length];
    const c = VOCABULARY[(i * 101 + 7) % VOCABULARY.length];
    return `${a} ${c}`;
  });
  const pool = new pg.Pool({ connectionString: database.url, max: POOL_MAX });
  ctx.defer(() => pool.end());
  const rows = [];

  for (const mode of ['full_text', 'hybrid']) {
    ctx.progress(`${mode}: starting Titan`);
    const titan = await ctx.startTitan(database, {
      env:
        mode === 'hybrid'
          ? {
              LLM_BASE_URL: `${llmUrl}/v1`,
              LLM_API_KEY: LLM_KEY,
              LLM_MODEL,
              LLM_EMBEDDING_MODEL: EMBEDDING_MODEL,
            }
          : {},
    });
    try {
      const { access } = await login(titan.url, OWNER.email, OWNER.password);
      const headers = authHeaders(access, businessCode);
      // The search answers and ranks as the mode says (a hybrid hit's score is a fused one).
      const probe = await apiCall(titan.url, 'GET', `/api/kb/search/?q=${encodeURIComponent(queries[0])}`, {
        headers,
      });
      const client = httpClient(titan.url, { headers, sockets: concurrency });
      let q = 0;
      let hitsTotal = 0;
      let calls = 0;
      const titanLoad = await fixedLoad({
        total: requests,
        concurrency,
        warmup: Math.min(200, requests),
        fn: async () => {
          const res = await client.get(
            `/api/kb/search/?q=${encodeURIComponent(queries[q++ % queries.length])}`,
          );
          hitsTotal += JSON.parse(res.body).result.results.length;
          calls++;
        },
      });
      await client.close();
      let s = 0;
      const sqlLoad = await fixedLoad({
        total: requests,
        concurrency,
        warmup: Math.min(200, requests),
        fn: async () => {
          const query = queries[s++ % queries.length];
          if (mode === 'full_text') {
            await pool.query(fullTextStatement(businessId, query, LIMIT));
            return;
          }
          const vector = await embed(llmUrl, query);
          await Promise.all([
            pool.query(fullTextStatement(businessId, query, CANDIDATES)),
            vectorSearch(pool, businessId, vector, CANDIDATES),
          ]);
        },
      });
      if (titanLoad.errors || sqlLoad.errors)
        throw new Error(`errors: ${titanLoad.firstError ?? sqlLoad.firstError}`);
      const ratioP95 = titanLoad.p95 / sqlLoad.p95;
      const scoreOk =
        mode === 'hybrid'
          ? probe.result.results.every((h) => h.score <= 2 / 61 + 1e-6)
          : // Full text marks its matches (a match in the title alone leaves a snippet unmarked).
            probe.result.results.some((h) => h.snippet.includes('«'));
      rows.push({
        mode: mode === 'hybrid' ? 'hybrid (full text + vectors)' : 'full text',
        chunks,
        titanP50: titanLoad.p50,
        titanP95: titanLoad.p95,
        titanP99: titanLoad.p99,
        sqlP50: sqlLoad.p50,
        sqlP95: sqlLoad.p95,
        sqlP99: sqlLoad.p99,
        ratioP95,
        hits: hitsTotal / Math.max(1, calls),
        verdict: !scoreOk
          ? `FAIL: the answer is not ${mode}`
          : ratioP95 <= TARGET_RATIO && titanLoad.p95 <= TARGET_P95_MS
            ? 'ok'
            : ratioP95 <= TARGET_RATIO
              ? `ratio ok; p95 ${ms(titanLoad.p95)} ms > ${TARGET_P95_MS}`
              : `MISS: ${x(ratioP95)} the raw SQL`,
      });
    } finally {
      await titan.stop();
    }
  }
  return {
    title: `kb-search: ${articles.toLocaleString('en-US')} articles, ${requests} calls per side, ${concurrency} at once`,
    rows,
  };
}

// ---------------------------------------------------------------- the database

/** The kept database's seeded business when it holds the whole seed (else null: seed it). */
async function findSeeded(client, chunks) {
  const exists = await client.query(`select to_regclass('public.kb_chunks') as t`);
  if (!exists.rows[0].t) return null;
  const { rows } = await client.query(
    `select b.unique_code as code, (select count(*) from kb_chunks c where c.business_id = b.id)::int as chunks
       from businesses b where b.name = $1 order by b.id limit 1`,
    [BUSINESS],
  );
  return rows[0] && rows[0].chunks === chunks ? rows[0] : null;
}

// ---------------------------------------------------------------- the seed

async function seed(client, businessId, articles, perArticle) {
  await client.query('select setseed(0.33)');
  // Articles in batches, their chunks with them (documents as writeChunks builds them).
  const batch = 1_000;
  for (let from = 0; from < articles; from += batch) {
    const n = Math.min(batch, articles - from);
    await client.query(
      `with vocab as (select $3::text[] as w),
       art as (
         insert into kb_articles (business_id, title, slug, body_markdown, locale, status, published_at)
         select $1, initcap(w[1 + floor(random() * array_length(w, 1))::int] || ' ' || w[1 + floor(random() * array_length(w, 1))::int]),
                'article-' || ($4::int + i), '', 'en', 'published', now()
         from generate_series(1, $2::int) i, vocab
         returning id, title
       ),
       ch as (
         select a.id as article_id, a.title, p as position,
                initcap(w[1 + floor(random() * array_length(w, 1))::int]) as heading,
                (select string_agg(w[1 + floor(random() * array_length(w, 1))::int + g * 0], ' ')
                   from generate_series(1, 60 + (a.id % 3) + p * 0) g) as content
         from art a, generate_series(0, $5::int - 1) p, vocab
       )
       insert into kb_chunks (business_id, article_id, position, heading, content, tsv)
       select $1, article_id, position, heading, content,
              setweight(to_tsvector('english', title || ' ' || heading), 'A') ||
              setweight(to_tsvector('english', content), 'B') ||
              setweight(to_tsvector('simple', title || ' ' || heading), 'A') ||
              setweight(to_tsvector('simple', content), 'B')
       from ch`,
      [businessId, n, VOCABULARY, from, perArticle],
    );
  }
  // The HNSW indexes (migration 0081) are built once after the load, not grown row by row (the
  // same definitions, read back from the catalogue).
  const { rows: hnsw } = await client.query(
    `select indexname, indexdef from pg_indexes where tablename = 'kb_embeddings' and indexdef ilike '%using hnsw%'`,
  );
  for (const { indexname } of hnsw) await client.query(`drop index "${indexname}"`);
  await client.query(
    `insert into kb_embeddings (chunk_id, model, business_id, embedding)
     select c.id, $2, $1, (select array_agg((random() - 0.5)::real) from generate_series(1, ${DIMENSIONS}) d where c.id > 0)::vector
     from kb_chunks c where c.business_id = $1`,
    [businessId, EMBEDDING_MODEL],
  );
  // In memory (pgvector builds on disk, much slower, once the graph outgrows maintenance_work_mem).
  await client.query(`set maintenance_work_mem = '512MB'`);
  for (const { indexdef } of hnsw) await client.query(indexdef);
  await client.query('reset maintenance_work_mem');
  await client.query('analyze kb_articles; analyze kb_chunks; analyze kb_embeddings');
}

// ---------------------------------------------------------------- the server's SQL, copied

/** knowledge.repository.ts searchChunks(): staff search (drafts too), English. */
function fullTextStatement(businessId, q, limit) {
  return {
    text: `
      with q as (
        select case when lang = plain then lang else lang || plain end as query
        from (select websearch_to_tsquery('english'::regconfig, $2) as lang,
                     websearch_to_tsquery('simple', $2) as plain) w
      ),
      best as (
        select distinct on (c.article_id) c.id, c.article_id, ts_rank(c.tsv, q.query) as score
        from kb_chunks c cross join q
        where c.business_id = $1 and c.tsv @@ q.query
        order by c.article_id, score desc, c.position
      ),
      page as (
        select b.id, b.article_id, b.score, a.title, a.slug, a.locale, a.status
        from best b
        join kb_articles a on a.id = b.article_id
        where a.business_id = $1
        order by b.score desc, b.article_id
        limit $3
      )
      select p.article_id::int as article_id, p.title, p.slug, p.locale, p.status, c.heading,
             ts_headline('english'::regconfig, c.content, q.query,
               'StartSel=«, StopSel=», MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet,
             p.score::float8 as score
      from page p
      join kb_chunks c on c.id = p.id
      cross join q
      order by p.score desc, p.article_id`,
    values: [businessId, q, limit],
  };
}

/**
 * knowledge.repository.ts searchVectors(): its settings (vectorSearchSettings) and its statement,
 * the dimension written into the text as the server writes it (the HNSW index's expression).
 */
function vectorSettings(nearest) {
  return [
    `set local hnsw.ef_search = ${Math.min(1000, Math.max(40, Math.trunc(nearest)))}`,
    'set local hnsw.iterative_scan = strict_order',
  ];
}

function vectorStatement(businessId, vector, limit) {
  const dims = String(vector.length);
  return {
    text: `
      with nearest as (
        select e.chunk_id, e.embedding::vector(${dims}) <=> $2::vector(${dims}) as distance
        from kb_embeddings e
        where vector_dims(e.embedding) = ${dims}
          and e.business_id = $1 and e.model = $3
        order by distance
        limit $4
      ),
      best as (
        select distinct on (c.article_id) c.id, c.article_id, n.distance
        from nearest n
        join kb_chunks c on c.id = n.chunk_id
        where c.business_id = $1
        order by c.article_id, n.distance, c.position
      ),
      page as (
        select b.id, b.article_id, b.distance, a.title, a.slug, a.locale, a.status
        from best b
        join kb_articles a on a.id = b.article_id
        where a.business_id = $1
        order by b.distance, b.article_id
        limit $5
      )
      select p.article_id::int as article_id, p.title, p.slug, p.locale, p.status, c.heading,
             left(regexp_replace(c.content, '\\s+', ' ', 'g'), 240) as snippet,
             (1 - p.distance)::float8 as score
      from page p
      join kb_chunks c on c.id = p.id
      order by p.distance, p.article_id`,
    values: [businessId, `[${vector.join(',')}]`, EMBEDDING_MODEL, limit * 4, limit],
  };
}

/** searchVectors as the server runs it: a transaction of its own, the settings, the statement. */
async function vectorSearch(pool, businessId, vector, limit) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const setting of vectorSettings(limit * 4)) await client.query(setting);
    const result = await client.query(vectorStatement(businessId, vector, limit));
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

// ---------------------------------------------------------------- the model server

async function startLlmSim(ctx) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const proc = spawnNode('llm sim', LLM_CLI, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim(),
      SIM_PORT: String(port),
      SIM_HOST: HOST,
      SIM_API_KEY: LLM_KEY,
      SIM_MODELS: LLM_MODEL,
      SIM_CHUNK_DELAY_MS: '0',
    },
  });
  try {
    await waitUntilReady(proc, `${url}/sim/state`, { timeoutMs: 60_000 });
  } catch (err) {
    await stopProcess(proc);
    throw err;
  }
  ctx.use({ label: 'llm sim', pid: proc.child.pid, stop: () => stopProcess(proc) });
  return url;
}

async function embed(llmUrl, text) {
  const res = await fetch(`${llmUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LLM_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: EMBEDDING_MODEL, input: [text] }),
  });
  if (!res.ok) throw new Error(`embeddings answered ${res.status}`);
  return (await res.json()).data[0].embedding;
}
