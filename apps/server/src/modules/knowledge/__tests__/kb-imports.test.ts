// Knowledge-base imports through the API and the job: a sitemap's pages fetched from a local web
// server (main content kept, navigation and footer dropped), a page that answers 404 and one the
// SSRF gate refuses reported per item while the rest are imported, a page imported again rewriting
// its article, uploaded Markdown, HTML and PDF files, bad input answered with field errors, and
// another business's imports never seen.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  KB_ERRORS,
  KB_IMPORT_ERRORS,
  MCP_ERRORS,
  type TBusiness,
  type TKbArticle,
  type TKbImport,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { textPdf } from '../../../testing/pdf';
import { runKbImport } from '..';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let rival: Session;
let rivalBusiness: TBusiness;
let site: Server;
let base = '';
/** What the local site answers per path; tests change a page between imports. */
const pages = new Map<string, { type: string; body: string; status?: number }>();

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>
  <nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/jobs">Careers at Acme</a></nav>
  <main><article><h1>${title}</h1>${body}</article></main>
  <footer>Copyright Acme Umbrellas. Cookie settings.</footer></body></html>`;

beforeAll(async () => {
  site = createServer((req, res) => {
    const found = pages.get(req.url ?? '/');
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    res.writeHead(found.status ?? 200, { 'content-type': found.type }).end(found.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  pages.set('/shipping', {
    type: 'text/html; charset=utf-8',
    body: page(
      'Shipping',
      `<p>We ship every weekday from our warehouse in Porto. Orders placed before noon leave the same
       day, and the tracking number arrives by email within the hour.</p>
       <h2>Costs</h2><p>Shipping is free above 50 euros; below that it costs 4.90 euros within the EU.</p>`,
    ),
  });
  pages.set('/returns', {
    type: 'text/html',
    body: page(
      'Returns and refunds',
      `<p>You may return an umbrella within 30 days of delivery, unused and in its sleeve. We refund
       the price to the card you paid with within five working days of receiving it.</p>`,
    ),
  });
  pages.set('/data.json', { type: 'application/json', body: '{"not":"a page"}' });
  pages.set('/sitemap.xml', {
    type: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>${base}/shipping</loc></url>
        <url><loc>${base}/returns</loc></url>
        <url><loc>${base}/gone</loc></url>
      </urlset>`,
  });
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer, { firstName: 'Ima' });
  business = await createBusiness(app, owner, 'Importing');
  rival = await signUp(app, rt.mailer, { firstName: 'Riv' });
  rivalBusiness = await createBusiness(app, rival, 'Rival Imports');
});
afterAll(async () => {
  await rt.destroy();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function call(method: 'GET' | 'POST', url: string, payload?: object, who = owner, biz = business) {
  const res = await app.inject({ method, url, headers: as(who, biz), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

/** Starts an import, runs its job here, and answers what the API then shows. */
async function importAndRun(payload: object | FormData): Promise<TKbImport> {
  const res =
    payload instanceof FormData
      ? await app.inject({
          method: 'POST',
          url: '/api/kb/imports/',
          headers: as(owner, business),
          payload,
        })
      : await app.inject({ method: 'POST', url: '/api/kb/imports/', headers: as(owner, business), payload });
  expect(res.statusCode, res.body).toBe(202);
  const started = res.json().result as TKbImport;
  expect(started.status).toBe('queued');
  await runKbImport(rt.services.knowledge, started.id);
  const done = await call('GET', `/api/kb/imports/${started.id}/`);
  expect(done.status).toBe(200);
  return done.body.result as TKbImport;
}

const articleOf = async (id: number) =>
  (await call('GET', `/api/kb/articles/${id}/`)).body.result as TKbArticle;

describe('importing pages', () => {
  it('imports a sitemap’s pages with their main content, and reports the page that failed', async () => {
    const result = await importAndRun({ sitemap_url: `${base}/sitemap.xml`, status: 'published' });
    expect(result.status).toBe('done');
    expect(result).toMatchObject({ total: 3, processed: 3, imported: 2, failed: 1 });
    const bySource = new Map(result.items.map((i) => [i.source, i]));
    expect(bySource.get(`${base}/gone`)).toMatchObject({
      status: 'failed',
      error: 'The address answered HTTP 404.',
      article_id: null,
    });
    const shipping = bySource.get(`${base}/shipping`)!;
    expect(shipping).toMatchObject({ status: 'imported', title: 'Shipping', error: null });
    const article = await articleOf(shipping.article_id!);
    expect(article).toMatchObject({ title: 'Shipping', status: 'published', source_url: `${base}/shipping` });
    expect(article.body_markdown).toContain('We ship every weekday from our warehouse in Porto.');
    expect(article.body_markdown).toContain('## Costs');
    // Readability kept the article, not the page's chrome.
    expect(article.body_markdown).not.toContain('Careers at Acme');
    expect(article.body_markdown).not.toContain('Cookie settings');
    // Imported articles are searchable at once.
    const hits = (await call('GET', '/api/kb/search/?q=refund%20card')).body.result.results;
    expect(hits.map((h: { title: string }) => h.title)).toContain('Returns and refunds');
  });

  it('rewrites the article of a page imported again, and refuses what the SSRF gate refuses', async () => {
    pages.set('/shipping', {
      type: 'text/html',
      body: page(
        'Shipping',
        '<p>From March we ship from Lisbon, twice a day, with tracking by text message too.</p>',
      ),
    });
    const result = await importAndRun({
      urls: [`${base}/shipping`, 'http://10.20.30.40/internal', `${base}/data.json`],
    });
    expect(result).toMatchObject({ total: 3, imported: 1, failed: 2 });
    const [shipping, inside, json] = result.items;
    expect(shipping).toMatchObject({ status: 'updated' });
    expect(inside).toMatchObject({ status: 'failed', error: MCP_ERRORS.httpsRequired });
    expect(json).toMatchObject({ status: 'failed', error: KB_IMPORT_ERRORS.notHtml });
    const article = await articleOf(shipping!.article_id!);
    expect(article.body_markdown).toContain('we ship from Lisbon');
    expect(article.body_markdown).not.toContain('Porto');
    const list = await call('GET', '/api/kb/articles/?search=shipping');
    expect(list.body.result.count).toBe(1);
  });

  it('fails the import with the reason when the sitemap is not one', async () => {
    const result = await importAndRun({ sitemap_url: `${base}/shipping` });
    expect(result).toMatchObject({ status: 'failed', error: KB_IMPORT_ERRORS.sitemapUnreadable, total: 0 });
  });
});

describe('importing files', () => {
  it('imports Markdown, HTML and PDF files, and reports a file of another kind', async () => {
    const form = new FormData();
    form.append('locale', 'en');
    form.append('status', 'draft');
    form.append(
      'files',
      new Blob(['# Gift cards\n\nGift cards never expire.\n\n## Balance\n\nAsk us for the balance.']),
      'gift-cards.md',
    );
    form.append(
      'files',
      new Blob([page('Care guide', '<p>Dry your umbrella open, away from the sun, before folding it.</p>')]),
      'care.html',
    );
    form.append(
      'files',
      new Blob([
        textPdf(
          [['Warranty terms', 'Every umbrella has a two year warranty.'], ['Claims by email.']],
          'Warranty',
        ),
      ]),
      'warranty.pdf',
    );
    form.append('files', new Blob(['PK\u0003\u0004 not a document']), 'sheet.xlsx');
    const result = await importAndRun(form);
    expect(result).toMatchObject({ status: 'done', total: 4, imported: 3, failed: 1 });
    const [md, html, pdf, xlsx] = result.items;
    expect(md).toMatchObject({
      kind: 'file',
      source: 'gift-cards.md',
      status: 'imported',
      title: 'Gift cards',
    });
    expect(html).toMatchObject({ status: 'imported', title: 'Care guide' });
    expect(pdf).toMatchObject({ status: 'imported', title: 'Warranty' });
    expect(xlsx).toMatchObject({ status: 'failed', error: KB_IMPORT_ERRORS.fileType });
    expect((await articleOf(md!.article_id!)).body_markdown).toBe(
      'Gift cards never expire.\n\n## Balance\n\nAsk us for the balance.',
    );
    expect((await articleOf(html!.article_id!)).body_markdown).toContain('Dry your umbrella open');
    const warranty = await articleOf(pdf!.article_id!);
    expect(warranty.body_markdown).toContain('Every umbrella has a two year warranty.');
    expect(warranty.body_markdown).toContain('## Page 2');
    expect(warranty).toMatchObject({ status: 'draft', source_url: null });
    // The uploads were removed from storage once read.
    const keys = await rt.database.query(
      'select file_key from kb_import_items where import_id = $1 and file_key is not null',
      [result.id],
    );
    expect(keys).toEqual([]);
  });
});

describe('bad input and other businesses', () => {
  it('answers field errors', async () => {
    const nothing = await call('POST', '/api/kb/imports/', {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.result.urls).toEqual([KB_ERRORS.importNothing]);
    const both = await call('POST', '/api/kb/imports/', {
      urls: [`${base}/a`],
      sitemap_url: `${base}/s.xml`,
    });
    expect(both.status).toBe(400);
    expect(both.body.result.sitemap_url).toEqual([KB_ERRORS.importBoth]);
    const bad = await call('POST', '/api/kb/imports/', { urls: ['not a url'] });
    expect(bad.status).toBe(400);
    expect(bad.body.result.urls).toContain(KB_IMPORT_ERRORS.urlInvalid);
    const many = await call('POST', '/api/kb/imports/', {
      urls: Array.from({ length: 51 }, (_, i) => `${base}/p${i}`),
    });
    expect(many.status).toBe(400);
    expect(many.body.result.urls).toEqual([KB_IMPORT_ERRORS.tooManyUrls]);
    const category = await call('POST', '/api/kb/imports/', { urls: [`${base}/a`], category_id: 999999 });
    expect(category.status).toBe(404);
    expect(category.body.result).toEqual({ category_id: [KB_ERRORS.categoryNotFound] });
    const noFiles = new FormData();
    noFiles.append('locale', 'en');
    const empty = await app.inject({
      method: 'POST',
      url: '/api/kb/imports/',
      headers: as(owner, business),
      payload: noFiles,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result.files).toEqual([KB_IMPORT_ERRORS.fileType]);
  });

  it('never shows an import to another business', async () => {
    const mine = (await call('GET', '/api/kb/imports/')).body.result.results as TKbImport[];
    expect(mine.length).toBeGreaterThan(0);
    const theirs = await call('GET', '/api/kb/imports/', undefined, rival, rivalBusiness);
    expect(theirs.body.result.results).toEqual([]);
    const peek = await call('GET', `/api/kb/imports/${mine[0]!.id}/`, undefined, rival, rivalBusiness);
    expect(peek.status).toBe(404);
  });
});
