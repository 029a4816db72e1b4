// Email templates (engage.md §2): /api/template/ and its versions, previews and images, the
// business's brand for mail and its saved blocks (issue 31), and the public URLs of template images
// that mail links to.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EMAIL_TEMPLATE_ERRORS as M,
  TEMPLATE_IMAGE_LIMIT_BYTES,
  ZCreateEmailTemplateRequest,
  ZEmailTemplate,
  ZEmailTemplateDraftPreviewRequest,
  ZEmailTemplatePreview,
  ZEmailTemplatePreviewRequest,
  ZEmailTemplateSummary,
  ZEmailTemplateVersion,
  ZEnvelope,
  ZIdParams,
  ZTemplateImage,
  ZUpdateEmailTemplateRequest,
  ZNoQuery,
  ZEmailBrand,
  ZUpdateEmailBrandRequest,
  ZEmailBlock,
  ZCreateEmailBlockRequest,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { created, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { scopeOf } from '../../platform/inbox-scope';
import { readUpload, registerMultipart } from '../files';
import * as brand from './templates.brand.service';
import * as templates from './templates.service';

const tags = ['email templates'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;

/** Previews compile MJML for drafts: bounded per client, well above a debounced editor's pace. */
const previewConfig = { ...read, rateLimit: { max: 240, timeWindow: '1 minute' } } as const;

/** Images never change once stored (their key holds a uuid): mail clients and proxies may keep them. */
const IMAGE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const ZImageFields = z.object({
  template_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, { message: 'Enter a valid template id.' })
    .transform(Number)
    .optional(),
});

export const templateRoutes: FastifyPluginAsyncZod<{ deps: templates.TemplatesDeps }> = async (
  app,
  { deps },
) => {
  const { db } = deps;
  await registerMultipart(app);

  app.get(
    '/api/template/',
    {
      config: read,
      schema: { querystring: ZNoQuery, tags, response: { 200: ZEnvelope(z.array(ZEmailTemplateSummary)) } },
    },
    async (request) => ok(await templates.findTemplates(db, businessOf(request).id)),
  );
  app.post(
    '/api/template/',
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: { tags, body: ZCreateEmailTemplateRequest, response: { 201: ZEnvelope(ZEmailTemplate) } },
    },
    async (request, reply) =>
      created(
        reply,
        await templates.createTemplate(
          db,
          businessOf(request).id,
          actorIdOf(request),
          request.body,
          request.id,
        ),
      ),
  );
  // Static segments, so they win over :id.
  app.post(
    '/api/template/preview/',
    {
      config: previewConfig,
      schema: {
        tags,
        summary: 'Preview a template that is not saved yet (draft)',
        body: ZEmailTemplateDraftPreviewRequest,
        response: { 200: ZEnvelope(ZEmailTemplatePreview) },
      },
    },
    async (request) =>
      ok(await templates.previewTemplate(db, await scopeOf(db, request), null, request.body)),
  );
  app.post(
    '/api/template/template-images/',
    {
      config: {
        ...write,
        rateLimit: { max: 60, timeWindow: '1 minute' },
        openapi: {
          body: { 'multipart/form-data': ZImageFields.extend({ file: z.file() }) },
          errors: [404, 413],
        },
      },
      bodyLimit: TEMPLATE_IMAGE_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload an image for email (multipart: file, template_id?) → its public URL',
        consumes: ['multipart/form-data'],
        response: { 201: ZEnvelope(ZTemplateImage) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw AppError.fields({ file: [M.multipartOnly] });
      const { fields, file } = await readUpload(
        request.parts({ limits: { fileSize: TEMPLATE_IMAGE_LIMIT_BYTES + 1, files: 1 } }),
      );
      const parsed = ZImageFields.safeParse(fields);
      if (!parsed.success) {
        throw AppError.fields({ template_id: parsed.error.issues.map((i) => i.message) });
      }
      if (!file) throw AppError.fields({ file: [M.noFile] });
      return created(
        reply,
        await templates.uploadTemplateImage(
          deps,
          businessOf(request).id,
          parsed.data.template_id ?? null,
          file,
        ),
      );
    },
  );
  app.get(
    '/api/template/brand/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'The business’s brand for mail (the defaults until first saved)',
        response: { 200: ZEnvelope(ZEmailBrand) },
      },
    },
    async (request) => ok(await brand.findBrand(db, businessOf(request).id)),
  );
  app.put(
    '/api/template/brand/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Save the brand: logo, colours, font and footer address',
        body: ZUpdateEmailBrandRequest,
        response: { 200: ZEnvelope(ZEmailBrand) },
      },
    },
    async (request) => ok(await brand.saveBrand(db, businessOf(request).id, request.body)),
  );
  app.get(
    '/api/template/blocks/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'Blocks saved from the visual editor (MJML fragments), by name',
        response: { 200: ZEnvelope(z.array(ZEmailBlock)) },
      },
    },
    async (request) => ok(await brand.findBlocks(db, businessOf(request).id)),
  );
  app.post(
    '/api/template/blocks/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Save a block (an MJML fragment) for every template of the business',
        body: ZCreateEmailBlockRequest,
        response: { 201: ZEnvelope(ZEmailBlock) },
      },
    },
    async (request, reply) =>
      created(reply, await brand.createBlock(db, businessOf(request).id, actorIdOf(request), request.body)),
  );
  app.delete(
    '/api/template/blocks/:id/',
    {
      config: { ...write, openapi: { answers: { 204: { description: 'Deleted' } } } },
      schema: { tags, summary: 'Delete a saved block', params: ZIdParams },
    },
    async (request, reply) => {
      await brand.deleteBlock(db, businessOf(request).id, request.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    '/api/template/:id/',
    { config: read, schema: { tags, params: ZIdParams, response: { 200: ZEnvelope(ZEmailTemplate) } } },
    async (request) => ok(await templates.findTemplate(db, businessOf(request).id, request.params.id)),
  );
  app.put(
    '/api/template/:id/',
    {
      config: { ...write, openapi: { errors: [409] } },
      schema: {
        tags,
        summary: 'Save a template (a new version), or restore one: {restore_version}',
        params: ZIdParams,
        body: ZUpdateEmailTemplateRequest,
        response: { 200: ZEnvelope(ZEmailTemplate) },
      },
    },
    async (request) =>
      ok(
        await templates.updateTemplate(
          db,
          businessOf(request).id,
          actorIdOf(request),
          request.params.id,
          request.body,
        ),
      ),
  );
  app.delete(
    '/api/template/:id/',
    {
      config: { ...write, openapi: { answers: { 204: { description: 'Deleted' } } } },
      schema: { tags, summary: 'Delete a template', params: ZIdParams },
    },
    async (request, reply) => {
      await templates.deleteTemplate(db, businessOf(request).id, request.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    '/api/template/:id/versions/',
    {
      config: read,
      schema: {
        querystring: ZNoQuery,
        tags,
        summary: 'Saved versions, newest first',
        params: ZIdParams,
        response: { 200: ZEnvelope(z.array(ZEmailTemplateVersion)) },
      },
    },
    async (request) => ok(await templates.findVersions(db, businessOf(request).id, request.params.id)),
  );
  app.post(
    '/api/template/:id/preview/',
    {
      config: previewConfig,
      schema: {
        tags,
        summary: 'Render with a customer or variables (of the saved template, or of a draft)',
        params: ZIdParams,
        body: ZEmailTemplatePreviewRequest,
        response: { 200: ZEnvelope(ZEmailTemplatePreview) },
      },
    },
    async (request) =>
      ok(await templates.previewTemplate(db, await scopeOf(db, request), request.params.id, request.body)),
  );

  // The public URL of a template image, as mail links to it: no credentials (mail clients and
  // their image proxies fetch it), only keys under public/template_images/ with a stored image.
  app.get(
    `/${templates.TEMPLATE_IMAGES_FOLDER}/*`,
    {
      config: {
        public: true,
        openapi: {
          wildcard: 'key',
          answers: { 200: { description: 'The image’s bytes', content: 'application/octet-stream' } },
        },
      },
      schema: { tags, summary: 'A template image (public, for mail)' },
    },
    async (request, reply) => {
      // The router decoded the path once: keys are made of [\w./-] only, so that is the key.
      const key = `${templates.TEMPLATE_IMAGES_FOLDER}/${(request.params as { '*': string })['*']}`;
      const image = await templates.findTemplateImage(deps, key);
      if (!image) throw AppError.notFound(M.imageNotFound);
      return reply
        .header('content-type', image.mimeType)
        .header('content-length', String(image.bytes.length))
        .header('cache-control', `public, max-age=${IMAGE_MAX_AGE_SECONDS}, immutable`)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(image.bytes);
    },
  );
};
