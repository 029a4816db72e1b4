// The knowledge base: categories and Markdown articles a business writes or imports, split into
// sections (chunks) for retrieval, searched with PostgreSQL full text in the article's language,
// and shown to the public in the help centre when published.
import {
  KB_ERRORS,
  KB_LIMITS,
  slugify,
  type TKbArticle,
  type TKbArticleListQuery,
  type TKbArticleRequest,
  type TKbArticleSummary,
  type TKbArticleUpdate,
  type TKbCategory,
  type TKbCategoryRequest,
  type TKbCategoryUpdate,
  type TKbSearchHit,
  type TKbSearchQuery,
  ZKbArticleRequest,
  ZKbCategoryRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Queryable } from '../../db/client';
import { sqlStateOf } from '../../platform/db-errors';
import { AppError } from '../../platform/errors';
import * as repo from './knowledge.repository';

/** PostgreSQL's text-search configurations by language (stemming and stop words); else 'simple'. */
const CONFIGS: Record<string, string> = {
  ar: 'arabic',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  hu: 'hungarian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  nl: 'dutch',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sv: 'swedish',
  tr: 'turkish',
};

export function searchConfigOf(locale: string | undefined): string {
  const language = (locale ?? '').split('-')[0]!.toLowerCase();
  return CONFIGS[language] ?? 'simple';
}

/** The longest chunk in characters; a longer section is cut between paragraphs. */
export const CHUNK_MAX = 1500;

/**
 * Splits Markdown into sections at its headings (`#` … `######`, outside code fences), each with
 * its heading; a section longer than CHUNK_MAX is cut between paragraphs (a paragraph longer than
 * that on its own is cut at CHUNK_MAX). Empty sections are dropped.
 */
export function chunkMarkdown(markdown: string): repo.Chunk[] {
  const sections: { heading: string; lines: string[] }[] = [{ heading: '', lines: [] }];
  let fenced = false;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.push({ heading: heading[1]!, lines: [] });
    else sections.at(-1)!.lines.push(line);
  }
  const chunks: repo.Chunk[] = [];
  for (const { heading, lines } of sections) {
    const text = lines.join('\n').trim();
    if (!text && !heading) continue;
    let current = '';
    const flush = () => {
      if (current.trim() || (heading && chunks.at(-1)?.heading !== heading))
        chunks.push({ heading, content: current.trim() });
      current = '';
    };
    for (const paragraph of text.split(/\n{2,}/)) {
      if (current && current.length + paragraph.length + 2 > CHUNK_MAX) flush();
      let rest = paragraph;
      while (rest.length > CHUNK_MAX) {
        if (current) flush();
        current = rest.slice(0, CHUNK_MAX);
        flush();
        rest = rest.slice(CHUNK_MAX);
      }
      current = current ? `${current}\n\n${rest}` : rest;
    }
    flush();
  }
  return chunks;
}

/** The words a chunk is indexed under: the article's title with the section's heading. */
function indexedChunks(title: string, body: string): repo.Chunk[] {
  return chunkMarkdown(body).map((c) => ({ heading: c.heading, content: c.content, title }));
}

function toCategory(row: repo.CategoryRow): TKbCategory {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    position: row.position,
    article_count: row.articleCount,
  };
}

export function toArticleSummary(row: repo.ArticleRow): TKbArticleSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    category_id: row.categoryId,
    locale: row.locale,
    status: row.status,
    source_url: row.sourceUrl,
    helpful_count: row.helpfulCount,
    not_helpful_count: row.notHelpfulCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
  };
}

export function toArticle(row: repo.ArticleRow): TKbArticle {
  return { ...toArticleSummary(row), body_markdown: row.bodyMarkdown };
}

const notFound = () => new AppError('not_found', KB_ERRORS.articleNotFound);

// ----- Categories -------------------------------------------------------------------------------

export async function listCategories(db: Queryable, businessId: number): Promise<TKbCategory[]> {
  return (await repo.listCategories(db, businessId)).map(toCategory);
}

function categorySlug(name: string): string {
  return slugify(name, 60) || 'category';
}

async function saveCategory(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (sqlStateOf(error) === '23505')
      throw new AppError('bad_request', KB_ERRORS.categoryTaken, { name: [KB_ERRORS.categoryTaken] });
    throw error;
  }
}

export async function createCategory(
  db: Queryable,
  businessId: number,
  input: TKbCategoryRequest,
): Promise<TKbCategory> {
  const body = ZKbCategoryRequest.parse(input);
  let id = 0;
  await saveCategory(async () => {
    id = await repo.insertCategory(db, { businessId, ...body, slug: categorySlug(body.name) });
  });
  return toCategory((await repo.findCategory(db, businessId, id))!);
}

export async function updateCategory(
  db: Queryable,
  businessId: number,
  id: number,
  input: TKbCategoryUpdate,
): Promise<TKbCategory> {
  const patch = {
    ...(input.name !== undefined ? { name: input.name, slug: categorySlug(input.name) } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.position !== undefined ? { position: input.position } : {}),
  };
  let found = false;
  await saveCategory(async () => {
    found = await repo.updateCategory(db, businessId, id, patch);
  });
  if (!found) throw new AppError('not_found', KB_ERRORS.categoryNotFound);
  return toCategory((await repo.findCategory(db, businessId, id))!);
}

export async function deleteCategory(db: Queryable, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteCategory(db, businessId, id)))
    throw new AppError('not_found', KB_ERRORS.categoryNotFound);
}

// ----- Articles ---------------------------------------------------------------------------------

export async function listArticles(db: Queryable, businessId: number, query: TKbArticleListQuery) {
  const { rows, count } = await repo.listArticles(
    db,
    businessId,
    { status: query.status, categoryId: query.category_id, locale: query.locale, search: query.search },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toArticleSummary),
  };
}

export async function getArticle(db: Queryable, businessId: number, id: number): Promise<TKbArticle> {
  const row = await repo.findArticle(db, businessId, id);
  if (!row) throw notFound();
  return toArticle(row);
}

async function checkCategory(db: Queryable, businessId: number, categoryId: number | null | undefined) {
  if (categoryId == null) return;
  if (!(await repo.findCategory(db, businessId, categoryId)))
    throw new AppError('not_found', KB_ERRORS.categoryNotFound, {
      category_id: [KB_ERRORS.categoryNotFound],
    });
}

export type ArticleAuthor = { userId: number | null; sourceUrl?: string | null };

export async function createArticle(
  db: Db,
  businessId: number,
  input: TKbArticleRequest,
  author: ArticleAuthor,
): Promise<TKbArticle> {
  const body = ZKbArticleRequest.parse(input);
  await checkCategory(db, businessId, body.category_id);
  const row = await db.transaction((tx) =>
    repo.insertArticle(
      tx,
      {
        businessId,
        title: body.title,
        slug: slugify(body.title) || 'article',
        bodyMarkdown: body.body_markdown,
        categoryId: body.category_id,
        locale: body.locale,
        status: body.status,
        sourceUrl: author.sourceUrl ?? null,
        createdBy: author.userId,
        updatedBy: author.userId,
        publishedAt: body.status === 'published' ? new Date() : null,
      },
      indexedChunks(body.title, body.body_markdown),
      searchConfigOf(body.locale),
    ),
  );
  return toArticle(row);
}

export async function updateArticle(
  db: Db,
  businessId: number,
  id: number,
  input: TKbArticleUpdate,
  author: ArticleAuthor,
): Promise<TKbArticle> {
  const current = await repo.findArticle(db, businessId, id);
  if (!current) throw notFound();
  await checkCategory(db, businessId, input.category_id);
  const title = input.title ?? current.title;
  const body = input.body_markdown ?? current.bodyMarkdown;
  const locale = input.locale ?? current.locale;
  const reindex =
    input.title !== undefined || input.body_markdown !== undefined || input.locale !== undefined;
  const row = await db.transaction((tx) =>
    repo.updateArticle(
      tx,
      businessId,
      id,
      {
        ...(input.title !== undefined ? { title, slug: slugify(title) || 'article' } : {}),
        ...(input.body_markdown !== undefined ? { bodyMarkdown: body } : {}),
        ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
        ...(input.locale !== undefined ? { locale } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.status === 'published' && current.status !== 'published'
          ? { publishedAt: new Date() }
          : {}),
        updatedBy: author.userId,
      },
      reindex ? indexedChunks(title, body) : null,
      searchConfigOf(locale),
    ),
  );
  if (!row) throw notFound();
  return toArticle(row);
}

export async function deleteArticle(db: Queryable, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteArticle(db, businessId, id))) throw notFound();
}

/** Staff search: every article, drafts included, ranked by full text. */
export async function searchArticles(
  db: Queryable,
  businessId: number,
  query: TKbSearchQuery,
  opts: { publishedOnly: boolean } = { publishedOnly: false },
): Promise<TKbSearchHit[]> {
  const rows = await repo.searchChunks(db, businessId, query.q, searchConfigOf(query.locale ?? 'en'), {
    publishedOnly: opts.publishedOnly,
    locale: query.locale,
    limit: query.limit,
  });
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

/** Published articles among `ids` with their bodies (the AI answers from them). */
export async function publishedArticlesByIds(db: Queryable, businessId: number, ids: number[]) {
  return (await repo.publishedByIds(db, businessId, ids)).map((a) => ({
    id: a.id,
    title: a.title,
    slug: a.slug,
    body: a.bodyMarkdown,
  }));
}

/** Words too common to search by, in the languages questions mostly come in. */
const QUESTION_STOP_WORDS = new Set(
  'a an and are as at be but by can could do does for from had has have hello hi how i if in is it its me my no not of on or our please so thanks that the their them there this to was we what when where which who why will with would you your'.split(
    ' ',
  ),
);

/**
 * A search query from a customer's question: its distinctive words OR'd (web-search syntax), so an
 * article matching some of them is found and ranked by how many — where the words of a whole
 * question ANDed would match nothing. Empty when no word is left.
 */
export function retrievalQuery(text: string, maxWords = 12): string {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (w) => w.length > 1 && !QUESTION_STOP_WORDS.has(w),
  );
  const picked: string[] = [];
  for (const word of new Set(words)) {
    if (picked.length >= maxWords || [...picked, word].join(' or ').length > KB_LIMITS.queryMax) break;
    picked.push(word);
  }
  return picked.join(' or ');
}
