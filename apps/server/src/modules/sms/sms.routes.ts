// The SMS channel's routes: the Twilio account (Settings → SMS) and its test text, sending
// (`/api/agents/send-sms/`, API keys allowed: engage.send), inbound texts, and Twilio's webhooks.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SMS_TEST_BODY,
  ZEmailBatch,
  ZEmailBatchParams,
  ZEnvelope,
  ZPage,
  ZSaveSmsAccountRequest,
  ZSendSmsRequest,
  ZSendSmsResult,
  ZTwilioInboundMessage,
  ZTwilioStatusCallback,
  ZSmsAccount,
  ZSmsInbound,
  ZSmsInboundQuery,
  ZSmsSend,
  ZSmsTestRequest,
  type TSmsSend,
} from '@titan/contracts';
import { ok } from '../../platform/http';
import { headerOf, providerWebhook } from '../../platform/provider-webhook';
import { actorIdOf, businessOf } from '../../platform/request-context';
import type { BroadcastDeps } from '../broadcasts';
import { scopeOf } from '../../platform/inbox-scope';
import type { SendRow } from '../sends';
import { findAccount, saveAccount, type SmsDeps } from './sms.account';
import { sendSmsToList, smsBatchProgress } from './sms.broadcast';
import { findInbound } from './sms.inbound';
import { sendSms } from './sms.service';
import { acceptInbound, acceptStatusCallback, EMPTY_TWIML, verifyTwilioRequest } from './sms.webhook';

const tags = ['sms'];
const manage = { business: true, permission: 'business.update' } as const;

export function toSmsSend(row: SendRow): TSmsSend {
  const request = row.providerRequest as { Body?: string };
  const cost = row.cost ?? {};
  return {
    id: row.id,
    tracking_id: row.id,
    status: row.status,
    recipient: row.recipient,
    customer_id: row.customerId,
    body: request.Body ?? '',
    segments: typeof cost.segments === 'number' ? cost.segments : 1,
    encoding: cost.encoding === 'UCS-2' ? 'UCS-2' : 'GSM-7',
    template_id: row.templateId,
    provider_message_id: row.providerMessageId,
    error_code: row.errorCode,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
  };
}

/** Twilio's webhooks are small forms (a 1,600-character body, some media URLs). */
const FORM_LIMIT = 64 * 1024;

export const smsRoutes: FastifyPluginAsyncZod<{ deps: SmsDeps; broadcasts: BroadcastDeps }> = async (
  app,
  { deps, broadcasts },
) => {
  app.get(
    '/api/sms/account/',
    { config: manage, schema: { tags, response: { 200: ZEnvelope(ZSmsAccount) } } },
    async (request) => ok(await findAccount(deps, businessOf(request).id)),
  );
  app.put(
    '/api/sms/account/',
    {
      config: { ...manage, openapi: { errors: [409, 502] } },
      schema: {
        tags,
        summary: 'Connect the Twilio account (checked with Twilio first; the Auth Token is write-only)',
        body: ZSaveSmsAccountRequest,
        response: { 200: ZEnvelope(ZSmsAccount) },
      },
    },
    async (request) => ok(await saveAccount(deps, businessOf(request).id, request.body)),
  );
  app.post(
    '/api/sms/account/test/',
    {
      config: {
        business: true,
        permission: 'engage.send',
        rateLimit: { max: 30, timeWindow: '1 minute' },
        openapi: { errors: [402, 409] },
      },
      schema: {
        tags,
        summary: 'Send one test text from the connected account',
        body: ZSmsTestRequest,
        response: { 202: ZEnvelope(ZSmsSend) },
      },
    },
    async (request, reply) => {
      const send = await sendSms(deps, {
        businessId: businessOf(request).id,
        to: { number: request.body.to },
        body: request.body.body ?? SMS_TEST_BODY,
        cause: 'test',
        createdBy: actorIdOf(request),
      });
      reply.code(202);
      return { status: 202, message: 'Accepted', result: toSmsSend(send) };
    },
  );

  app.post(
    '/api/agents/send-sms/',
    {
      config: { business: true, permission: 'engage.send', openapi: { errors: [402, 409] } },
      schema: {
        tags,
        summary:
          'Send one text (customer_id or to; body, or template_id with variables), or a bulk send to a list (list_id) answered with a batch',
        body: ZSendSmsRequest,
        response: { 202: ZEnvelope(ZSendSmsResult) },
      },
    },
    async (request, reply) => {
      const businessId = businessOf(request).id;
      const body = request.body;
      const createdBy = actorIdOf(request) ?? null;
      reply.code(202);
      if (body.list_id !== undefined) {
        const batch = await sendSmsToList(deps, broadcasts, {
          businessId,
          listId: body.list_id,
          request: {
            ...(body.body !== undefined ? { body: body.body } : {}),
            ...(body.template_id ? { template_id: body.template_id, variables: body.variables } : {}),
            ...(body.consent !== undefined ? { consent: body.consent } : {}),
          },
          createdBy,
        });
        return { status: 202, message: 'Accepted', result: batch };
      }
      const send = await sendSms(deps, {
        businessId,
        to: { customerId: body.customer_id, number: body.to },
        body: body.body,
        template: body.template_id ? { id: body.template_id, variables: body.variables } : undefined,
        cause: 'agent',
        createdBy,
        idempotencyKey: body.idempotency_key ?? null,
      });
      return { status: 202, message: 'Accepted', result: toSmsSend(send) };
    },
  );
  app.get(
    '/api/agents/send-sms/:batch_id/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: {
        tags,
        summary: 'How far a bulk send got',
        params: ZEmailBatchParams,
        response: { 200: ZEnvelope(ZEmailBatch) },
      },
    },
    async (request) => ok(await smsBatchProgress(deps, businessOf(request).id, request.params.batch_id)),
  );

  app.get(
    '/api/sms/inbound/',
    {
      config: { business: true, permission: 'engage.read' },
      schema: {
        tags,
        summary: 'Texts customers sent in, newest first (one customer with customer_id)',
        querystring: ZSmsInboundQuery,
        response: { 200: ZEnvelope(ZPage(ZSmsInbound)) },
      },
    },
    async (request) => ok(await findInbound(deps, await scopeOf(deps.db, request), request.query)),
  );

  // ---- Twilio's webhooks: form posts, signed; the signature is the only credential ----
  // The provider-webhook shape (platform/provider-webhook.ts): verified, then recorded, then answered.
  const verify = async (request: FastifyRequest, params: Record<string, string>) => ({
    // Twilio signs the URL it was given: PUBLIC_URL and the path (with its query) it called.
    account: await verifyTwilioRequest(
      deps,
      `${deps.config.PUBLIC_URL}${request.url}`,
      params,
      headerOf(request, 'x-twilio-signature'),
    ),
    params,
  });
  const signed = { 'X-Twilio-Signature': 'Twilio’s signature of the URL and the form parameters' };
  await providerWebhook(app, {
    path: '/api/sms/webhook/status/',
    body: 'form',
    bodyLimit: FORM_LIMIT,
    openapi: {
      headers: signed,
      body: { 'application/x-www-form-urlencoded': ZTwilioStatusCallback },
      // Twilio reads no answer from a status callback; any 2xx is taken.
      answers: { 204: { description: 'Recorded' } },
      errors: [403],
    },
    schema: { tags, summary: 'Twilio status callback (signed with X-Twilio-Signature)' },
    verify,
    accept: (request) => acceptStatusCallback(deps, request),
    answer: (reply) => reply.code(204).send(),
  });
  await providerWebhook(app, {
    path: '/api/sms/webhook/inbound/',
    body: 'form',
    bodyLimit: FORM_LIMIT,
    openapi: {
      headers: signed,
      body: { 'application/x-www-form-urlencoded': ZTwilioInboundMessage },
      answers: { 200: { description: 'An empty TwiML <Response/>', content: 'text/xml' } },
      errors: [403],
    },
    schema: { tags, summary: 'Twilio inbound message (signed with X-Twilio-Signature); answers TwiML' },
    verify,
    accept: (request) => acceptInbound(deps, request),
    answer: (reply) => reply.code(200).type('text/xml; charset=utf-8').send(EMPTY_TWIML),
  });
};
