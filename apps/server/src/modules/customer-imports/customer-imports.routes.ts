// CSV imports: POST /api/business/customer-directory/import/ (multipart) → 202 with the import;
// GET …/imports/{id}/ its progress; GET …/imports/{id}/errors/ the refused rows as CSV.
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IMPORT_FILE_LIMIT_BYTES,
  IMPORT_ERRORS,
  ZCustomerImport,
  ZEnvelope,
  ZFilePart,
  ZImportFields,
  ZImportParams,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { readParts } from '../files';
import * as imports from './customer-imports.service';

const tags = ['visitor directory'];
const write = { business: true, permission: 'engage.write' } as const;
const read = { business: true, permission: 'engage.read' } as const;
/**
 * The refused rows are the uploaded file's own lines, people who may be nobody's customer yet, so
 * no agent's scope can hold them: like the directory's CSV export, owners and admins only.
 */
const errorsRead = write;

export const customerImportRoutes: FastifyPluginAsyncZod<{ deps: imports.ImportDeps }> = async (
  app,
  { deps },
) => {
  await app.register(multipart, {
    limits: { fileSize: IMPORT_FILE_LIMIT_BYTES + 1, files: 1, fields: 10, fieldSize: 10_000 },
    throwFileSizeLimit: false,
  });
  app.post(
    '/api/business/customer-directory/import/',
    {
      config: {
        ...write,
        rateLimit: { max: 30, timeWindow: '1 minute' },
        openapi: {
          body: { 'multipart/form-data': ZFilePart.extend(ZImportFields.shape) },
          errors: [404, 413],
        },
      },
      bodyLimit: IMPORT_FILE_LIMIT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary:
          'Import customers from a CSV file (multipart: file, mode, list_id, encoding, delimiter, column_map, consent, consent_proof, consent_channels, double_opt_in)',
        consumes: ['multipart/form-data'],
        response: { 202: ZEnvelope(ZCustomerImport) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw AppError.fields({ file: ['Send the file as multipart/form-data.'] });
      const business = businessOf(request);
      // The file streams into storage as it arrives, checked on the way; whatever refuses the
      // upload after that removes it again: a refused file is not kept.
      let stored: imports.StoredUpload | null = null;
      try {
        const { fields, file } = await readParts(
          request.parts(),
          async (part, before) =>
            (stored = await imports.storeUpload(deps, {
              businessId: business.id,
              fileName: part.filename,
              stream: part.file,
              encoding: before.encoding,
            })),
        );
        const parsed = ZImportFields.safeParse(fields);
        const errors: Record<string, string[]> = {};
        if (!parsed.success)
          for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
        if (!file) errors.file = [IMPORT_ERRORS.noFile];
        if (!parsed.success || !file || Object.keys(errors).length) throw AppError.fields(errors);
        if (file.file.size > IMPORT_FILE_LIMIT_BYTES)
          throw new AppError('payload_too_large', IMPORT_ERRORS.tooLarge, {
            file: [IMPORT_ERRORS.tooLarge],
          });
        const created = await imports.createImport(deps, {
          businessId: business.id,
          createdBy: actorIdOf(request),
          upload: file,
          fields: parsed.data,
        });
        reply.code(202);
        return { status: 202, message: 'Accepted', result: created };
      } catch (err) {
        const refused = stored as imports.StoredUpload | null;
        if (refused)
          await deps.storage
            .delete(refused.key)
            .catch((cause: unknown) =>
              request.log.error({ err: cause, key: refused.key }, 'a refused import file stayed stored'),
            );
        throw err;
      }
    },
  );
  app.get(
    '/api/business/customer-directory/imports/:id/',
    { config: read, schema: { tags, params: ZImportParams, response: { 200: ZEnvelope(ZCustomerImport) } } },
    async (request) => ok(await imports.findImport(deps.db, businessOf(request).id, request.params.id)),
  );
  app.get(
    '/api/business/customer-directory/imports/:id/errors/',
    {
      config: { ...errorsRead, openapi: { answers: { 200: { description: 'CSV', content: 'text/csv' } } } },
      schema: { tags, summary: 'The refused and skipped rows as CSV', params: ZImportParams },
    },
    async (request, reply) => {
      const business = businessOf(request);
      // Found (or 404) before the stream starts.
      await imports.findImport(deps.db, business.id, request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${request.params.id}-errors.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(imports.exportErrors(deps.db, business.id, request.params.id)));
    },
  );
};
