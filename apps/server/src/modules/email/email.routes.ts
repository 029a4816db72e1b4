// Sending mail (`/api/agents/send-mail/`, API keys allowed: engage.send) and the public
// unsubscribe API the mail's List-Unsubscribe header and the /engage/unsubscribe page call.
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZEmailBatch,
  ZEmailBatchParams,
  ZEmailSend,
  ZEnvelope,
  ZIdParams,
  ZResubscribeRequest,
  ZSendMailRequest,
  ZSendMailResult,
  ZTemplateTestRequest,
  ZPreferences,
  ZPublicTokenParams,
  ZUnsubscribeBody,
  ZUpdatePreferencesRequest,
  ZUnsubscribeQuery,
  ZUnsubscribeState,
  type TEmailSend,
} from '@titan/contracts';
import { acceptFormBodies, ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import type { SendRow } from '../sends';
import { batchProgress, sendBatch } from './email.batches';
import { loadCompiledTemplate } from './email-templates';
import { AppError } from '../../platform/errors';
import { progressOf, sendToList } from './email.broadcast';
import type { BroadcastDeps } from '../broadcasts';
import { sendEmail, type EmailDeps } from './email.service';
import {
  preferencesOf,
  resubscribe,
  setPreferences,
  unsubscribe,
  unsubscribeState,
} from './email.unsubscribe';

const tags = ['email'];

export function toEmailSend(row: SendRow): TEmailSend {
  return {
    id: row.id,
    tracking_id: row.id,
    status: row.status,
    recipient: row.recipient,
    customer_id: row.customerId,
    subject: row.subject,
    template_id: row.templateId,
    provider_message_id: row.providerMessageId,
    error_code: row.errorCode,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
  };
}

const UNSUBSCRIBE_PATHS = ['/api/email/unsubscribe/', '/api/agents/unsubscribe/'] as const;

/** RFC 8058 one-click bodies are small forms; nothing else is read from them. */
const FORM_LIMIT = 4096;

export const emailRoutes: FastifyPluginAsyncZod<{ deps: EmailDeps; broadcasts: BroadcastDeps }> = async (
  app,
  { deps, broadcasts },
) => {
  app.post(
    '/api/agents/send-mail/',
    {
      config: { business: true, permission: 'engage.send', openapi: { errors: [402, 404, 409] } },
      schema: {
        tags,
        summary:
          'Send one mail (customer_id or email; template_id with variables, or subject with html/text), or a bulk send (recipients) answered with a batch',
        body: ZSendMailRequest,
        response: { 202: ZEnvelope(ZSendMailResult) },
      },
    },
    async (request, reply) => {
      const business = businessOf(request);
      const body = request.body;
      const content = {
        businessId: business.id,
        from: body.from,
        template: body.template_id ? { id: body.template_id, variables: body.variables } : undefined,
        subject: body.subject,
        html: body.html,
        text: body.text,
        createdBy: actorIdOf(request),
      };
      reply.code(202);
      if (body.list_id !== undefined) {
        const batch = await sendToList(deps, broadcasts, {
          businessId: business.id,
          listId: body.list_id,
          request: {
            from: body.from ?? '',
            ...(body.template_id ? { template_id: body.template_id, variables: body.variables } : {}),
            ...(body.subject !== undefined ? { subject: body.subject } : {}),
            ...(body.html !== undefined ? { html: body.html } : {}),
            ...(body.text !== undefined ? { text: body.text } : {}),
            ...(body.consent !== undefined ? { consent: body.consent } : {}),
          },
          createdBy: content.createdBy ?? null,
        });
        return { status: 202, message: 'Accepted', result: batch };
      }
      if (body.recipients) {
        const batch = await sendBatch(deps, {
          ...content,
          recipients: body.recipients.map((r) => ({
            customerId: r.customer_id,
            address: r.email,
            variables: r.variables,
          })),
        });
        return { status: 202, message: 'Accepted', result: batch };
      }
      const send = await sendEmail(deps, {
        ...content,
        to: { customerId: body.customer_id, address: body.email },
        cause: 'agent',
        idempotencyKey: body.idempotency_key ?? null,
      });
      return { status: 202, message: 'Accepted', result: toEmailSend(send) };
    },
  );

  app.get(
    '/api/agents/send-mail/:batch_id/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: {
        tags,
        summary: 'How far a bulk send got',
        params: ZEmailBatchParams,
        response: { 200: ZEnvelope(ZEmailBatch) },
      },
    },
    async (request) => {
      const businessId = businessOf(request).id;
      const id = request.params.batch_id;
      return ok(await progressOf(deps, businessId, id, () => batchProgress(deps, businessId, id)));
    },
  );

  // The templates screen's test send: the saved template, rendered as the preview renders it.
  app.post(
    '/api/template/:id/test/',
    {
      config: {
        business: true,
        permission: 'engage.send',
        rateLimit: { max: 30, timeWindow: '1 minute' },
        openapi: { errors: [402, 404, 409] },
      },
      schema: {
        tags: ['email templates'],
        summary: 'Send one test mail of a template',
        params: ZIdParams,
        body: ZTemplateTestRequest,
        response: { 202: ZEnvelope(ZEmailSend) },
      },
    },
    async (request, reply) => {
      const business = businessOf(request);
      if (!(await loadCompiledTemplate(deps.db, business.id, request.params.id))) throw AppError.notFound();
      const send = await sendEmail(deps, {
        businessId: business.id,
        from: request.body.from,
        to: { address: request.body.to },
        template: { id: request.params.id, variables: request.body.variables },
        cause: 'test',
        createdBy: actorIdOf(request),
      });
      reply.code(202);
      return { status: 202, message: 'Accepted', result: toEmailSend(send) };
    },
  );

  // ---- Public: the unsubscribe token is the only credential ----

  // `/api/agents/unsubscribe/` (the spec's path for agent mail) answers the same as the email one.
  for (const path of UNSUBSCRIBE_PATHS) {
    app.get(
      path,
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Who a mail went to and whether they are unsubscribed (token from the mail)',
          querystring: ZUnsubscribeQuery,
          response: { 200: ZEnvelope(ZUnsubscribeState) },
        },
      },
      async (request) => ok(await unsubscribeState(deps, request.query.token)),
    );
  }

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` as a form; only here.
    acceptFormBodies(scope, FORM_LIMIT);
    // RFC 8058 §3.1 allows the same field as multipart/form-data: only that field is read.
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => {
        const oneClick = /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\n\s*One-Click\s*\r?\n/i.test(
          body as string,
        );
        done(null, oneClick ? { 'List-Unsubscribe': 'One-Click' } : {});
      },
    );
    for (const path of UNSUBSCRIBE_PATHS) {
      scope.post(
        path,
        {
          config: { public: true },
          bodyLimit: FORM_LIMIT,
          schema: {
            tags,
            summary:
              'Unsubscribe (RFC 8058 one-click: form body List-Unsubscribe=One-Click with ?token=, or JSON {token})',
            querystring: ZUnsubscribeQuery,
            body: ZUnsubscribeBody,
            response: { 200: ZEnvelope(ZUnsubscribeState) },
          },
        },
        async (request) => {
          const body = request.body ?? {};
          const token = body.token ?? request.query.token;
          const via = body['List-Unsubscribe'] === 'One-Click' ? 'one-click' : 'page';
          return ok(await unsubscribe(deps, token, via, request.query.topic));
        },
      );
    }
  });

  // The preference centre (the page /p/{token}): the token is the mail's unsubscribe token.
  app.get(
    '/api/public/preferences/:token/',
    {
      config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' }, openapi: { errors: [429] } },
      schema: {
        tags,
        summary: 'The preference centre of the person a mail went to (token from the mail)',
        params: ZPublicTokenParams,
        response: { 200: ZEnvelope(ZPreferences) },
      },
    },
    async (request) => ok(await preferencesOf(deps, request.params.token)),
  );
  app.put(
    '/api/public/preferences/:token/',
    {
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' }, openapi: { errors: [429] } },
      schema: {
        tags,
        summary: 'Keep these topics, or leave all of the business’s mail',
        params: ZPublicTokenParams,
        body: ZUpdatePreferencesRequest,
        response: { 200: ZEnvelope(ZPreferences) },
      },
    },
    async (request) => ok(await setPreferences(deps, request.params.token, request.body)),
  );

  app.post(
    '/api/email/resubscribe/',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Undo an unsubscribe (token from the mail)',
        body: ZResubscribeRequest,
        response: { 200: ZEnvelope(ZUnsubscribeState) },
      },
    },
    async (request) => ok(await resubscribe(deps, request.body.token)),
  );
};
