// Knowledge-base imports: pages by address or from a sitemap, fetched through the SSRF gate
// (platform/safe-fetch.ts), and uploaded Markdown, HTML or PDF files (kept in storage under
// kb_imports/ until the job has read them). The request answers 202 at once; the job `kb.import`
// takes the items one by one, each with its own outcome — a page that fails is reported with the
// reason and the others are imported. A page imported again (same address) rewrites its article.
import type { Logger } from 'pino';
import {
  KB_ERRORS,
  KB_IMPORT_ERRORS,
  KB_IMPORT_LIMITS,
  type TKbImport,
  type TKbImportRequest,
  ZKbImportRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { type OutboundDeps, outboundErrorWords, safeFetch } from '../../platform/safe-fetch';
import { makeKey, type Storage } from '../../platform/storage';
import { fileToArticle, htmlToArticle, ImportItemError, parseSitemap, titleOfName } from './import-extract';
import * as kb from './knowledge.service';
import * as repo from './imports.repository';
import * as kbRepo from './knowledge.repository';

export type KnowledgeImportDeps = {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  logger: Logger;
  outbound: OutboundDeps;
  /** Called after the job changed articles (their embeddings are brought up to date). */
  onArticlesChanged?: (businessId: number) => Promise<void>;
};

export const KB_IMPORT_QUEUE = 'kb.import';
const FETCH_TIMEOUT_MS = 20_000;
/** Child sitemaps of a sitemap index that are read. */
const SITEMAPS_MAX = 10;

type ImportTarget = { locale: string; category_id: number | null; status: 'draft' | 'published' };

function toImport(
  row: repo.ImportRow,
  items: repo.ImportItemRow[] | null,
  counts?: repo.ImportCounts,
): TKbImport {
  const c = counts ?? { total: 0, processed: 0, imported: 0, failed: 0 };
  return {
    id: row.id,
    status: row.status,
    sitemap_url: row.sitemapUrl,
    locale: row.locale,
    category_id: row.categoryId,
    article_status: row.articleStatus,
    total: c.total,
    processed: c.processed,
    imported: c.imported,
    failed: c.failed,
    error: row.error,
    items: (items ?? []).map((i) => ({
      id: i.id,
      kind: i.kind,
      source: i.source,
      status: i.status,
      article_id: i.articleId,
      title: i.title,
      error: i.error,
    })),
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export async function findImport(db: Db, businessId: number, id: number): Promise<TKbImport> {
  const row = await repo.findImport(db, businessId, id);
  if (!row) throw new AppError('not_found', KB_IMPORT_ERRORS.notFound);
  const [items, counts] = await Promise.all([repo.itemsOf(db, id), repo.countsOf(db, [id])]);
  return toImport(row, items, counts.get(id));
}

export async function listImports(db: Db, businessId: number): Promise<Omit<TKbImport, 'items'>[]> {
  const rows = await repo.listImports(db, businessId, 20);
  const counts = await repo.countsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const { items: _items, ...rest } = toImport(r, null, counts.get(r.id));
    return rest;
  });
}

async function checkCategory(db: Db, businessId: number, categoryId: number | null) {
  if (categoryId != null && !(await kbRepo.findCategory(db, businessId, categoryId)))
    throw new AppError('not_found', KB_ERRORS.categoryNotFound, {
      category_id: [KB_ERRORS.categoryNotFound],
    });
}

/** Pages by address, or a sitemap read by the job. */
export async function createUrlImport(
  deps: KnowledgeImportDeps,
  businessId: number,
  userId: number | null,
  input: TKbImportRequest,
): Promise<TKbImport> {
  const body = ZKbImportRequest.parse(input);
  await checkCategory(deps.db, businessId, body.category_id);
  const urls = [...new Set(body.urls ?? [])];
  const row = await repo.insertImport(
    deps.db,
    {
      businessId,
      sitemapUrl: body.sitemap_url ?? null,
      locale: body.locale,
      categoryId: body.category_id,
      articleStatus: body.status,
      createdBy: userId,
    },
    urls.map((source) => ({ kind: 'url' as const, source })),
  );
  await deps.jobs.send(KB_IMPORT_QUEUE, { import_id: row.id });
  return findImport(deps.db, businessId, row.id);
}

export type UploadedFile = { fileName: string; bytes: Buffer };

/** Uploaded files: stored until the job reads them. */
export async function createFileImport(
  deps: KnowledgeImportDeps,
  businessId: number,
  userId: number | null,
  target: ImportTarget,
  files: UploadedFile[],
): Promise<TKbImport> {
  await checkCategory(deps.db, businessId, target.category_id);
  const items: { kind: 'file'; source: string; fileKey: string }[] = [];
  for (const file of files) {
    const key = makeKey(`kb_imports/${businessId}`, file.fileName || 'upload');
    await deps.storage.put(key, file.bytes, 'application/octet-stream');
    items.push({ kind: 'file', source: file.fileName || 'upload', fileKey: key });
  }
  const row = await repo.insertImport(
    deps.db,
    {
      businessId,
      locale: target.locale,
      categoryId: target.category_id,
      articleStatus: target.status,
      createdBy: userId,
    },
    items,
  );
  await deps.jobs.send(KB_IMPORT_QUEUE, { import_id: row.id });
  return findImport(deps.db, businessId, row.id);
}

/** A body read up to the import limit; larger is refused. */
async function readCapped(res: Response): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > KB_IMPORT_LIMITS.fileBytesMax) throw new ImportItemError(KB_IMPORT_ERRORS.fileTooLarge);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!res.body) return Buffer.alloc(0);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > KB_IMPORT_LIMITS.fileBytesMax) throw new ImportItemError(KB_IMPORT_ERRORS.fileTooLarge);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** GETs an address through the SSRF gate; an answer that is not 2xx is the item's failure. */
async function fetchPage(deps: KnowledgeImportDeps, url: string): Promise<{ body: Buffer; type: string }> {
  let res: Response;
  try {
    res = await safeFetch(deps.outbound)(url, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.5' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    throw new ImportItemError(outboundErrorWords(err, FETCH_TIMEOUT_MS / 1000));
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    const to = res.headers.get('location');
    throw new ImportItemError(
      to
        ? `The address redirects to ${new URL(to, url).href}: import that address.`
        : `The address redirects (HTTP ${res.status}).`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ImportItemError(`The address answered HTTP ${res.status}.`);
  }
  return { body: await readCapped(res), type: (res.headers.get('content-type') ?? '').toLowerCase() };
}

async function readSitemap(deps: KnowledgeImportDeps, url: string): Promise<string[]> {
  const first = parseSitemap((await fetchPage(deps, url)).body.toString('utf8'));
  const pages = [...first.pages];
  for (const child of first.sitemaps.slice(0, SITEMAPS_MAX)) {
    if (pages.length >= KB_IMPORT_LIMITS.urlsMax) break;
    pages.push(...parseSitemap((await fetchPage(deps, child)).body.toString('utf8')).pages);
  }
  const unique = [...new Set(pages)].slice(0, KB_IMPORT_LIMITS.urlsMax);
  if (unique.length === 0) throw new ImportItemError(KB_IMPORT_ERRORS.sitemapEmpty);
  return unique;
}

async function extractUrl(deps: KnowledgeImportDeps, url: string) {
  const page = await fetchPage(deps, url);
  if (page.type.includes('application/pdf'))
    return fileToArticle(new URL(url).pathname || 'page.pdf', page.body);
  if (page.type && !page.type.includes('html')) throw new ImportItemError(KB_IMPORT_ERRORS.notHtml);
  return htmlToArticle(page.body.toString('utf8'), titleOfName(new URL(url).pathname) || new URL(url).host);
}

async function extractFile(deps: KnowledgeImportDeps, item: repo.ImportItemRow) {
  const bytes = item.fileKey ? await deps.storage.get(item.fileKey) : null;
  if (!bytes) throw new ImportItemError('The uploaded file is no longer stored; upload it again.');
  return fileToArticle(item.source, bytes);
}

/** The job: every pending item of an import, each committed with its outcome (a retry resumes). */
export async function runImport(deps: KnowledgeImportDeps, importId: number): Promise<void> {
  const row = await repo.findImportById(deps.db, importId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  await repo.setImportStatus(deps.db, importId, 'running');
  let items = await repo.itemsOf(deps.db, importId);
  if (row.sitemapUrl && items.length === 0) {
    try {
      const pages = await readSitemap(deps, row.sitemapUrl);
      await repo.insertItems(
        deps.db,
        importId,
        0,
        pages.map((source) => ({ kind: 'url' as const, source })),
      );
    } catch (err) {
      const words = err instanceof ImportItemError ? err.message : 'The sitemap could not be read.';
      if (!(err instanceof ImportItemError)) deps.logger.error({ err, importId }, 'kb sitemap read failed');
      await repo.setImportStatus(deps.db, importId, 'failed', words);
      return;
    }
    items = await repo.itemsOf(deps.db, importId);
  }
  let changed = false;
  for (const item of items) {
    if (item.status !== 'pending') continue;
    try {
      const extracted =
        item.kind === 'url' ? await extractUrl(deps, item.source) : await extractFile(deps, item);
      const input = {
        title: extracted.title,
        body_markdown: extracted.markdown,
        category_id: row.categoryId,
        locale: row.locale,
        status: row.articleStatus,
      };
      const author = { userId: row.createdBy, sourceUrl: item.kind === 'url' ? item.source : null };
      const existing =
        item.kind === 'url'
          ? await kbRepo.findArticleBySource(deps.db, row.businessId, item.source)
          : undefined;
      const article = existing
        ? await kb.updateArticle(deps.db, row.businessId, existing.id, input, author)
        : await kb.createArticle(deps.db, row.businessId, input, author);
      await repo.finishItem(deps.db, item.id, {
        status: existing ? 'updated' : 'imported',
        articleId: article.id,
        title: article.title,
      });
      changed = true;
    } catch (err) {
      if (!(err instanceof ImportItemError) && !(err instanceof AppError))
        deps.logger.error({ err, importId, item: item.id }, 'kb import item failed');
      const words =
        err instanceof ImportItemError || err instanceof AppError
          ? err.message
          : 'This item could not be imported.';
      await repo.finishItem(deps.db, item.id, { status: 'failed', error: words });
    }
    if (item.fileKey) await deps.storage.delete(item.fileKey).catch(() => undefined);
  }
  await repo.setImportStatus(deps.db, importId, 'done');
  if (changed) await deps.onArticlesChanged?.(row.businessId);
}

export async function defineKbImportQueue(deps: KnowledgeImportDeps): Promise<void> {
  await deps.jobs.define<{ import_id: number }>({
    name: KB_IMPORT_QUEUE,
    handler: ({ import_id }) => runImport(deps, import_id),
    // A process stopped mid-import: the job runs again and resumes at the first pending item.
    retryLimit: 3,
    expireInSeconds: 30 * 60,
  });
}
