// Embeddings and hybrid ranking against tools/llm-sim's deterministic /embeddings: with an
// embedding model set, every chunk gets a vector (pgvector), staff search fuses full text with
// vector nearness (reciprocal rank fusion) and so finds an article full text alone misses; without
// one, search is full text and no embedding is asked for; another business's articles (with the
// same words) are never found; the public help centre ranks the same way; and an unreachable model
// falls back to full text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import type { TBusiness, TKbArticle, TKbSearchHit } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { embedPending } from '..';
import { fuseRankings, RRF_K } from '../embeddings.service';

let rt: TestRuntime;
let app: FastifyInstance;
let sim: LlmSim;
type Tenant = { who: Session; business: TBusiness };
let hybrid: Tenant;
let plain: Tenant;
let rival: Tenant;

async function call(method: 'GET' | 'POST' | 'PUT', url: string, t: Tenant, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: as(t.who, t.business),
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function article(t: Tenant, title: string, body: string): Promise<TKbArticle> {
  const res = await call('POST', '/api/kb/articles/', t, { title, body_markdown: body, status: 'published' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as TKbArticle;
}

const search = async (t: Tenant, q: string): Promise<TKbSearchHit[]> => {
  const res = await call('GET', `/api/kb/search/?q=${encodeURIComponent(q)}`, t);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.results as TKbSearchHit[];
};

const embeddingCalls = () => sim.requests.filter((r) => r.path === '/v1/embeddings').length;

async function tenant(name: string, embedding: string | null): Promise<Tenant> {
  const who = await signUp(app, rt.mailer);
  const business = await createBusiness(app, who, name);
  const t = { who, business };
  const saved = await call('PUT', '/api/config/llm/', t, {
    base_url: sim.baseUrl,
    model: DEFAULT_SIM_MODEL,
    api_key: DEFAULT_SIM_KEY,
    ...(embedding ? { embedding_model: embedding } : {}),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(saved.body.result.embedding_model).toBe(embedding);
  return t;
}

beforeAll(async () => {
  sim = await startLlmSim();
  rt = await createTestRuntime({ env: { LLM_TIMEOUT_MS: '3000', LLM_MAX_RETRIES: '0' } });
  app = rt.app!;
  await app.ready();
  hybrid = await tenant('Hybrid Umbrellas', 'sim-embed');
  plain = await tenant('Plain Umbrellas', null);
  rival = await tenant('Rival Umbrellas', 'sim-embed');
});
afterAll(async () => {
  await rt.destroy();
  await sim.close();
});

describe('reciprocal rank fusion', () => {
  const hit = (id: number): TKbSearchHit => ({
    article_id: id,
    title: `A${id}`,
    slug: `a${id}`,
    locale: 'en',
    heading: '',
    snippet: '',
    score: 1,
    status: 'published',
  });
  it('ranks what both lists rank high first, each scored Σ 1/(k + rank)', () => {
    const fused = fuseRankings(
      [
        [hit(1), hit(2), hit(3)],
        [hit(3), hit(4), hit(1)],
      ],
      10,
    );
    expect(fused.map((h) => h.article_id)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 3), 6);
    expect(fuseRankings([[hit(1), hit(2)], []], 1).map((h) => h.article_id)).toEqual([1]);
  });
});

describe('hybrid search', () => {
  let refunds: TKbArticle;
  beforeAll(async () => {
    refunds = await article(
      hybrid,
      'Refunds',
      'We refund damaged items within five working days.\n\n## How\n\nSend a photo of the damage.',
    );
    await article(hybrid, 'Shipping', 'Parcels leave Porto every weekday; tracking by email.');
    await article(rival, 'Refunds', 'We refund damaged items within five working days, rival style.');
    await article(plain, 'Refunds', 'We refund damaged items within five working days.');
  });

  it('embeds every chunk of a business with an embedding model, and none without one', async () => {
    const before = embeddingCalls();
    expect(await embedPending(rt.services.knowledge, hybrid.business.id)).toBe(3);
    expect(await embedPending(rt.services.knowledge, rival.business.id)).toBe(1);
    expect(await embedPending(rt.services.knowledge, plain.business.id)).toBe(0);
    expect(embeddingCalls()).toBe(before + 2);
    const rows = await rt.database.query<{ business_id: number; model: string; dims: number }>(
      `select e.business_id::int, e.model, vector_dims(e.embedding) as dims
       from kb_embeddings e where e.business_id = $1`,
      [hybrid.business.id],
    );
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.model === 'sim-embed' && r.dims === 256)).toBe(true);
    // Nothing left to embed: no call.
    expect(await embedPending(rt.services.knowledge, hybrid.business.id)).toBe(0);
    expect(embeddingCalls()).toBe(before + 2);
  });

  it('finds by meaning what full text alone misses, never another business’s article', async () => {
    // "umbrella" is in no article: full text (every word must match) finds nothing.
    const q = 'refund for a damaged umbrella';
    expect(await search(plain, q)).toEqual([]);
    const before = embeddingCalls();
    const hits = await search(hybrid, q);
    expect(embeddingCalls()).toBe(before + 1);
    expect(hits[0]).toMatchObject({ article_id: refunds.id, title: 'Refunds' });
    expect(hits[0]!.score).toBeLessThanOrEqual(2 / (RRF_K + 1));
    const rivalIds = (await search(rival, 'refund damaged items')).map((h) => h.article_id);
    expect(rivalIds).not.toContain(refunds.id);
    expect(hits.map((h) => h.article_id)).not.toContain(rivalIds[0]);
  });

  it('the public help centre searches by the same hybrid ranking', async () => {
    const q = encodeURIComponent('refund for a damaged umbrella');
    const publicSearch = async (t: Tenant) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/public/kb/${t.business.unique_code}/search/?q=${q}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result.results as TKbSearchHit[];
    };
    // Full text alone (no embedding model): "umbrella" is in no article.
    expect(await publicSearch(plain)).toEqual([]);
    const hits = await publicSearch(hybrid);
    expect(hits[0]).toMatchObject({ article_id: refunds.id, title: 'Refunds' });
    expect(hits.every((h) => h.status === 'published')).toBe(true);
    const rivalHits = await publicSearch(rival);
    expect(rivalHits.map((h) => h.article_id)).not.toContain(refunds.id);
  });

  it('ranks by full text and nearness together when both find the article', async () => {
    const hits = await search(hybrid, 'refund damaged');
    expect(hits[0]!.article_id).toBe(refunds.id);
    // In both lists at rank 1: the highest fused score there is.
    expect(hits[0]!.score).toBeCloseTo(2 / (RRF_K + 1), 6);
    // The full-text hit keeps its marked snippet.
    expect(hits[0]!.snippet).toContain('«');
  });

  it('a rewritten article is embedded again', async () => {
    const res = await call('PUT', `/api/kb/articles/${refunds.id}/`, hybrid, {
      body_markdown: 'Broken umbrellas are replaced, not refunded.',
    });
    expect(res.status).toBe(200);
    expect(await embedPending(rt.services.knowledge, hybrid.business.id)).toBe(1);
    const hits = await search(hybrid, 'broken umbrella replaced');
    expect(hits[0]!.article_id).toBe(refunds.id);
  });

  it('falls back to full text when the embedding model cannot answer', async () => {
    const saved = await call('PUT', '/api/config/llm/', hybrid, {
      base_url: sim.baseUrl,
      model: DEFAULT_SIM_MODEL,
      embedding_model: 'no-such-embedder',
    });
    expect(saved.status).toBe(200);
    const hits = await search(hybrid, 'parcels tracking');
    expect(hits.map((h) => h.title)).toEqual(['Shipping']);
    // A full-text hit (its matches marked), not a fused one.
    expect(hits[0]!.snippet).toContain('«');
  });
});
