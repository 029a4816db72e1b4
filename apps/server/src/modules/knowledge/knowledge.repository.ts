// The only code that writes kb_categories, kb_articles and kb_chunks. An article and its chunks are
// written in one transaction, so search never sees an article without its sections or stale ones.
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/sql';
import { kbArticles, kbCategories, kbChunks } from '../../db/schema';

export type CategoryRow = typeof kbCategories.$inferSelect & { articleCount: number };
export type ArticleRow = typeof kbArticles.$inferSelect;
export type ArticleInsert = Omit<typeof kbArticles.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
/** A section of an article; `title` (the article's) is indexed with the heading, not stored. */
export type Chunk = { heading: string; content: string; title?: string };

const publishedCount = sql<number>`(select count(*)::int from kb_articles a where a.category_id = "kb_categories"."id" and a.status = 'published')`;

const categoryColumns = {
  id: kbCategories.id,
  businessId: kbCategories.businessId,
  name: kbCategories.name,
  slug: kbCategories.slug,
  description: kbCategories.description,
  position: kbCategories.position,
  createdAt: kbCategories.createdAt,
  updatedAt: kbCategories.updatedAt,
  articleCount: publishedCount,
};

export async function listCategories(db: Queryable, businessId: number): Promise<CategoryRow[]> {
  return db
    .select(categoryColumns)
    .from(kbCategories)
    .where(eq(kbCategories.businessId, businessId))
    .orderBy(asc(kbCategories.position), asc(kbCategories.name), asc(kbCategories.id));
}

/** One category of the business (one row, not the whole list). */
export async function findCategory(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<CategoryRow | undefined> {
  const [row] = await db
    .select(categoryColumns)
    .from(kbCategories)
    .where(and(eq(kbCategories.businessId, businessId), eq(kbCategories.id, id)));
  return row;
}

export async function insertCategory(
  db: Queryable,
  row: { businessId: number; name: string; slug: string; description: string; position: number },
): Promise<number> {
  const [created] = await db.insert(kbCategories).values(row).returning({ id: kbCategories.id });
  return created!.id;
}

export async function updateCategory(
  db: Queryable,
  businessId: number,
  id: number,
  patch: Partial<{ name: string; slug: string; description: string; position: number }>,
): Promise<boolean> {
  const rows = await db
    .update(kbCategories)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(kbCategories.businessId, businessId), eq(kbCategories.id, id)))
    .returning({ id: kbCategories.id });
  return rows.length > 0;
}

export async function deleteCategory(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(kbCategories)
    .where(and(eq(kbCategories.businessId, businessId), eq(kbCategories.id, id)))
    .returning({ id: kbCategories.id });
  return rows.length > 0;
}

export async function findArticle(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<ArticleRow | undefined> {
  const [row] = await db
    .select()
    .from(kbArticles)
    .where(and(eq(kbArticles.businessId, businessId), eq(kbArticles.id, id)));
  return row;
}

export async function findArticleBySource(
  db: Queryable,
  businessId: number,
  sourceUrl: string,
): Promise<ArticleRow | undefined> {
  const [row] = await db
    .select()
    .from(kbArticles)
    .where(and(eq(kbArticles.businessId, businessId), eq(kbArticles.sourceUrl, sourceUrl)));
  return row;
}

export type ArticleFilter = {
  status?: 'draft' | 'published' | undefined;
  categoryId?: number | undefined;
  locale?: string | undefined;
  search?: string | undefined;
};

function articleWhere(businessId: number, f: ArticleFilter): SQL | undefined {
  const like = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return and(
    eq(kbArticles.businessId, businessId),
    f.status ? eq(kbArticles.status, f.status) : undefined,
    f.categoryId ? eq(kbArticles.categoryId, f.categoryId) : undefined,
    f.locale ? eq(kbArticles.locale, f.locale) : undefined,
    like ? or(ilike(kbArticles.title, like), ilike(kbArticles.sourceUrl, like)) : undefined,
  );
}

export async function listArticles(
  db: Queryable,
  businessId: number,
  filter: ArticleFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ArticleRow[]; count: number }> {
  const condition = articleWhere(businessId, filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(kbArticles)
      .where(condition)
      .orderBy(desc(kbArticles.updatedAt), desc(kbArticles.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(kbArticles)
      .where(condition),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** Every published article of a business (the help centre's front), newest first. */
export async function listPublished(
  db: Queryable,
  businessId: number,
  locale?: string,
): Promise<ArticleRow[]> {
  return db
    .select()
    .from(kbArticles)
    .where(
      and(
        eq(kbArticles.businessId, businessId),
        eq(kbArticles.status, 'published'),
        locale ? eq(kbArticles.locale, locale) : undefined,
      ),
    )
    .orderBy(desc(kbArticles.updatedAt), desc(kbArticles.id))
    .limit(1000);
}

export async function publishedLocales(db: Queryable, businessId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ locale: kbArticles.locale })
    .from(kbArticles)
    .where(and(eq(kbArticles.businessId, businessId), eq(kbArticles.status, 'published')))
    .orderBy(asc(kbArticles.locale));
  return rows.map((r) => r.locale);
}

const headingText = (c: Chunk) => `${c.title ?? ''} ${c.heading}`.trim();

/** Replaces an article's chunks, each indexed with its language's configuration plus 'simple'. */
async function writeChunks(
  tx: Queryable,
  businessId: number,
  articleId: number,
  chunks: Chunk[],
  config: string,
): Promise<void> {
  await tx.delete(kbChunks).where(eq(kbChunks.articleId, articleId));
  if (chunks.length === 0) return;
  const values = sql.join(
    chunks.map(
      (c, i) =>
        sql`(${businessId}, ${articleId}, ${i}, ${c.heading}, ${c.content},
          setweight(to_tsvector(${config}::regconfig, ${headingText(c)}), 'A') ||
          setweight(to_tsvector(${config}::regconfig, ${c.content}), 'B') ||
          setweight(to_tsvector('simple', ${headingText(c)}), 'A') ||
          setweight(to_tsvector('simple', ${c.content}), 'B'))`,
    ),
    sql`, `,
  );
  await tx.execute(
    sql`insert into kb_chunks (business_id, article_id, position, heading, content, tsv) values ${values}`,
  );
}

export async function insertArticle(
  tx: Queryable,
  row: ArticleInsert,
  chunks: Chunk[],
  config: string,
): Promise<ArticleRow> {
  const [created] = await tx.insert(kbArticles).values(row).returning();
  await writeChunks(tx, row.businessId, created!.id, chunks, config);
  return created!;
}

export async function updateArticle(
  tx: Queryable,
  businessId: number,
  id: number,
  patch: Partial<ArticleInsert>,
  chunks: Chunk[] | null,
  config: string,
): Promise<ArticleRow | undefined> {
  const [updated] = await tx
    .update(kbArticles)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(kbArticles.businessId, businessId), eq(kbArticles.id, id)))
    .returning();
  if (updated && chunks) await writeChunks(tx, businessId, id, chunks, config);
  return updated;
}

export async function deleteArticle(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(kbArticles)
    .where(and(eq(kbArticles.businessId, businessId), eq(kbArticles.id, id)))
    .returning({ id: kbArticles.id });
  return rows.length > 0;
}

export async function countFeedback(
  db: Queryable,
  businessId: number,
  id: number,
  helpful: boolean,
): Promise<boolean> {
  const rows = await db
    .update(kbArticles)
    .set(
      helpful
        ? { helpfulCount: sql`${kbArticles.helpfulCount} + 1` }
        : { notHelpfulCount: sql`${kbArticles.notHelpfulCount} + 1` },
    )
    .where(
      and(eq(kbArticles.businessId, businessId), eq(kbArticles.id, id), eq(kbArticles.status, 'published')),
    )
    .returning({ id: kbArticles.id });
  return rows.length > 0;
}

export type SearchRow = {
  article_id: number;
  title: string;
  slug: string;
  locale: string;
  status: 'draft' | 'published';
  heading: string;
  snippet: string;
  score: number;
};

/**
 * The best chunk per article for `q` (web-search syntax: words, "phrases", -not, or), ranked by
 * ts_rank over the chunk's document (the title and heading weigh more than the text; words of an
 * AND query count more the nearer they stand): the query in the searcher's language configuration
 * OR'd with 'simple', matching what writeChunks indexed — the one query alone when both read the
 * same (most words: the stem is the word), which ranks the same at half the cost. The snippet
 * marks matches with «…».
 *
 * Cost (bench/README.md, kb-search): every matching chunk is read and ranked, so each is ranked
 * once, by ts_rank (a third of ts_rank_cd's cost, and no worse on `npm run eval:kb`); the best per
 * article is chosen from the chunks alone, and the articles (their filters), the chunk's text and
 * its highlight are read for the returned page only.
 */
export async function searchChunks(
  db: Queryable,
  businessId: number,
  q: string,
  config: string,
  opts: { publishedOnly: boolean; locale?: string | undefined; limit: number },
): Promise<SearchRow[]> {
  return rowsOf<SearchRow>(
    db,
    sql`
      with q as (
        select case when lang = plain then lang else lang || plain end as query
        from (select websearch_to_tsquery(${config}::regconfig, ${q}) as lang,
                     websearch_to_tsquery('simple', ${q}) as plain) w
      ),
      best as (
        select distinct on (c.article_id) c.id, c.article_id, ts_rank(c.tsv, q.query) as score
        from kb_chunks c cross join q
        where c.business_id = ${businessId} and c.tsv @@ q.query
        order by c.article_id, score desc, c.position
      ),
      page as (
        select b.id, b.article_id, b.score, a.title, a.slug, a.locale, a.status
        from best b
        join kb_articles a on a.id = b.article_id
        where a.business_id = ${businessId}
          ${opts.publishedOnly ? sql`and a.status = 'published'` : sql``}
          ${opts.locale ? sql`and a.locale = ${opts.locale}` : sql``}
        order by b.score desc, b.article_id
        limit ${opts.limit}
      )
      select p.article_id::int as article_id, p.title, p.slug, p.locale, p.status, c.heading,
             ts_headline(${config}::regconfig, c.content, q.query,
               'StartSel=«, StopSel=», MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet,
             p.score::float8 as score
      from page p
      join kb_chunks c on c.id = p.id
      cross join q
      order by p.score desc, p.article_id
    `,
  );
}

// ----- Embeddings (kb_embeddings) -----------------------------------------------------------------

export type ChunkToEmbed = { id: number; text: string };

/** Chunks of the business without an embedding by `model`, oldest first. */
export async function chunksWithoutEmbedding(
  db: Queryable,
  businessId: number,
  model: string,
  limit: number,
): Promise<ChunkToEmbed[]> {
  return rowsOf<ChunkToEmbed>(
    db,
    sql`select c.id::int as id, concat_ws(E'\n', a.title, nullif(c.heading, ''), c.content) as text
        from kb_chunks c join kb_articles a on a.id = c.article_id
        where c.business_id = ${businessId}
          and not exists (select 1 from kb_embeddings e where e.chunk_id = c.id and e.model = ${model})
        order by c.id
        limit ${limit}`,
  );
}

/** pgvector's text form of a vector. */
export const vectorLiteral = (v: number[]) => `[${v.join(',')}]`;

export async function insertEmbeddings(
  db: Queryable,
  businessId: number,
  model: string,
  rows: { chunkId: number; vector: number[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.chunkId}::bigint, ${model}::text, ${businessId}::bigint, ${vectorLiteral(r.vector)}::vector)`,
    ),
    sql`, `,
  );
  // A chunk rewritten meanwhile is gone (its embedding with it); one embedded twice keeps the first.
  await db.execute(
    sql`insert into kb_embeddings (chunk_id, model, business_id, embedding)
        select v.chunk_id, v.model, v.business_id, v.embedding
        from (values ${values}) as v(chunk_id, model, business_id, embedding)
        where exists (select 1 from kb_chunks c where c.id = v.chunk_id)
        on conflict do nothing`,
  );
}

/**
 * The settings searchVectors' statement runs under, each `set local` in its own transaction: the
 * HNSW index (migration 0081) keeps `nearest` candidates (at least 40, pgvector's default), and
 * goes on searching the graph, nearest first, while rows of other businesses or models filtered
 * out leave fewer than `nearest` (pgvector's iterative scan; strict order: by distance).
 */
export function vectorSearchSettings(nearest: number): string[] {
  return [
    `set local hnsw.ef_search = ${Math.min(1000, Math.max(40, Math.trunc(nearest)))}`,
    'set local hnsw.iterative_scan = strict_order',
  ];
}

/**
 * The best chunk per article by cosine distance to `vector` among the business's chunks embedded
 * by `model` (of the same dimension): `limit` articles, nearest first, with a plain snippet. The
 * embeddings are compared cast to the vector's dimension, under that dimension's predicate: the
 * expression and predicate of its HNSW index (migration 0081; VECTOR_INDEX_DIMENSIONS), so the
 * nearest are found through the index (approximately, as HNSW does) rather than by reading every
 * embedding; a dimension without an index is compared exactly, all rows read.
 */
export async function searchVectors(
  db: Queryable,
  businessId: number,
  model: string,
  vector: number[],
  opts: { publishedOnly: boolean; locale?: string | undefined; limit: number },
): Promise<SearchRow[]> {
  const literal = vectorLiteral(vector);
  // An integer from the array's length: written into the text, as the index's expression is.
  const dims = sql.raw(String(vector.length));
  const nearest = opts.limit * 4;
  return db.transaction(async (tx) => {
    for (const setting of vectorSearchSettings(nearest)) await tx.execute(sql.raw(setting));
    return rowsOf<SearchRow>(
      tx,
      sql`
      with nearest as (
        select e.chunk_id, e.embedding::vector(${dims}) <=> ${literal}::vector(${dims}) as distance
        from kb_embeddings e
        where vector_dims(e.embedding) = ${dims}
          and e.business_id = ${businessId} and e.model = ${model}
        order by distance
        limit ${nearest}
      ),
      best as (
        select distinct on (c.article_id) c.id, c.article_id, n.distance
        from nearest n
        join kb_chunks c on c.id = n.chunk_id
        where c.business_id = ${businessId}
        order by c.article_id, n.distance, c.position
      ),
      page as (
        select b.id, b.article_id, b.distance, a.title, a.slug, a.locale, a.status
        from best b
        join kb_articles a on a.id = b.article_id
        where a.business_id = ${businessId}
          ${opts.publishedOnly ? sql`and a.status = 'published'` : sql``}
          ${opts.locale ? sql`and a.locale = ${opts.locale}` : sql``}
        order by b.distance, b.article_id
        limit ${opts.limit}
      )
      select p.article_id::int as article_id, p.title, p.slug, p.locale, p.status, c.heading,
             left(regexp_replace(c.content, '\s+', ' ', 'g'), 240) as snippet,
             (1 - p.distance)::float8 as score
      from page p
      join kb_chunks c on c.id = p.id
      order by p.distance, p.article_id
    `,
    );
  });
}

/** Published articles of the business among `ids`, in the order of `ids` (what the AI reads). */
export async function publishedByIds(
  db: Queryable,
  businessId: number,
  ids: number[],
): Promise<ArticleRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(kbArticles)
    .where(
      and(
        eq(kbArticles.businessId, businessId),
        eq(kbArticles.status, 'published'),
        sql`${kbArticles.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is ArticleRow => r !== undefined);
}
