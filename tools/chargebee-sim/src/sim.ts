// A local Chargebee (API v2, product catalog 2.0) speaking the calls Titan makes: customers,
// portal sessions, pricing page sessions, item prices (plans with quota metadata, top-up charges),
// subscription entitlements, one-off charges (`invoices/create_for_charge_items_and_charges`).
// Requests are form-encoded with bracketed keys and authenticated with the API key as the basic
// auth user name; errors answer `{message, type, api_error_code, param, http_status_code}`.
// Hosted pages: the pricing page (`/hosted/pricing/{id}`) takes a card and subscribes, then
// returns to the session's redirect_url (`?id=&state=succeeded`); a declined card
// (4000 0000 0000 0002) returns to the sibling `/failed` address, "Back" to `/cancelled`. The
// portal (`/hosted/portal/{token}`) pauses, resumes and cancels. Every change is an event POSTed as
// JSON to the webhook URL with basic auth, as Chargebee does; a control API (`/sim/*`) drives
// subscriptions and deliveries (hold, release in reverse, redeliver) for tests.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SimItemPrice = {
  id: string;
  name: string;
  item_type: 'plan' | 'charge';
  /** Cents. */
  price: number;
  currency_code?: string;
  period_unit?: 'month' | 'year';
  metadata?: Record<string, unknown>;
  /** Plans: the entitlements a subscription to it has (feature id → value). */
  entitlements?: Record<string, string>;
};

export type SimWebhook = { url: string; username: string; password: string };

export type SimOptions = {
  port?: number;
  host?: string;
  site?: string;
  apiKey: string;
  itemPrices: SimItemPrice[];
  webhook?: SimWebhook | null;
};

type Customer = { id: string; company: string | null; card: string | null; created_at: number };
type Subscription = {
  id: string;
  customer_id: string;
  plan_id: string;
  status: string;
  current_term_start: number;
  current_term_end: number;
  resource_version: number;
  updated_at: number;
};
type Invoice = {
  id: string;
  customer_id: string;
  status: 'paid' | 'payment_due';
  total: number;
  line_item: string;
};
type Session = {
  id: string;
  kind: 'pricing' | 'portal';
  customer_id: string;
  subscription_id: string | null;
  redirect_url: string;
};
export type SimEvent = {
  id: string;
  event_type: string;
  occurred_at: number;
  content: Record<string, unknown>;
};
export type Delivery = { event_id: string; event_type: string; status: number | null; error: string | null };
export type ApiRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  authorized: boolean;
};

export type ChargebeeSim = {
  url: string;
  /** Titan's CHARGEBEE_API_URL. */
  apiUrl: string;
  site: string;
  apiKey: string;
  customers: Map<string, Customer>;
  subscriptions: Map<string, Subscription>;
  invoices: Map<string, Invoice>;
  events: SimEvent[];
  deliveries: Delivery[];
  requests: ApiRequest[];
  setWebhook(webhook: SimWebhook | null): void;
  /** Subscribes a customer (made when missing) to a plan, as a checkout would, and sends the event. */
  subscribe(customerId: string, planId: string, status?: string): Promise<Subscription>;
  setStatus(subscriptionId: string, status: string): Promise<Subscription>;
  /** Holds events instead of delivering them, until `release`. */
  hold(on: boolean): void;
  release(order?: 'fifo' | 'reverse'): Promise<Delivery[]>;
  redeliver(eventId: string): Promise<Delivery>;
  close(): Promise<void>;
};

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;
const DAY = 86_400;
const DECLINED = '4000000000000002';

class CbError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem;color:#1f2937}
.plans{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:1rem}.plan{border:1px solid #d1d5db;border-radius:8px;padding:1rem}
button{background:#4f46e5;color:#fff;border:0;border-radius:6px;padding:.5rem 1rem;cursor:pointer}label{display:block;margin:.5rem 0}
input{padding:.4rem;border:1px solid #d1d5db;border-radius:4px}.note{color:#6b7280;font-size:.9rem}</style></head>
<body><p class="note">Chargebee simulator (tools/chargebee-sim)</p><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function money(cents: number, currency = 'USD') {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A sibling of the return address: `/confirm-payment/success` → `/confirm-payment/cancelled`. */
function sibling(redirectUrl: string, status: string): string {
  const url = new URL(redirectUrl);
  url.pathname = url.pathname.replace(/[^/]*\/?$/, status);
  url.search = '';
  return url.toString();
}

export async function startChargebeeSim(options: SimOptions): Promise<ChargebeeSim> {
  const site = options.site ?? 'titan-test';
  const itemPrices = new Map(options.itemPrices.map((p) => [p.id, p]));
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  const invoices = new Map<string, Invoice>();
  const sessions = new Map<string, Session>();
  const events: SimEvent[] = [];
  const deliveries: Delivery[] = [];
  const requests: ApiRequest[] = [];
  const held: SimEvent[] = [];
  let holding = false;
  let webhook = options.webhook ?? null;
  let base = '';

  const itemPriceJson = (p: SimItemPrice) => ({
    id: p.id,
    name: p.name,
    external_name: p.name,
    item_id: p.id.replace(/-(USD|EUR)-.*$/, ''),
    item_type: p.item_type,
    pricing_model: 'flat_fee',
    price: p.price,
    currency_code: p.currency_code ?? 'USD',
    ...(p.item_type === 'plan' ? { period: 1, period_unit: p.period_unit ?? 'month' } : {}),
    status: 'active',
    metadata: p.metadata ?? {},
    object: 'item_price',
  });
  const subscriptionJson = (s: Subscription) => ({
    id: s.id,
    customer_id: s.customer_id,
    status: s.status,
    current_term_start: s.current_term_start,
    current_term_end: s.current_term_end,
    resource_version: s.resource_version,
    updated_at: s.updated_at,
    subscription_items: [
      { item_price_id: s.plan_id, item_type: 'plan', quantity: 1, object: 'subscription_item' },
    ],
    object: 'subscription',
  });
  const customerJson = (c: Customer) => ({
    id: c.id,
    company: c.company,
    card_status: c.card ? 'valid' : 'no_card',
    created_at: c.created_at,
    object: 'customer',
  });
  const invoiceJson = (i: Invoice) => ({
    id: i.id,
    customer_id: i.customer_id,
    status: i.status,
    total: i.total,
    amount_paid: i.status === 'paid' ? i.total : 0,
    line_items: [{ entity_id: i.line_item, entity_type: 'charge_item_price', amount: i.total }],
    object: 'invoice',
  });

  async function deliver(event: SimEvent): Promise<Delivery> {
    const delivery: Delivery = {
      event_id: event.id,
      event_type: event.event_type,
      status: null,
      error: null,
    };
    deliveries.push(delivery);
    if (!webhook) {
      delivery.error = 'no webhook configured';
      return delivery;
    }
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${webhook.username}:${webhook.password}`).toString('base64')}`,
        },
        body: JSON.stringify({
          ...event,
          source: 'hosted_page',
          object: 'event',
          api_version: 'v2',
          webhook_status: 'scheduled',
        }),
        signal: AbortSignal.timeout(10_000),
      });
      delivery.status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      delivery.error = (err as Error).message;
    }
    return delivery;
  }

  async function emit(event_type: string, content: Record<string, unknown>): Promise<void> {
    const event = { id: newId('ev_'), event_type, occurred_at: now(), content };
    events.push(event);
    if (holding) held.push(event);
    else await deliver(event);
  }

  function ensureCustomer(id: string): Customer {
    let customer = customers.get(id);
    if (!customer) {
      customer = { id, company: null, card: null, created_at: now() };
      customers.set(id, customer);
    }
    return customer;
  }

  function bump(s: Subscription) {
    // Chargebee's resource_version grows with every change (milliseconds).
    s.resource_version = Math.max(Date.now(), s.resource_version + 1);
    s.updated_at = now();
  }

  async function subscribe(customerId: string, planId: string, status = 'active'): Promise<Subscription> {
    if (!itemPrices.has(planId)) throw new Error(`no plan ${planId}`);
    const customer = ensureCustomer(customerId);
    const existing = [...subscriptions.values()].find((s) => s.customer_id === customerId);
    const start = now();
    if (existing) {
      existing.plan_id = planId;
      existing.status = status;
      existing.current_term_start = start;
      existing.current_term_end = start + 30 * DAY;
      bump(existing);
      await emit('subscription_changed', {
        subscription: subscriptionJson(existing),
        customer: customerJson(customer),
      });
      return existing;
    }
    const sub: Subscription = {
      id: newId('sub_'),
      customer_id: customerId,
      plan_id: planId,
      status,
      current_term_start: start,
      current_term_end: start + 30 * DAY,
      resource_version: 0,
      updated_at: start,
    };
    bump(sub);
    subscriptions.set(sub.id, sub);
    await emit('subscription_created', {
      subscription: subscriptionJson(sub),
      customer: customerJson(customer),
    });
    return sub;
  }

  const STATUS_EVENTS: Record<string, string> = {
    active: 'subscription_activated',
    in_trial: 'subscription_changed',
    non_renewing: 'subscription_scheduled_cancellation_added',
    paused: 'subscription_paused',
    cancelled: 'subscription_cancelled',
  };

  async function setStatus(id: string, status: string): Promise<Subscription> {
    const sub = subscriptions.get(id);
    if (!sub) throw new CbError(404, 'invalid_request', 'resource_not_found', `Subscription ${id} not found`);
    if (!STATUS_EVENTS[status])
      throw new CbError(400, 'invalid_request', 'param_wrong_value', 'status is invalid', 'status');
    const resumed = sub.status === 'paused' && status === 'active';
    sub.status = status;
    bump(sub);
    await emit(resumed ? 'subscription_resumed' : STATUS_EVENTS[status]!, {
      subscription: subscriptionJson(sub),
      customer: customerJson(ensureCustomer(sub.customer_id)),
    });
    return sub;
  }

  // ---- API v2 ----

  function authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    return decoded.split(':')[0] === options.apiKey;
  }

  function required(params: Record<string, string>, name: string): string {
    const value = params[name];
    if (!value)
      throw new CbError(400, 'invalid_request', 'param_wrong_value', `${name} : cannot be blank`, name);
    return value;
  }

  async function api(method: string, path: string, params: Record<string, string>): Promise<unknown> {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/customers') {
      const id = params.id ?? newId('cust_');
      if (customers.has(id))
        throw new CbError(
          400,
          'invalid_request',
          'duplicate_entry',
          `The value ${id} is already present.`,
          'id',
        );
      const customer: Customer = { id, company: params.company ?? null, card: null, created_at: now() };
      customers.set(id, customer);
      return { customer: customerJson(customer) };
    }
    if (method === 'GET' && (m = path.match(/^\/customers\/([^/]+)$/))) {
      const customer = customers.get(decodeURIComponent(m[1]!));
      if (!customer) throw new CbError(404, 'invalid_request', 'resource_not_found', 'Customer not found');
      return { customer: customerJson(customer) };
    }
    if (method === 'POST' && path === '/portal_sessions') {
      const customer = customers.get(required(params, 'customer[id]'));
      if (!customer)
        throw new CbError(404, 'invalid_request', 'resource_not_found', 'Customer not found', 'customer[id]');
      const session: Session = {
        id: newId('portal_'),
        kind: 'portal',
        customer_id: customer.id,
        subscription_id: null,
        redirect_url: params.redirect_url ?? '',
      };
      sessions.set(session.id, session);
      return {
        portal_session: {
          id: session.id,
          token: session.id,
          access_url: `${base}/hosted/portal/${session.id}`,
          status: 'created',
          customer_id: customer.id,
          redirect_url: session.redirect_url,
          created_at: now(),
          expires_at: now() + 3600,
          object: 'portal_session',
        },
      };
    }
    if (
      method === 'POST' &&
      (m = path.match(/^\/pricing_page_sessions\/create_for_(new|existing)_subscription$/))
    ) {
      required(params, 'pricing_page[id]');
      let customerId: string;
      let subscriptionId: string | null = null;
      if (m[1] === 'new') customerId = ensureCustomer(required(params, 'customer[id]')).id;
      else {
        const sub = subscriptions.get(required(params, 'subscription[id]'));
        if (!sub)
          throw new CbError(
            404,
            'invalid_request',
            'resource_not_found',
            'Subscription not found',
            'subscription[id]',
          );
        customerId = sub.customer_id;
        subscriptionId = sub.id;
      }
      const session: Session = {
        id: newId('pps_'),
        kind: 'pricing',
        customer_id: customerId,
        subscription_id: subscriptionId,
        redirect_url: required(params, 'redirect_url'),
      };
      sessions.set(session.id, session);
      return {
        pricing_page_session: {
          id: session.id,
          url: `${base}/hosted/pricing/${session.id}`,
          created_at: now(),
          expires_at: now() + 3600,
        },
      };
    }
    if (method === 'GET' && path === '/item_prices') {
      const type = params['item_type[is]'];
      const list = [...itemPrices.values()].filter((p) => !type || p.item_type === type);
      return { list: list.map((p) => ({ item_price: itemPriceJson(p) })) };
    }
    if (method === 'GET' && (m = path.match(/^\/item_prices\/([^/]+)$/))) {
      const price = itemPrices.get(decodeURIComponent(m[1]!));
      if (!price) throw new CbError(404, 'invalid_request', 'resource_not_found', 'ItemPrice not found');
      return { item_price: itemPriceJson(price) };
    }
    if (method === 'GET' && (m = path.match(/^\/subscriptions\/([^/]+)\/subscription_entitlements$/))) {
      const sub = subscriptions.get(decodeURIComponent(m[1]!));
      if (!sub) throw new CbError(404, 'invalid_request', 'resource_not_found', 'Subscription not found');
      const entitlements = itemPrices.get(sub.plan_id)?.entitlements ?? {};
      return {
        list: Object.entries(entitlements).map(([feature_id, value]) => ({
          subscription_entitlement: {
            subscription_id: sub.id,
            feature_id,
            feature_name: feature_id,
            value,
            name: value,
            is_enabled: true,
            object: 'subscription_entitlement',
          },
        })),
      };
    }
    if (method === 'GET' && (m = path.match(/^\/subscriptions\/([^/]+)$/))) {
      const sub = subscriptions.get(decodeURIComponent(m[1]!));
      if (!sub) throw new CbError(404, 'invalid_request', 'resource_not_found', 'Subscription not found');
      return { subscription: subscriptionJson(sub), customer: customerJson(ensureCustomer(sub.customer_id)) };
    }
    if (method === 'POST' && path === '/invoices/create_for_charge_items_and_charges') {
      const customer = customers.get(required(params, 'customer_id'));
      if (!customer)
        throw new CbError(404, 'invalid_request', 'resource_not_found', 'Customer not found', 'customer_id');
      const priceId = required(params, 'item_prices[item_price_id][0]');
      const price = itemPrices.get(priceId);
      if (!price || price.item_type !== 'charge') {
        throw new CbError(
          404,
          'invalid_request',
          'resource_not_found',
          'ItemPrice not found',
          'item_prices[item_price_id][0]',
        );
      }
      const quantity = Number(params['item_prices[quantity][0]'] ?? '1') || 1;
      const invoice: Invoice = {
        id: newId('inv_'),
        customer_id: customer.id,
        // Collected at once from the card on file; without one it waits for payment.
        status: customer.card ? 'paid' : 'payment_due',
        total: price.price * quantity,
        line_item: price.id,
      };
      invoices.set(invoice.id, invoice);
      await emit('invoice_generated', { invoice: invoiceJson(invoice), customer: customerJson(customer) });
      if (invoice.status === 'paid') {
        await emit('payment_succeeded', { invoice: invoiceJson(invoice), customer: customerJson(customer) });
      }
      return { invoice: invoiceJson(invoice) };
    }
    throw new CbError(404, 'invalid_request', 'resource_not_found', `Sorry, we couldn't find that resource`);
  }

  // ---- Hosted pages ----

  function pricingPage(session: Session, error?: string): string {
    const plans = [...itemPrices.values()].filter((p) => p.item_type === 'plan');
    const cards = plans
      .map(
        (
          p,
        ) => `<div class="plan"><h2>${escapeHtml(p.name)}</h2><p>${money(p.price, p.currency_code)} / ${p.period_unit ?? 'month'}</p>
<ul>${Object.entries(p.metadata ?? {})
          .map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(String(v))}</li>`)
          .join('')}</ul>
<form method="post" action="/hosted/pricing/${session.id}/checkout"><input type="hidden" name="plan" value="${escapeHtml(p.id)}">
<label>Card number <input name="card" value="4111 1111 1111 1111" aria-label="Card number for ${escapeHtml(p.name)}"></label>
<button type="submit">Subscribe to ${escapeHtml(p.name)}</button></form></div>`,
      )
      .join('');
    return page(
      'Choose your plan',
      `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}<div class="plans">${cards}</div>
<p><a href="${escapeHtml(sibling(session.redirect_url, 'cancelled'))}">Back without choosing</a></p>`,
    );
  }

  function portalPage(session: Session): string {
    const sub = [...subscriptions.values()].find((s) => s.customer_id === session.customer_id);
    const customer = customers.get(session.customer_id);
    const actions = sub
      ? ['pause', 'resume', 'cancel']
          .map(
            (a) =>
              `<form method="post" action="/hosted/portal/${session.id}/${a}" style="display:inline"><button type="submit">${a[0]!.toUpperCase()}${a.slice(1)} subscription</button></form> `,
          )
          .join('')
      : '<p>No subscription yet.</p>';
    return page(
      'Manage your subscription',
      `<p>Customer ${escapeHtml(session.customer_id)} · card ${customer?.card ? `ending ${customer.card.slice(-4)}` : 'none on file'}</p>
${sub ? `<p>Plan: <strong>${escapeHtml(itemPrices.get(sub.plan_id)?.name ?? sub.plan_id)}</strong> · status <strong>${sub.status}</strong></p>` : ''}
${actions}<form method="post" action="/hosted/portal/${session.id}/card"><label>Card number <input name="card" value="4111 1111 1111 1111"></label><button type="submit">Save card</button></form>
<p><a href="${escapeHtml(session.redirect_url || '/')}">Back to Titan</a></p>`,
    );
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const m = path.match(/^\/hosted\/(pricing|portal)\/([^/]+)(?:\/([a-z]+))?$/);
    if (!m) return false;
    const session = sessions.get(m[2]!);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (!session || session.kind !== m[1]) {
      html(404, page('Link expired', '<p>This page has expired. Go back to Titan and open it again.</p>'));
      return true;
    }
    const action = m[3];
    if (req.method === 'GET' && !action) {
      html(200, session.kind === 'pricing' ? pricingPage(session) : portalPage(session));
      return true;
    }
    if (req.method !== 'POST') return false;
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const redirect = (to: string) => {
      res.writeHead(303, { location: to });
      res.end();
    };
    const card = (form.card ?? '').replace(/\D/g, '');
    if (session.kind === 'pricing' && action === 'checkout') {
      const plan = itemPrices.get(form.plan ?? '');
      if (!plan || plan.item_type !== 'plan') {
        html(400, pricingPage(session, 'Choose one of the plans.'));
        return true;
      }
      if (card === DECLINED) {
        redirect(sibling(session.redirect_url, 'failed'));
        return true;
      }
      if (card.length < 12) {
        html(400, pricingPage(session, 'Enter a card number.'));
        return true;
      }
      ensureCustomer(session.customer_id).card = card;
      const sub = await subscribe(session.customer_id, plan.id);
      sessions.delete(session.id);
      const back = new URL(session.redirect_url);
      back.searchParams.set('id', session.id);
      back.searchParams.set('state', 'succeeded');
      back.searchParams.set('sub_id', sub.id);
      redirect(back.toString());
      return true;
    }
    if (session.kind === 'portal') {
      const sub = [...subscriptions.values()].find((s) => s.customer_id === session.customer_id);
      if (action === 'card' && card.length >= 12) ensureCustomer(session.customer_id).card = card;
      else if (sub && action === 'pause') await setStatus(sub.id, 'paused');
      else if (sub && action === 'resume') await setStatus(sub.id, 'active');
      else if (sub && action === 'cancel') await setStatus(sub.id, 'cancelled');
      redirect(`/hosted/portal/${session.id}`);
      return true;
    }
    return false;
  }

  // ---- Control API ----

  async function control(method: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    let m: RegExpMatchArray | null;
    if (method === 'GET' && path === '/sim/state') {
      return {
        customers: [...customers.values()].map(customerJson),
        subscriptions: [...subscriptions.values()].map(subscriptionJson),
        invoices: [...invoices.values()].map(invoiceJson),
        events,
        deliveries,
      };
    }
    if (method === 'POST' && path === '/sim/webhook') {
      webhook = body.url ? (body as SimWebhook) : null;
      return { webhook };
    }
    if (method === 'POST' && path === '/sim/subscriptions') {
      return subscriptionJson(
        await subscribe(
          String(body.customer_id),
          String(body.plan_id),
          body.status ? String(body.status) : 'active',
        ),
      );
    }
    if (method === 'POST' && (m = path.match(/^\/sim\/subscriptions\/([^/]+)\/status$/))) {
      return subscriptionJson(await setStatus(m[1]!, String(body.status)));
    }
    if (method === 'POST' && (m = path.match(/^\/sim\/customers\/([^/]+)\/card$/))) {
      ensureCustomer(decodeURIComponent(m[1]!)).card = String(body.card ?? '4111111111111111');
      return { ok: true };
    }
    if (method === 'POST' && path === '/sim/hold') {
      holding = Boolean(body.on);
      return { holding };
    }
    if (method === 'POST' && path === '/sim/release')
      return release(body.order === 'reverse' ? 'reverse' : 'fifo');
    if (method === 'POST' && (m = path.match(/^\/sim\/events\/([^/]+)\/redeliver$/))) return redeliver(m[1]!);
    throw new CbError(404, 'invalid_request', 'resource_not_found', 'No such control route');
  }

  async function release(order: 'fifo' | 'reverse' = 'fifo'): Promise<Delivery[]> {
    holding = false;
    const batch = held.splice(0);
    if (order === 'reverse') batch.reverse();
    const out: Delivery[] = [];
    for (const event of batch) out.push(await deliver(event));
    return out;
  }

  async function redeliver(eventId: string): Promise<Delivery> {
    const event = events.find((e) => e.id === eventId);
    if (!event) throw new CbError(404, 'invalid_request', 'resource_not_found', 'Event not found');
    return deliver(event);
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      try {
        if (await hosted(req, res, url.pathname)) return;
        if (url.pathname.startsWith('/sim/')) {
          const raw = req.method === 'POST' ? await readBody(req) : '';
          send(
            200,
            await control(
              req.method ?? 'GET',
              url.pathname,
              raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
            ),
          );
          return;
        }
        if (url.pathname.startsWith('/api/v2/')) {
          const path = url.pathname.slice('/api/v2'.length);
          const params =
            req.method === 'POST'
              ? Object.fromEntries(new URLSearchParams(await readBody(req)))
              : Object.fromEntries(url.searchParams);
          const ok = authorized(req);
          requests.push({ method: req.method ?? 'GET', path, params, authorized: ok });
          if (!ok) {
            throw new CbError(
              401,
              'authentication_error',
              'api_authentication_failed',
              'Sorry, authentication failed. Invalid api key',
            );
          }
          if (
            req.method === 'POST' &&
            !String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
          ) {
            throw new CbError(400, 'invalid_request', 'invalid_request', 'Requests must be form-encoded');
          }
          send(200, await api(req.method ?? 'GET', path, params));
          return;
        }
        send(404, { message: 'Not found' });
      } catch (err) {
        if (err instanceof CbError) {
          send(err.status, {
            message: err.message,
            type: err.type,
            api_error_code: err.code,
            ...(err.param ? { param: err.param } : {}),
            error_code: err.code,
            error_msg: err.message,
            http_status_code: err.status,
          });
        } else
          send(500, {
            message: (err as Error).message,
            api_error_code: 'internal_error',
            http_status_code: 500,
          });
      }
    })();
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: base,
    apiUrl: `${base}/api/v2`,
    site,
    apiKey: options.apiKey,
    customers,
    subscriptions,
    invoices,
    events,
    deliveries,
    requests,
    setWebhook: (w) => {
      webhook = w;
    },
    subscribe,
    setStatus,
    hold: (on) => {
      holding = on;
    },
    release,
    redeliver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The demo's and tests' catalogue: three plans with quota metadata and two top-ups. */
export const DEFAULT_ITEM_PRICES: SimItemPrice[] = [
  {
    id: 'starter-USD-monthly',
    name: 'Starter',
    item_type: 'plan',
    price: 1900,
    metadata: { email_quota: 1000, sms_quota: 100, whatsapp_quota: 250 },
  },
  {
    id: 'growth-USD-monthly',
    name: 'Growth',
    item_type: 'plan',
    price: 7900,
    metadata: { email_quota: 20000, sms_quota: 1000, whatsapp_quota: 5000 },
  },
  {
    id: 'scale-USD-monthly',
    name: 'Scale',
    item_type: 'plan',
    price: 29900,
    metadata: { email_quota: 100000, sms_quota: 5000 },
    entitlements: { 'whatsapp-quota': 'unlimited' },
  },
  {
    id: 'sms-500-USD',
    name: '500 extra texts',
    item_type: 'charge',
    price: 1500,
    metadata: { top_up_channel: 'sms', top_up_units: 500 },
  },
  {
    id: 'whatsapp-1000-USD',
    name: '1,000 extra WhatsApp messages',
    item_type: 'charge',
    price: 2000,
    metadata: { top_up_channel: 'whatsapp', top_up_units: 1000 },
  },
];
