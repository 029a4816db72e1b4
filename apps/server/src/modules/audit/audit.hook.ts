// The one place that records the changes people and API keys make through the API: every
// successful POST, PUT, PATCH or DELETE of a business-scoped route listed in AUDITED below becomes
// one audit row. A PUT/PATCH/DELETE whose URL also answers GET has the object read first (the same
// request's credentials), so the row holds the before and after of the fields that changed.
// Changes made outside a request (jobs, webhooks of providers) are not a person's and not here;
// services that change several things in one transaction may call recordAudit themselves and mark
// their route `config.audit: false`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { recordAudit } from './audit.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route records its own audit rows (or is not a change to audit). */
    audit?: false;
  }
  interface FastifyRequest {
    auditBefore?: unknown;
  }
}

/** Route URL prefixes → object type, most specific first. Actions of a POST below an object
 * (`…/:id/verify/`) are named by their last segment. */
const AUDITED: ReadonlyArray<readonly [prefix: string, objectType: string]> = [
  ['/api/business/users/invitations/', 'invitation'],
  ['/api/business/users/join-requests/', 'join_request'],
  ['/api/business/users/', 'member'],
  ['/api/business/roles/', 'role'],
  ['/api/business/customer-directory/', ''],
  ['/api/business/customer-lists/', 'customer_list'],
  ['/api/business/qr-schema/', 'qr_form'],
  ['/api/business/', 'business'],
  ['/api/auth/api-keys/', 'api_key'],
  ['/api/email/domains/', 'email_domain'],
  ['/api/email/inboxes/', 'email_inbox'],
  ['/api/consent/topics/', 'consent_topic'],
  ['/api/kb/articles/', 'kb_article'],
  ['/api/kb/categories/', 'kb_category'],
  ['/api/kb/imports/', 'kb_import'],
  ['/api/msg/labels/', 'label'],
  ['/api/msg/canned-responses/', 'canned_response'],

  ['/api/msg/chat-groups/', 'chat_group'],
  ['/api/msg/widget-settings/', 'widget'],
  ['/api/sms/account/', 'sms_channel'],
  ['/api/whatsapp/account/', 'whatsapp_channel'],
  ['/api/whatsapp/template/', 'whatsapp_template'],
  ['/api/template/brand/', 'email_brand'],
  ['/api/template/blocks/', 'email_block'],
  ['/api/template/', 'template'],
  ['/api/agents/', 'agent'],
  ['/api/config/llm/', 'llm_settings'],
  ['/api/config/mcp-servers/', 'mcp_server'],
  ['/api/user-plugins/', 'plugin'],
  ['/api/chargebee/', 'billing'],
  ['/api/broadcasts/', 'campaign'],
  ['/api/campaigns/', 'campaign'],
  ['/api/journeys/', 'journey'],
  ['/api/webhooks/', 'webhook_endpoint'],
  ['/api/exports/', 'export'],
  ['/api/erasures/', 'erasure'],
  ['/api/customers/erase/', 'erasure'],
  ['/api/audit-log/', ''],
];

/** Requests that change nothing, though they POST: previews, tests, renders. */
const NOT_CHANGES =
  /\/(preview|test|count|gpt-prompt-email|template-images|send-mail|send-sms|portal-session|pricing-page-session|callback)\/$/;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Plan = { objectType: string; verb: string } | null;
const plans = new Map<string, Plan>();

/** What an audited route records, or null: decided once per route. */
export function auditPlan(method: string, url: string): Plan {
  const cacheKey = `${method} ${url}`;
  const known = plans.get(cacheKey);
  if (known !== undefined) return known;
  let plan: Plan = null;
  const path = url.endsWith('/') ? url : `${url}/`;
  const entry = AUDITED.find(([prefix]) => path.startsWith(prefix));
  if (entry && entry[1] && WRITE_METHODS.has(method) && !NOT_CHANGES.test(path)) {
    const rest = path.slice(entry[0].length).split('/').filter(Boolean);
    const last = rest.at(-1);
    let verb: string;
    if (method === 'DELETE') verb = 'deleted';
    else if (method === 'PUT' || method === 'PATCH') verb = 'updated';
    else if (last && !last.startsWith(':')) verb = last.replace(/-/g, '_');
    else verb = rest.length ? 'updated' : 'created';
    plan = { objectType: entry[1], verb };
  }
  plans.set(cacheKey, plan);
  return plan;
}

const resultOf = (payload: unknown): unknown => {
  if (typeof payload !== 'string') return null;
  try {
    const parsed = JSON.parse(payload) as { result?: unknown };
    return parsed?.result ?? null;
  } catch {
    return null;
  }
};

const idOf = (request: FastifyRequest, result: unknown): string | null => {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const fromParams = params.id ?? params.userId;
  if (typeof fromParams === 'string' || typeof fromParams === 'number') return String(fromParams);
  if (result && typeof result === 'object' && 'id' in result) {
    const id = (result as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return null;
};

export function registerAuditHook(app: FastifyInstance, db: Db): void {
  // The URLs that answer GET (call before the routes are registered).
  const readable = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) readable.add(route.url);
  });
  // Before the handler: the object as it was, when its URL also answers GET.
  app.addHook('preHandler', async (request) => {
    const { config, url, method } = request.routeOptions;
    if (!url || config.audit === false || !request.business) return;
    if (method !== 'PUT' && method !== 'PATCH' && method !== 'DELETE') return;
    if (!auditPlan(String(method), url)) return;
    // The object's own URL, else the list above `…/:id/` (the item with that id).
    const listUrl = url.replace(/:id\/?$/, '');
    const id = (request.params as Record<string, unknown> | undefined)?.id;
    const own = readable.has(url);
    if (!own && (listUrl === url || !readable.has(listUrl) || id === undefined)) return;
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'x-business-code']) {
      const v = request.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    const path = own ? request.url : request.url.split('?')[0]!.replace(/[^/]+\/?$/, '');
    const res = await app.inject({ method: 'GET', url: path, headers, remoteAddress: request.ip });
    if (res.statusCode !== 200) return;
    const found = resultOf(res.body);
    if (own) request.auditBefore = found;
    else {
      const items = Array.isArray(found)
        ? found
        : found && typeof found === 'object' && Array.isArray((found as { results?: unknown }).results)
          ? (found as { results: unknown[] }).results
          : [];
      request.auditBefore =
        items.find(
          (item) => item && typeof item === 'object' && String((item as { id?: unknown }).id) === String(id),
        ) ?? null;
    }
  });

  // After the handler, before the answer leaves: one row for a change that succeeded.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const { config, url, method } = request.routeOptions;
    if (!url || config.audit === false || !request.business || !request.auth) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const plan = auditPlan(String(method), url);
    if (!plan) return payload;
    const result = resultOf(payload);
    const body =
      request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : null;
    const before = request.auditBefore ?? null;
    let after: unknown;
    let fields: string[] | undefined;
    if (method === 'DELETE') after = null;
    else if (method === 'POST' && plan.verb === 'created') {
      // What the person set: the request's fields, as the answer shows them where it does.
      after = {
        ...(body ?? {}),
        ...(result && typeof result === 'object' && !Array.isArray(result) ? pick(result, body) : {}),
      };
    } else {
      after = result && typeof result === 'object' && !Array.isArray(result) ? result : body;
      fields = body ? Object.keys(body) : undefined;
    }
    try {
      await recordAudit(db, {
        businessId: request.business.id,
        actor:
          request.auth.kind === 'user'
            ? { type: 'member', id: request.auth.userId }
            : { type: 'api_key', id: request.auth.keyId },
        action: `${plan.objectType}.${plan.verb}`,
        objectType: plan.objectType,
        objectId: idOf(request, result),
        before: method === 'POST' && plan.verb === 'created' ? null : before,
        after,
        fields,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    } catch (err) {
      request.log.error({ err }, 'audit row not written');
    }
    return payload;
  });
}

/** The answer's values of the request's fields (what was stored, after normalising). */
function pick(result: object, body: Record<string, unknown> | null): Record<string, unknown> {
  if (!body) return {};
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(body)) if (k in result) out[k] = (result as Record<string, unknown>)[k];
  return out;
}
