// The public help centre of a business (/hc/{business_slug} in the web app): published articles
// only, found by the business's unique code. An unknown code and an unpublished or foreign article
// answer the same 404, so the help centre reveals nothing about drafts or other businesses.
import {
  KB_ERRORS,
  type THelpCentre,
  type TKbSearchHit,
  type TKbSearchQuery,
  type TPublicKbArticle,
} from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { findBusinessByCode } from '../business';
import { type EmbedDeps, searchKnowledge } from './embeddings.service';
import * as repo from './knowledge.repository';
import { listCategories } from './knowledge.service';

async function businessOfSlug(db: Queryable, slug: string) {
  const business = await findBusinessByCode(db, slug);
  if (!business) throw new AppError('not_found', KB_ERRORS.helpCentreNotFound);
  return business;
}

export async function helpCentre(db: Queryable, slug: string, locale?: string): Promise<THelpCentre> {
  const business = await businessOfSlug(db, slug);
  const [categories, articles, locales] = await Promise.all([
    listCategories(db, business.id),
    repo.listPublished(db, business.id, locale),
    repo.publishedLocales(db, business.id),
  ]);
  return {
    business: { name: business.name, slug: business.uniqueCode, color: null },
    locales,
    categories: categories.filter((c) => c.article_count > 0),
    articles: articles.map((a) => ({
      id: a.id,
      title: a.title,
      slug: a.slug,
      category_id: a.categoryId,
      locale: a.locale,
      updated_at: a.updatedAt.toISOString(),
    })),
  };
}

/** The visitor's search: hybrid (full text and vector nearness) when the business has embeddings. */
export async function searchHelpCentre(
  deps: Pick<EmbedDeps, 'db' | 'llm' | 'logger'>,
  slug: string,
  query: TKbSearchQuery,
): Promise<TKbSearchHit[]> {
  const business = await businessOfSlug(deps.db, slug);
  return (await searchKnowledge(deps, business.id, query, { publishedOnly: true })).hits;
}

export async function publicArticle(db: Queryable, slug: string, id: number): Promise<TPublicKbArticle> {
  const business = await businessOfSlug(db, slug);
  const row = await repo.findArticle(db, business.id, id);
  if (!row || row.status !== 'published') throw new AppError('not_found', KB_ERRORS.articleNotFound);
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body_markdown: row.bodyMarkdown,
    category_id: row.categoryId,
    locale: row.locale,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function articleFeedback(
  db: Queryable,
  slug: string,
  id: number,
  helpful: boolean,
): Promise<void> {
  const business = await businessOfSlug(db, slug);
  if (!(await repo.countFeedback(db, business.id, id, helpful)))
    throw new AppError('not_found', KB_ERRORS.articleNotFound);
}
