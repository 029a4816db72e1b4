// Turning what an import brings into Markdown articles: a web page's main content (Mozilla's
// Readability over a linkedom DOM, then Turndown to Markdown), a Markdown file as it is, an HTML
// file like a page, a PDF's text (PDF.js, page by page), and a sitemap's page addresses
// (fast-xml-parser). Each answers a title and a body, or throws ImportItemError with the reason.
import { XMLParser } from 'fast-xml-parser';
import { KB_IMPORT_ERRORS, KB_LIMITS } from '@titan/contracts';
import { lazy } from '../../platform/lazy';

/** One item could not be imported; the words are for the person who asked. */
export class ImportItemError extends Error {}

export type Extracted = { title: string; markdown: string };

/** linkedom, Readability and Turndown (~8 MB of heap) only in a process that imports a page. */
const pageLibraries = lazy(async () => {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  // Scripts, styles and forms are not content.
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);
  return { parseHTML, Readability, turndown };
});

const fitTitle = (title: string) => title.replace(/\s+/g, ' ').trim().slice(0, KB_LIMITS.titleMax);
const fitBody = (body: string) => body.trim().slice(0, KB_LIMITS.bodyMax);

/** A file name without its extension, as a title of last resort. */
export const titleOfName = (name: string) =>
  fitTitle((name.split(/[\\/]/).pop() ?? name).replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ')) ||
  'Untitled';

/** The main content of an HTML page as Markdown, with the page's title. */
export async function htmlToArticle(html: string, fallbackTitle: string): Promise<Extracted> {
  const { parseHTML, Readability, turndown } = await pageLibraries();
  const { document } = parseHTML(html);
  const pageTitle = document.querySelector('title')?.textContent ?? '';
  const headings = [...document.querySelectorAll('h1')].map((h) => fitTitle(h.textContent ?? ''));
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 100,
    }).parse();
  } catch {
    article = null;
  }
  // A short page Readability gives up on: its body is the content.
  const contentHtml = article?.content ?? parseHTML(html).document.body?.innerHTML ?? '';
  const markdown = fitBody(turndown.turndown(contentHtml || '<p></p>'));
  if (!markdown.replace(/[#*_\-\s>`[\]()]/g, '')) throw new ImportItemError(KB_IMPORT_ERRORS.noContent);
  const title = withoutSiteName(fitTitle(article?.title || pageTitle), headings) || fallbackTitle;
  return { title, markdown: stripLeadingTitle(markdown, title) };
}

/**
 * "Refunds · Umbrella Haven" is the page's title; "Refunds" is the article's. When the page has one
 * <h1> and the title holds it with more around it (a site name after a separator), the heading is
 * the title. Readability only cuts at the separators it knows (| - – — / > »), not at "·" or ":".
 */
function withoutSiteName(title: string, headings: string[]): string {
  if (headings.length !== 1) return title;
  const h1 = headings[0]!;
  if (!h1 || h1 === title || !title.toLowerCase().includes(h1.toLowerCase())) return title;
  const rest = title.replace(new RegExp(h1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), '').trim();
  return /^[\s|·•:\-–—/>»]/.test(rest) || /[\s|·•:\-–—/>»]$/.test(rest) ? h1 : title;
}

/** Readability keeps the page's own <h1>; the article's title already says it. */
function stripLeadingTitle(markdown: string, title: string): string {
  const first = /^#\s+(.+)\n+/.exec(markdown);
  return first && first[1]!.trim() === title ? markdown.slice(first[0].length) : markdown;
}

/** A Markdown file: its first `# ` heading is the title (and leaves the body), else the file name. */
export function markdownToArticle(text: string, fileName: string): Extracted {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const heading = /^\s*#\s+(.+?)\s*#*\s*$/m.exec(body);
  const title = heading && body.slice(0, heading.index).trim() === '' ? fitTitle(heading[1]!) : '';
  const markdown = fitBody(title ? body.slice(heading!.index + heading![0].length) : body);
  if (!markdown && !title) throw new ImportItemError(KB_IMPORT_ERRORS.noContent);
  return { title: title || titleOfName(fileName), markdown };
}

/** A PDF's text, a paragraph per run of lines, each page a section; its title from the metadata. */
export async function pdfToArticle(bytes: Uint8Array, fileName: string): Promise<Extracted> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;
  try {
    doc = await pdfjs.getDocument({
      // A copy as a plain Uint8Array: PDF.js refuses Buffers and detaches what it is given.
      data: Uint8Array.from(bytes),
      useSystemFonts: false,
      isEvalSupported: false,
      disableFontFace: true,
      verbosity: 0,
    }).promise;
  } catch {
    throw new ImportItemError(KB_IMPORT_ERRORS.pdfUnreadable);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      const cleaned = text
        .split('\n')
        .map((l) => l.replace(/\s+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      if (cleaned) pages.push(doc.numPages > 1 ? `## Page ${n}\n\n${cleaned}` : cleaned);
      page.cleanup();
    }
    const markdown = fitBody(pages.join('\n\n'));
    if (!markdown) throw new ImportItemError(KB_IMPORT_ERRORS.noContent);
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as { Title?: unknown };
    const title = typeof info.Title === 'string' ? fitTitle(info.Title) : '';
    return { title: title || titleOfName(fileName), markdown };
  } finally {
    await doc.destroy();
  }
}

export type SitemapEntries = { pages: string[]; sitemaps: string[] };

/** The page addresses of a <urlset>, or the sitemaps of a <sitemapindex>. */
export function parseSitemap(xml: string): SitemapEntries {
  let parsed: Record<string, unknown>;
  try {
    parsed = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, processEntities: true }).parse(
      xml,
    ) as Record<string, unknown>;
  } catch {
    throw new ImportItemError(KB_IMPORT_ERRORS.sitemapUnreadable);
  }
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v == null ? [] : [v]);
  const locs = (v: unknown) =>
    list(v)
      .map((e) => (e as { loc?: unknown })?.loc)
      .filter((l): l is string => typeof l === 'string')
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l));
  const urlset = parsed.urlset as { url?: unknown } | undefined;
  const index = parsed.sitemapindex as { sitemap?: unknown } | undefined;
  if (urlset !== undefined) return { pages: locs(urlset?.url), sitemaps: [] };
  if (index !== undefined) return { pages: [], sitemaps: locs(index?.sitemap) };
  throw new ImportItemError(KB_IMPORT_ERRORS.sitemapUnreadable);
}

export type FileKind = 'markdown' | 'html' | 'pdf';

/** What an uploaded file is, by its name (and a PDF's signature). */
export function fileKindOf(name: string, head?: Uint8Array): FileKind | null {
  if (head && head.length >= 5 && Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-')
    return 'pdf';
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown' || ext === 'txt') return 'markdown';
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'pdf') return 'pdf';
  return null;
}

/** An uploaded file's article. */
export async function fileToArticle(name: string, bytes: Uint8Array): Promise<Extracted> {
  const kind = fileKindOf(name, bytes);
  if (kind === 'pdf') return pdfToArticle(bytes, name);
  const text = new TextDecoder('utf-8').decode(bytes);
  if (kind === 'html') return await htmlToArticle(text, titleOfName(name));
  if (kind === 'markdown') return markdownToArticle(text, name);
  throw new ImportItemError(KB_IMPORT_ERRORS.fileType);
}
