// The knowledge base and the public help centre (next-api.md "Knowledge and AI in the inbox").
// Articles are Markdown; the server splits them into chunks (one per section) that full-text search
// ranks; the help centre shows a business's published articles to anyone with its link.
import { z } from 'zod';
import { ZPageQuery } from './conversations';
import { ZPage } from './envelope';

export const KB_ARTICLE_STATUSES = ['draft', 'published'] as const;
export type TKbArticleStatus = (typeof KB_ARTICLE_STATUSES)[number];
export const KB_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const KB_IMPORT_ITEM_KINDS = ['url', 'file'] as const;
/** `imported`: a new article; `updated`: the article from the same address was rewritten. */
export const KB_IMPORT_ITEM_STATUSES = ['pending', 'imported', 'updated', 'failed'] as const;

export const KB_LIMITS = {
  titleMax: 200,
  bodyMax: 100_000,
  categoryNameMax: 100,
  descriptionMax: 300,
  queryMax: 200,
  importUrlsMax: 50,
} as const;

export const KB_ERRORS = {
  titleRequired: 'Give the article a title.',
  categoryNameRequired: 'Give the category a name.',
  categoryTaken: 'Another category already has this name.',
  categoryNotFound: 'No category of this business has this id.',
  locale: 'Enter a language code such as en, de or pt-BR.',
  queryRequired: 'Type a few words to search for.',
  helpCentreNotFound: 'This help centre does not exist.',
  articleNotFound: 'This article does not exist.',
  importNothing: 'Give the addresses of pages to import, a sitemap, or files.',
  importBoth: 'Give either page addresses or a sitemap, not both.',
} as const;

/** A language tag (BCP 47, the common shapes): en, de, pt-BR, zh-Hant. */
export const ZLocale = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/, { message: KB_ERRORS.locale });

export const ZKbCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  position: z.number().int(),
  /** Published articles in it. */
  article_count: z.number().int(),
});
export type TKbCategory = z.infer<typeof ZKbCategory>;

const categoryFields = {
  name: z.string().trim().min(1, { message: KB_ERRORS.categoryNameRequired }).max(KB_LIMITS.categoryNameMax),
  description: z.string().trim().max(KB_LIMITS.descriptionMax),
  position: z.number().int().min(0).max(10_000),
};
export const ZKbCategoryRequest = z.object({
  name: categoryFields.name,
  description: categoryFields.description.default(''),
  position: categoryFields.position.default(0),
});
export type TKbCategoryRequest = z.input<typeof ZKbCategoryRequest>;
export const ZKbCategoryUpdate = z.object(categoryFields).partial();
export type TKbCategoryUpdate = z.input<typeof ZKbCategoryUpdate>;

export const ZKbArticle = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  body_markdown: z.string(),
  category_id: z.number().int().nullable(),
  locale: z.string(),
  status: z.enum(KB_ARTICLE_STATUSES),
  /** Where it was imported from, when it was. */
  source_url: z.string().nullable(),
  helpful_count: z.number().int(),
  not_helpful_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
});
export type TKbArticle = z.infer<typeof ZKbArticle>;

/** A list row: the article without its body. */
export const ZKbArticleSummary = ZKbArticle.omit({ body_markdown: true });
export type TKbArticleSummary = z.infer<typeof ZKbArticleSummary>;
export const ZKbArticlePage = ZPage(ZKbArticleSummary);

const articleFields = {
  title: z.string().trim().min(1, { message: KB_ERRORS.titleRequired }).max(KB_LIMITS.titleMax),
  body_markdown: z.string().max(KB_LIMITS.bodyMax),
  category_id: z.number().int().positive().nullable(),
  locale: ZLocale,
  status: z.enum(KB_ARTICLE_STATUSES),
};
export const ZKbArticleRequest = z.object({
  title: articleFields.title,
  body_markdown: articleFields.body_markdown.default(''),
  category_id: articleFields.category_id.default(null),
  locale: articleFields.locale.default('en'),
  status: articleFields.status.default('draft'),
});
export type TKbArticleRequest = z.input<typeof ZKbArticleRequest>;
/** An edit changes only the fields it names (no defaults). */
export const ZKbArticleUpdate = z.object(articleFields).partial();
export type TKbArticleUpdate = z.input<typeof ZKbArticleUpdate>;

export const ZKbArticleListQuery = ZPageQuery.extend({
  status: z.enum(KB_ARTICLE_STATUSES).optional(),
  category_id: z.coerce.number().int().positive().optional(),
  locale: ZLocale.optional(),
  search: z.string().trim().max(KB_LIMITS.queryMax).optional(),
}).strict();
export type TKbArticleListQuery = z.infer<typeof ZKbArticleListQuery>;

export const ZKbSearchQuery = z.strictObject({
  q: z.string().trim().min(1, { message: KB_ERRORS.queryRequired }).max(KB_LIMITS.queryMax),
  locale: ZLocale.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export type TKbSearchQuery = z.infer<typeof ZKbSearchQuery>;

/** One search hit: the article and its best-matching section, with the match marked. */
export const ZKbSearchHit = z.object({
  article_id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  locale: z.string(),
  /** The section heading of the best chunk ('' for the article's opening). */
  heading: z.string(),
  /** Text around the match; matched words are wrapped in «…» (plain text, never HTML). */
  snippet: z.string(),
  /** Full-text rank of the best chunk (higher is better; comparable within one search). */
  score: z.number(),
  status: z.enum(KB_ARTICLE_STATUSES),
});
export type TKbSearchHit = z.infer<typeof ZKbSearchHit>;
export const ZKbSearchResult = z.object({ results: z.array(ZKbSearchHit) });

/** The public help centre's front: the business, its categories and published articles. */
export const ZHelpCentre = z.object({
  business: z.object({ name: z.string(), slug: z.string(), color: z.string().nullable() }),
  locales: z.array(z.string()),
  categories: z.array(ZKbCategory),
  articles: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      slug: z.string(),
      category_id: z.number().int().nullable(),
      locale: z.string(),
      updated_at: z.string(),
    }),
  ),
});
export type THelpCentre = z.infer<typeof ZHelpCentre>;

export const ZHelpCentreQuery = z.strictObject({ locale: ZLocale.optional() });

export const ZPublicKbArticle = ZKbArticle.pick({
  id: true,
  title: true,
  slug: true,
  body_markdown: true,
  category_id: true,
  locale: true,
  updated_at: true,
});
export type TPublicKbArticle = z.infer<typeof ZPublicKbArticle>;

export const ZKbFeedbackRequest = z.object({ helpful: z.boolean() });
export type TKbFeedbackRequest = z.infer<typeof ZKbFeedbackRequest>;

// ----- Imports: POST /api/kb/imports/ (JSON {urls | sitemap_url}, or multipart files) → 202 -----

export const KB_IMPORT_LIMITS = {
  /** Pages one import takes (listed, or read from a sitemap). */
  urlsMax: KB_LIMITS.importUrlsMax,
  filesMax: 20,
  /** Bytes of one uploaded file or fetched page. */
  fileBytesMax: 10 * 1024 * 1024,
} as const;

export const KB_IMPORT_ERRORS = {
  urlInvalid: 'Enter a full web address starting with https://.',
  tooManyUrls: `Import at most ${KB_LIMITS.importUrlsMax} pages at once.`,
  tooManyFiles: 'Import at most 20 files at once.',
  fileType: 'Upload Markdown (.md), HTML (.html) or PDF (.pdf) files.',
  fileTooLarge: 'This file is larger than 10 MB.',
  notFound: 'This import does not exist.',
  notHtml: 'The address did not answer with a web page (HTML).',
  noContent: 'No readable text was found.',
  sitemapUnreadable: 'The sitemap could not be read as XML (a <urlset> or <sitemapindex>).',
  sitemapEmpty: 'The sitemap lists no pages.',
  pdfUnreadable: 'The PDF could not be read.',
} as const;

const ZImportUrl = z
  .string()
  .trim()
  .url({ message: KB_IMPORT_ERRORS.urlInvalid })
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), { message: KB_IMPORT_ERRORS.urlInvalid });

/** Where imported articles go: their language, category and status (draft unless chosen). */
const importTargetFields = {
  locale: ZLocale.default('en'),
  category_id: z.coerce.number().int().positive().nullable().default(null),
  status: z.enum(KB_ARTICLE_STATUSES).default('draft'),
};

export const ZKbImportRequest = z
  .object({
    urls: z
      .array(ZImportUrl)
      .max(KB_LIMITS.importUrlsMax, { message: KB_IMPORT_ERRORS.tooManyUrls })
      .optional(),
    sitemap_url: ZImportUrl.optional(),
    ...importTargetFields,
  })
  .strict()
  .superRefine((v, ctx) => {
    const urls = v.urls?.length ?? 0;
    if (urls === 0 && !v.sitemap_url)
      ctx.addIssue({ code: 'custom', path: ['urls'], message: KB_ERRORS.importNothing });
    if (urls > 0 && v.sitemap_url)
      ctx.addIssue({ code: 'custom', path: ['sitemap_url'], message: KB_ERRORS.importBoth });
  });
export type TKbImportRequest = z.input<typeof ZKbImportRequest>;

/** The text fields of a multipart file import (`files` parts carry the files). */
export const ZKbImportFileFields = z.object(importTargetFields).strict();

export const ZKbImportItem = z.object({
  id: z.number().int(),
  kind: z.enum(KB_IMPORT_ITEM_KINDS),
  /** The page's address or the file's name. */
  source: z.string(),
  status: z.enum(KB_IMPORT_ITEM_STATUSES),
  article_id: z.number().int().nullable(),
  title: z.string().nullable(),
  /** Why this item was not imported (the others were). */
  error: z.string().nullable(),
});
export type TKbImportItem = z.infer<typeof ZKbImportItem>;

export const ZKbImport = z.object({
  id: z.number().int(),
  status: z.enum(KB_IMPORT_STATUSES),
  sitemap_url: z.string().nullable(),
  locale: z.string(),
  category_id: z.number().int().nullable(),
  article_status: z.enum(KB_ARTICLE_STATUSES),
  total: z.number().int(),
  processed: z.number().int(),
  imported: z.number().int(),
  failed: z.number().int(),
  /** Why the whole import failed (e.g. the sitemap could not be read). */
  error: z.string().nullable(),
  items: z.array(ZKbImportItem),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TKbImport = z.infer<typeof ZKbImport>;
export const ZKbImportList = z.object({ results: z.array(ZKbImport.omit({ items: true })) });
