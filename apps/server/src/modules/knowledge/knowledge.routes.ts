// The knowledge base for staff (/api/kb/…: everyone in the business reads and searches it, writers
// edit it) and the public help centre (/api/public/kb/{business_slug}/…: published articles only).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KB_IMPORT_ERRORS,
  KB_IMPORT_LIMITS,
  ZKbImport,
  ZKbImportFileFields,
  ZKbImportList,
  ZKbImportRequest,
  ZEnvelope,
  ZHelpCentre,
  ZHelpCentreQuery,
  ZKbArticle,
  ZKbArticleListQuery,
  ZKbArticlePage,
  ZKbArticleRequest,
  ZKbArticleUpdate,
  ZKbCategory,
  ZKbCategoryRequest,
  ZKbCategoryUpdate,
  ZKbFeedbackRequest,
  ZKbSearchQuery,
  ZKbSearchResult,
  ZNoQuery,
  ZPublicKbArticle,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { businessOf, userIdOf } from '../../platform/request-context';
import { readParts } from '../files';
import * as kb from './knowledge.service';
import * as hc from './help-centre.service';
import * as imports from './imports.service';
import { requestEmbeddings, searchKnowledge } from './embeddings.service';
import type { KnowledgeDeps } from './knowledge.deps';

const tags = ['knowledge'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const ZId = z.object({ id: z.coerce.number().int().positive() });
const ZSlugParams = z.object({ business_slug: z.string().min(1).max(64) });
const ZSlugArticle = ZSlugParams.extend({ id: z.coerce.number().int().positive() });
const publicLimit = { public: true, rateLimit: { max: 120, timeWindow: '1 minute' } } as const;

/** Zod issues as field errors (first path segment → messages). */
function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues)
    (errors[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
  return errors;
}

export const knowledgeRoutes: FastifyPluginAsyncZod<{ deps: KnowledgeDeps }> = async (app, { deps }) => {
  const { db } = deps;
  await app.register(multipart, {
    limits: {
      fileSize: KB_IMPORT_LIMITS.fileBytesMax + 1,
      files: KB_IMPORT_LIMITS.filesMax + 1,
      fields: 10,
      fieldSize: 1000,
    },
    throwFileSizeLimit: false,
  });
  const biz = (request: Parameters<typeof businessOf>[0]) => businessOf(request).id;
  const author = (request: Parameters<typeof userIdOf>[0]) => ({ userId: userIdOf(request) });

  app.get(
    '/api/kb/categories/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The categories',
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(z.array(ZKbCategory)) },
      },
    },
    async (request) => ok(await kb.listCategories(db, biz(request))),
  );
  app.post(
    '/api/kb/categories/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a category',
        body: ZKbCategoryRequest,
        response: { 201: ZEnvelope(ZKbCategory) },
      },
    },
    async (request, reply) => created(reply, await kb.createCategory(db, biz(request), request.body)),
  );
  app.put(
    '/api/kb/categories/:id/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename or move a category',
        params: ZId,
        body: ZKbCategoryUpdate,
        response: { 200: ZEnvelope(ZKbCategory) },
      },
    },
    async (request) => ok(await kb.updateCategory(db, biz(request), request.params.id, request.body)),
  );
  app.delete(
    '/api/kb/categories/:id/',
    {
      config: write,
      schema: { tags, summary: 'Delete a category (its articles stay, uncategorised)', params: ZId },
    },
    async (request, reply) => {
      await kb.deleteCategory(db, biz(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/kb/articles/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The articles, newest change first',
        querystring: ZKbArticleListQuery,
        response: { 200: ZEnvelope(ZKbArticlePage) },
      },
    },
    async (request) => ok(await kb.listArticles(db, biz(request), request.query)),
  );
  app.post(
    '/api/kb/articles/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Write an article',
        body: ZKbArticleRequest,
        response: { 201: ZEnvelope(ZKbArticle) },
      },
    },
    async (request, reply) => {
      const article = await kb.createArticle(db, biz(request), request.body, author(request));
      await requestEmbeddings(deps, biz(request));
      return created(reply, article);
    },
  );
  app.get(
    '/api/kb/articles/:id/',
    {
      config: read,
      schema: { tags, summary: 'One article', params: ZId, response: { 200: ZEnvelope(ZKbArticle) } },
    },
    async (request) => ok(await kb.getArticle(db, biz(request), request.params.id)),
  );
  app.put(
    '/api/kb/articles/:id/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Edit, publish or unpublish an article',
        params: ZId,
        body: ZKbArticleUpdate,
        response: { 200: ZEnvelope(ZKbArticle) },
      },
    },
    async (request) => {
      const article = await kb.updateArticle(
        db,
        biz(request),
        request.params.id,
        request.body,
        author(request),
      );
      await requestEmbeddings(deps, biz(request));
      return ok(article);
    },
  );
  app.delete(
    '/api/kb/articles/:id/',
    { config: write, schema: { tags, summary: 'Delete an article', params: ZId } },
    async (request, reply) => {
      await kb.deleteArticle(db, biz(request), request.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    '/api/kb/search/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Search every article, drafts included (hybrid full text + embeddings when an embedding model is set, else full text)',
        querystring: ZKbSearchQuery,
        response: { 200: ZEnvelope(ZKbSearchResult) },
      },
    },
    async (request) =>
      ok({
        results: (await searchKnowledge(deps, biz(request), request.query, { publishedOnly: false })).hits,
      }),
  );

  // ----- Imports -----
  app.post(
    '/api/kb/imports/',
    {
      config: {
        ...write,
        rateLimit: { max: 20, timeWindow: '1 minute' },
        openapi: {
          body: {
            'application/json': ZKbImportRequest,
            'multipart/form-data': ZKbImportFileFields.extend({ files: z.array(z.file()) }),
          },
          errors: [404, 413],
        },
      },
      bodyLimit: (KB_IMPORT_LIMITS.filesMax + 1) * KB_IMPORT_LIMITS.fileBytesMax,
      schema: {
        tags,
        summary:
          'Import pages ({urls} or {sitemap_url}) or files (multipart: files — Markdown, HTML, PDF; locale, category_id, status); runs in the background',
        consumes: ['application/json', 'multipart/form-data'],
        response: { 202: ZEnvelope(ZKbImport) },
      },
    },
    async (request, reply) => {
      const businessId = biz(request);
      let result;
      if (request.isMultipart()) {
        const files: imports.UploadedFile[] = [];
        let tooLarge = false;
        let tooMany = false;
        const { fields } = await readParts(
          request.parts(),
          async (part) => {
            const bytes = await part.toBuffer();
            if (part.file.truncated || bytes.length > KB_IMPORT_LIMITS.fileBytesMax) tooLarge = true;
            else if (files.length >= KB_IMPORT_LIMITS.filesMax) tooMany = true;
            else files.push({ fileName: part.filename, bytes });
            return null;
          },
          { fieldName: 'files', many: true },
        );
        if (tooLarge)
          throw new AppError('payload_too_large', KB_IMPORT_ERRORS.fileTooLarge, {
            files: [KB_IMPORT_ERRORS.fileTooLarge],
          });
        if (tooMany) throw AppError.fields({ files: [KB_IMPORT_ERRORS.tooManyFiles] });
        const parsed = ZKbImportFileFields.safeParse(fields);
        if (!parsed.success) throw AppError.fields(fieldErrors(parsed.error.issues));
        if (files.length === 0) throw AppError.fields({ files: [KB_IMPORT_ERRORS.fileType] });
        result = await imports.createFileImport(deps, businessId, userIdOf(request), parsed.data, files);
      } else {
        const parsed = ZKbImportRequest.safeParse(request.body ?? {});
        if (!parsed.success) throw AppError.fields(fieldErrors(parsed.error.issues));
        result = await imports.createUrlImport(deps, businessId, userIdOf(request), parsed.data);
      }
      reply.code(202);
      return { status: 202, message: 'Accepted', result };
    },
  );
  app.get(
    '/api/kb/imports/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The latest imports and their progress',
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(ZKbImportList) },
      },
    },
    async (request) => ok({ results: await imports.listImports(db, biz(request)) }),
  );
  app.get(
    '/api/kb/imports/:id/',
    {
      config: read,
      schema: {
        tags,
        summary: "An import's progress, with each page's or file's outcome",
        params: ZId,
        response: { 200: ZEnvelope(ZKbImport) },
      },
    },
    async (request) => ok(await imports.findImport(db, biz(request), request.params.id)),
  );

  // ----- The public help centre -----
  app.get(
    '/api/public/kb/:business_slug/',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: "A business's help centre: its categories and published articles",
        params: ZSlugParams,
        querystring: ZHelpCentreQuery,
        response: { 200: ZEnvelope(ZHelpCentre) },
      },
    },
    async (request) => ok(await hc.helpCentre(db, request.params.business_slug, request.query.locale)),
  );
  app.get(
    '/api/public/kb/:business_slug/search/',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'Search the published articles',
        params: ZSlugParams,
        querystring: ZKbSearchQuery,
        response: { 200: ZEnvelope(ZKbSearchResult) },
      },
    },
    async (request) =>
      ok({ results: await hc.searchHelpCentre(deps, request.params.business_slug, request.query) }),
  );
  app.get(
    '/api/public/kb/:business_slug/articles/:id/',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'One published article',
        params: ZSlugArticle,
        response: { 200: ZEnvelope(ZPublicKbArticle) },
      },
    },
    async (request) => ok(await hc.publicArticle(db, request.params.business_slug, request.params.id)),
  );
  app.post(
    '/api/public/kb/:business_slug/articles/:id/feedback/',
    {
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Whether a published article helped',
        params: ZSlugArticle,
        body: ZKbFeedbackRequest,
      },
    },
    async (request, reply) => {
      await hc.articleFeedback(db, request.params.business_slug, request.params.id, request.body.helpful);
      return reply.code(204).send();
    },
  );
};
