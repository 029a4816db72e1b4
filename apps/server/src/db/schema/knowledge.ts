// The knowledge base (modules/knowledge): categories, Markdown articles and their search chunks.
import {
  bigint,
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import {
  KB_ARTICLE_STATUSES,
  KB_IMPORT_ITEM_KINDS,
  KB_IMPORT_ITEM_STATUSES,
  KB_IMPORT_STATUSES,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { users } from './identity';

/** A full-text document; written with to_tsvector(...) by the repository, never read as a value. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/**
 * The embedding dimensions with an HNSW index of their own (migration 0081): a model of one of
 * these is searched through its index, one of another dimension by reading its embeddings.
 */
export const VECTOR_INDEX_DIMENSIONS = [256, 384, 512, 768, 1024, 1536] as const;
/** A pgvector vector of any dimension (the embedding model's); written and read as '[1,2,3]'. */
const vector = customType<{ data: string }>({ dataType: () => 'vector' });

export const kbCategories = pgTable(
  'kb_categories',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('kb_categories_business_slug_uq').on(t.businessId, t.slug)],
);

export const kbArticles = pgTable(
  'kb_articles',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    categoryId: bigint('category_id', { mode: 'number' }).references(() => kbCategories.id, {
      onDelete: 'set null',
    }),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    bodyMarkdown: text('body_markdown').notNull().default(''),
    locale: text('locale').notNull().default('en'),
    status: text('status', { enum: KB_ARTICLE_STATUSES }).notNull().default('draft'),
    sourceUrl: text('source_url'),
    helpfulCount: integer('helpful_count').notNull().default(0),
    notHelpfulCount: integer('not_helpful_count').notNull().default(0),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    updatedBy: bigint('updated_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    publishedAt: ts('published_at'),
  },
  (t) => [
    index('kb_articles_business_idx').on(t.businessId, t.status, sql`${t.updatedAt} DESC`),
    uniqueIndex('kb_articles_source_uq')
      .on(t.businessId, t.sourceUrl)
      .where(sql`${t.sourceUrl} IS NOT NULL`),
  ],
);

export const kbChunks = pgTable(
  'kb_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    articleId: bigint('article_id', { mode: 'number' })
      .notNull()
      .references(() => kbArticles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    heading: text('heading').notNull().default(''),
    content: text('content').notNull(),
    tsv: tsvector('tsv').notNull(),
  },
  (t) => [
    index('kb_chunks_article_idx').on(t.articleId, t.position),
    index('kb_chunks_business_idx').on(t.businessId),
    index('kb_chunks_tsv_idx').using('gin', t.tsv),
  ],
);

/** An import: pages (listed or from a sitemap) or uploaded files, run by a job (kb.import). */
export const kbImports = pgTable(
  'kb_imports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    status: text('status', { enum: KB_IMPORT_STATUSES }).notNull().default('queued'),
    sitemapUrl: text('sitemap_url'),
    locale: text('locale').notNull().default('en'),
    categoryId: bigint('category_id', { mode: 'number' }).references(() => kbCategories.id, {
      onDelete: 'set null',
    }),
    articleStatus: text('article_status', { enum: KB_ARTICLE_STATUSES }).notNull().default('draft'),
    error: text('error'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('kb_imports_business_idx').on(t.businessId, sql`${t.createdAt} DESC`)],
);

/** One page or file of an import, with its own outcome. */
export const kbImportItems = pgTable(
  'kb_import_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    importId: bigint('import_id', { mode: 'number' })
      .notNull()
      .references(() => kbImports.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: KB_IMPORT_ITEM_KINDS }).notNull(),
    /** The page's URL, or the uploaded file's name. */
    source: text('source').notNull(),
    /** Where an uploaded file waits in storage until the job has read it. */
    fileKey: text('file_key'),
    status: text('status', { enum: KB_IMPORT_ITEM_STATUSES }).notNull().default('pending'),
    articleId: bigint('article_id', { mode: 'number' }).references(() => kbArticles.id, {
      onDelete: 'set null',
    }),
    title: text('title'),
    error: text('error'),
  },
  (t) => [index('kb_import_items_import_idx').on(t.importId, t.position)],
);

/** A chunk's embedding by one model (search compares rows of the model in use only). */
export const kbEmbeddings = pgTable(
  'kb_embeddings',
  {
    chunkId: bigint('chunk_id', { mode: 'number' })
      .notNull()
      .references(() => kbChunks.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    embedding: vector('embedding').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chunkId, t.model] }),
    index('kb_embeddings_business_idx').on(t.businessId, t.model),
    // Nearest-neighbour search (migration 0081): an HNSW index needs a dimension, the column has
    // none, so one partial index per common dimension on the embedding cast to it.
    ...VECTOR_INDEX_DIMENSIONS.map((d) =>
      index(`kb_embeddings_hnsw_${d}_idx`)
        .using('hnsw', sql`(${t.embedding}::vector(${sql.raw(String(d))})) vector_cosine_ops`)
        .where(sql`vector_dims(${t.embedding}) = ${sql.raw(String(d))}`),
    ),
  ],
);
