// Embeddings and hybrid ranking. When the business's model server has an embedding model (LLM
// settings' embedding_model, or LLM_EMBEDDING_MODEL), the job `kb.embed` gives every chunk a
// vector (pgvector), and search fuses two rankings — full text and vector nearness — by reciprocal
// rank fusion: each article scores Σ 1/(RRF_K + rank) over the lists it is in. Without an
// embedding model, or when the model cannot be reached, search is full text alone.
import type { TKbSearchHit, TKbSearchQuery } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Jobs } from '../../platform/jobs';
import { LlmError, type LlmDeps, openLlm, resolveLlm } from '../llm';
import * as repo from './knowledge.repository';
import { searchArticles } from './knowledge.service';

export const KB_EMBED_QUEUE = 'kb.embed';
/** Texts per /embeddings call. */
const EMBED_BATCH = 64;
/** Batches one job runs before it hands over to a fresh job (a large base embeds in turns). */
const EMBED_BATCHES_PER_JOB = 20;
/** Reciprocal rank fusion's constant (the usual 60: ranks past the first few differ little). */
export const RRF_K = 60;
/** Candidates each ranking contributes to the fusion. */
const CANDIDATES = 50;

export type EmbedDeps = { db: Db; jobs: Jobs; llm: LlmDeps; logger: { warn(o: object, m: string): void } };

/** Asks for the business's chunks to be embedded (once, however often asked while it waits). */
export async function requestEmbeddings(deps: Pick<EmbedDeps, 'jobs'>, businessId: number): Promise<void> {
  await deps.jobs.send(
    KB_EMBED_QUEUE,
    { business_id: businessId },
    { singletonKey: `kb.embed:${businessId}` },
  );
}

/** Embeds chunks without a vector by the current model; answers how many it embedded. */
export async function embedPending(
  deps: EmbedDeps,
  businessId: number,
  batches = EMBED_BATCHES_PER_JOB,
): Promise<number> {
  const resolved = await resolveLlm(deps.llm, businessId);
  const model = resolved?.embeddingModel;
  if (!model) return 0;
  const llm = await openLlm(deps.llm, { businessId, purpose: 'kb_embedding' });
  let done = 0;
  for (let b = 0; b < batches; b++) {
    const chunks = await repo.chunksWithoutEmbedding(deps.db, businessId, model, EMBED_BATCH);
    if (chunks.length === 0) return done;
    const vectors = await llm.embed(chunks.map((c) => c.text));
    await repo.insertEmbeddings(
      deps.db,
      businessId,
      model,
      chunks.map((c, i) => ({ chunkId: c.id, vector: vectors[i]! })),
    );
    done += chunks.length;
  }
  // More to do: another job takes the next turn.
  await requestEmbeddings(deps, businessId);
  return done;
}

export async function defineKbEmbedQueue(deps: EmbedDeps): Promise<void> {
  await deps.jobs.define<{ business_id: number }>({
    name: KB_EMBED_QUEUE,
    handler: async ({ business_id }) => {
      await embedPending(deps, business_id);
    },
    retryLimit: 3,
    retryDelay: 30,
  });
}

/** Fuses rankings by reciprocal rank; each article keeps the hit of the list that ranked it best. */
export function fuseRankings(lists: TKbSearchHit[][], limit: number): TKbSearchHit[] {
  const fused = new Map<number, { hit: TKbSearchHit; score: number; best: number }>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const entry = fused.get(hit.article_id);
      const add = 1 / (RRF_K + rank + 1);
      if (!entry) fused.set(hit.article_id, { hit, score: add, best: rank });
      else {
        entry.score += add;
        // The full-text hit (first list) keeps its «marked» snippet when it ranked as well.
        if (rank < entry.best) entry.best = rank;
      }
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.hit.article_id - b.hit.article_id)
    .slice(0, limit)
    .map(({ hit, score }) => ({ ...hit, score: Math.round(score * 1e6) / 1e6 }));
}

export type SearchMode = 'full_text' | 'hybrid';

/**
 * Search as staff, the help centre and the AI use it: hybrid when an embedding model is set and
 * answers, else full text. Answers the hits and which ranking made them.
 */
export async function searchKnowledge(
  deps: Pick<EmbedDeps, 'db' | 'llm' | 'logger'>,
  businessId: number,
  query: TKbSearchQuery,
  opts: { publishedOnly: boolean },
): Promise<{ hits: TKbSearchHit[]; mode: SearchMode }> {
  const resolved = await resolveLlm(deps.llm, businessId);
  const model = resolved?.embeddingModel;
  if (!model) return { hits: await searchArticles(deps.db, businessId, query, opts), mode: 'full_text' };
  const candidates = { ...query, limit: Math.max(CANDIDATES, query.limit) };
  let vector: number[];
  try {
    const llm = await openLlm(deps.llm, { businessId, purpose: 'kb_search' });
    [vector] = (await llm.embed([query.q])) as [number[]];
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    deps.logger.warn({ err: err.message, businessId }, 'embedding the search failed; full text alone');
    return { hits: await searchArticles(deps.db, businessId, query, opts), mode: 'full_text' };
  }
  const [text, near] = await Promise.all([
    searchArticles(deps.db, businessId, candidates, opts),
    repo.searchVectors(deps.db, businessId, model, vector, {
      publishedOnly: opts.publishedOnly,
      locale: query.locale,
      limit: CANDIDATES,
    }),
  ]);
  const nearHits = near.map((r) => ({ ...r, score: Number(r.score) }));
  return { hits: fuseRankings([text, nearHits], query.limit), mode: 'hybrid' };
}
