// QR visitor forms: the staff's schema and QR code (/api/business/qr-schema/) and the visitor's
// public form (/api/public/qr-forms/{business_code}/{slug}/), engage.md §3.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEnvelope,
  ZPublicQrForm,
  ZQrCodeQuery,
  ZQrConfirmRequest,
  ZQrConfirmResult,
  ZQrFormParams,
  ZQrSchema,
  ZQrSubmission,
  ZSaveQrSchemaRequest,
} from '@titan/contracts';
import { created, ok } from '../../platform/http';
import { businessOf } from '../../platform/request-context';
import * as qr from './qr-forms.service';
import { confirmSubscription } from './qr-forms.confirm';

const tags = ['qr forms'];
const read = { business: true, permission: 'engage.read' } as const;
const write = { business: true, permission: 'engage.write' } as const;
const base = qr.QR_SCHEMA_PATH;
const publicPath = '/api/public/qr-forms/:business_code/:slug/';

const business = (request: Parameters<typeof businessOf>[0]) => {
  const { id, uniqueCode } = businessOf(request);
  return { id, uniqueCode };
};

export const qrFormRoutes: FastifyPluginAsyncZod<{ deps: qr.QrFormDeps }> = async (app, { deps }) => {
  app.get(
    base,
    { config: read, schema: { tags, response: { 200: ZEnvelope(ZQrSchema) } } },
    async (request) => ok(await qr.findSchema(deps, business(request))),
  );
  app.put(
    base,
    { config: write, schema: { tags, body: ZSaveQrSchemaRequest, response: { 200: ZEnvelope(ZQrSchema) } } },
    async (request) => ok(await qr.saveSchema(deps, business(request), request.body)),
  );

  const image = (format: 'svg' | 'png') =>
    app.get(
      `${base}qr.${format}`,
      {
        config: {
          ...read,
          openapi: {
            answers: {
              200: { description: 'The QR code', content: format === 'svg' ? 'image/svg+xml' : 'image/png' },
            },
          },
        },
        schema: {
          tags,
          summary: `The QR code that opens the saved form, as ${format.toUpperCase()}`,
          ...(format === 'png' ? { querystring: ZQrCodeQuery } : {}),
        },
      },
      async (request, reply) => {
        const size = format === 'png' ? (request.query as z.output<typeof ZQrCodeQuery>).size : undefined;
        const found = await qr.qrCode(deps, business(request), format, size);
        return reply
          .header('content-type', found.contentType)
          .header('content-disposition', `inline; filename="${found.fileName}"`)
          .header('cache-control', 'private, no-cache')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .send(found.bytes);
      },
    );
  image('svg');
  image('png');

  app.post(
    '/api/public/qr-forms/confirm/',
    {
      config: {
        public: true,
        rateLimit: { max: 30, timeWindow: '1 minute' },
        openapi: { errors: [404, 429] },
      },
      schema: {
        tags,
        summary: 'Confirm a subscription asked for on the form (the link of the confirmation mail)',
        body: ZQrConfirmRequest,
        response: { 200: ZEnvelope(ZQrConfirmResult) },
      },
    },
    async (request) => ok(await confirmSubscription(deps, request.body.token, { ip: request.ip })),
  );
  app.get(
    publicPath,
    {
      config: { public: true, rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: { tags, params: ZQrFormParams, response: { 200: ZEnvelope(ZPublicQrForm) } },
    },
    async (request) => ok(await qr.publicForm(deps, request.params.business_code, request.params.slug)),
  );
  app.post(
    publicPath,
    {
      config: { public: true },
      schema: { tags, params: ZQrFormParams, body: ZQrSubmission, response: { 201: ZEnvelope(z.null()) } },
    },
    async (request, reply) => {
      await qr.submitForm(deps, request.params.business_code, request.params.slug, request.body, {
        ip: request.ip,
      });
      return created(reply, null);
    },
  );
};
