// Billing's routes (engage.md §8): the business's plan and usage, Chargebee's hosted pages, top-up
// charges (owners: billing.manage), and Chargebee's webhook (public; basic auth is its credential).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BILLING_ERRORS,
  ZBillingState,
  ZChargeRequest,
  ZChargeResult,
  ZEnvelope,
  ZPortalSession,
  ZPricingPageSession,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { providerWebhook } from '../../platform/provider-webhook';
import { actorIdOf, businessOf } from '../../platform/request-context';
import type { CbEvent } from './chargebee.client';
import {
  acceptWebhook,
  authorizeWebhook,
  billingState,
  chargeTopUp,
  createPortalSession,
  createPricingPageSession,
  type BillingDeps,
} from './billing.chargebee';

const tags = ['billing'];
const manage = { business: true, permission: 'billing.manage' } as const;

/** What Titan reads of an event; the rest is Chargebee's and kept as it came. */
const ZWebhookEvent = z.looseObject({
  id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(200),
  content: z.record(z.string(), z.unknown()).optional(),
});

export const billingRoutes: FastifyPluginAsyncZod<{ deps: BillingDeps }> = async (app, { deps }) => {
  app.get(
    '/api/chargebee/subscription/',
    {
      config: { business: true, permission: 'engage.read', openapi: { errors: [404] } },
      schema: {
        tags,
        summary: 'The plan, its status, usage against quotas per channel this period, and top-ups',
        response: { 200: ZEnvelope(ZBillingState) },
      },
    },
    async (request) => ok(await billingState(deps, businessOf(request).id)),
  );
  app.post(
    '/api/chargebee/portal-session/',
    {
      config: { ...manage, openapi: { errors: [404, 409, 502] } },
      schema: {
        tags,
        summary: "A session of Chargebee's self-serve portal",
        response: { 200: ZEnvelope(ZPortalSession) },
      },
    },
    async (request) => ok(await createPortalSession(deps, businessOf(request).id)),
  );
  app.post(
    '/api/chargebee/pricing-page-session/',
    {
      config: { ...manage, openapi: { errors: [404, 409, 502] } },
      schema: {
        tags,
        summary: 'A session of the pricing page; it returns to /confirm-payment/{payment_status}',
        response: { 200: ZEnvelope(ZPricingPageSession) },
      },
    },
    async (request) => ok(await createPricingPageSession(deps, businessOf(request).id)),
  );
  app.post(
    '/api/chargebee/charge/',
    {
      config: {
        ...manage,
        rateLimit: { max: 10, timeWindow: '1 minute' },
        openapi: { errors: [404, 409, 502] },
      },
      schema: {
        tags,
        summary: 'Buy a top-up (a one-off charge); its units are credited to this period once paid',
        body: ZChargeRequest,
        response: { 200: ZEnvelope(ZChargeResult) },
      },
    },
    async (request) =>
      ok(await chargeTopUp(deps, businessOf(request).id, request.body.top_up, actorIdOf(request) ?? null)),
  );
  // The provider-webhook shape (platform/provider-webhook.ts): verified, then recorded, then answered.
  await providerWebhook(app, {
    path: '/api/chargebee/webhook/',
    body: 'json',
    bodyLimit: 1024 * 1024,
    openapi: {
      body: { 'application/json': ZWebhookEvent },
      errors: [400, 401, 404, 429],
    },
    schema: {
      tags,
      summary: "Chargebee's webhook (basic auth with CHARGEBEE_WEBHOOK_USERNAME / _PASSWORD)",
      response: {
        200: ZEnvelope(
          z.object({
            outcome: z.enum(['applied', 'duplicate', 'stale', 'unknown_customer', 'credited', 'ignored']),
          }),
        ),
      },
    },
    verify: async (request, body) => {
      if (!deps.config.CHARGEBEE_SITE) throw new AppError('not_found', BILLING_ERRORS.off);
      await authorizeWebhook(deps, request.headers.authorization, request.ip);
      const parsed = ZWebhookEvent.safeParse(body);
      if (!parsed.success) {
        throw AppError.fields(
          Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', [i.message]])),
          'Not a Chargebee event.',
        );
      }
      return parsed.data as CbEvent;
    },
    accept: (event) => acceptWebhook(deps, event),
    answer: (_reply, outcome) => ok({ outcome }),
  });
};
