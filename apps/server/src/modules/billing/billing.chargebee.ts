// Titan's side of Chargebee (engage.md §8): the customer each business is, hosted pages (the
// self-serve portal, the pricing page) that return to /confirm-payment/{payment_status}, one-off
// charges for top-ups, and the webhook that keeps `subscription_status` and the plan's quotas.
//
// Quotas come from Chargebee, so a business's limits change when its plan does: the plan's item
// price metadata `{"email_quota": 5000, "sms_quota": 500, "whatsapp_quota": 1000}`, overridden by
// the subscription's entitlements to the features `email-quota`, `sms-quota`, `whatsapp-quota`
// when it has them. A channel named by neither is not limited. Top-ups are charge item prices
// whose metadata says `{"top_up_channel": "sms", "top_up_units": 1000}`.
import {
  BILLED_CHANNELS,
  BILLING_ERRORS,
  SUBSCRIPTION_STATUSES,
  type TBilledChannel,
  type TBillingState,
  type TChargeResult,
  type TSubscriptionStatus,
  type TTopUp,
} from '@titan/contracts';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import type { Logger } from 'pino';
import { safeEqual } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limiter';
import {
  chargebeeApiUrl,
  chargebeeCall,
  ChargebeeError,
  type CbEvent,
  type CbInvoice,
  type CbItemPrice,
  type CbSubscription,
  type ChargebeeConfig,
} from './chargebee.client';
import * as repo from './billing.repository';
import { canSend, periodOf, usageOf } from './billing.service';

/**
 * What billing needs of the business module, handed in by the composition root (business answers
 * its period counts from billing, so billing does not import it back).
 */
export type BillingBusinessPort = {
  /** The business's name and unique code (its Chargebee customer); throws not found when gone. */
  find(db: Db, businessId: number): Promise<{ name: string; unique_code: string }>;
  /** Keeps `subscription_status` as Chargebee reports it, inside the webhook's transaction. */
  setSubscriptionStatus(db: Queryable, businessId: number, status: string): Promise<void>;
};

export type BillingDeps = {
  db: Db;
  config: Config;
  logger: Logger;
  limiter: RateLimiter;
  business: BillingBusinessPort;
};

function chargebee(deps: BillingDeps): ChargebeeConfig {
  const { CHARGEBEE_SITE: site, CHARGEBEE_API_KEY: apiKey, CHARGEBEE_API_URL: url } = deps.config;
  if (!site || !apiKey) throw new AppError('conflict', BILLING_ERRORS.off);
  return { apiUrl: chargebeeApiUrl(site, url), apiKey };
}

/** Chargebee's refusals in words; never Titan's own 401/404. */
function failed(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ChargebeeError) {
    if (err.status === 0 || err.status >= 500) return new AppError('bad_gateway', BILLING_ERRORS.unreachable);
    if (
      err.apiErrorCode === 'payment_method_not_present' ||
      err.apiErrorCode === 'payment_processing_failed'
    ) {
      return new AppError('conflict', BILLING_ERRORS.noPaymentMethod);
    }
    return new AppError('bad_gateway', `Chargebee refused the request: ${err.message}`);
  }
  return err as AppError;
}

const customerIdOf = (uniqueCode: string) => `titan-${uniqueCode}`;

/** The business's Chargebee customer, made on first use. */
async function ensureCustomer(deps: BillingDeps, businessId: number): Promise<repo.BillingAccount> {
  const existing = await repo.findAccount(deps.db, businessId);
  if (existing) return existing;
  const business = await deps.business.find(deps.db, businessId);
  const customerId = customerIdOf(business.unique_code);
  try {
    await chargebeeCall(chargebee(deps), 'POST', '/customers', {
      id: customerId,
      company: business.name,
      meta_data: JSON.stringify({ titan_business_id: businessId }),
    });
  } catch (err) {
    // Made by an earlier attempt whose answer was lost: it is the same customer.
    if (!(err instanceof ChargebeeError && err.apiErrorCode === 'duplicate_entry')) throw failed(err);
  }
  await repo.insertAccount(deps.db, businessId, customerId);
  return (await repo.findAccount(deps.db, businessId))!;
}

const returnUrl = (deps: BillingDeps, status: string) =>
  `${deps.config.PUBLIC_URL}/confirm-payment/${status}`;

export async function createPortalSession(
  deps: BillingDeps,
  businessId: number,
): Promise<{ access_url: string }> {
  const account = await ensureCustomer(deps, businessId);
  try {
    const res = await chargebeeCall<{ portal_session: { access_url: string } }>(
      chargebee(deps),
      'POST',
      '/portal_sessions',
      {
        'customer[id]': account.customerId,
        redirect_url: `${deps.config.PUBLIC_URL}/engage/settings/billing`,
      },
    );
    return { access_url: res.portal_session.access_url };
  } catch (err) {
    throw failed(err);
  }
}

export async function createPricingPageSession(
  deps: BillingDeps,
  businessId: number,
): Promise<{ url: string }> {
  const account = await ensureCustomer(deps, businessId);
  const existing = account.subscriptionId && account.status !== 'cancelled' ? account.subscriptionId : null;
  try {
    const res = await chargebeeCall<{ pricing_page_session: { url: string } }>(
      chargebee(deps),
      'POST',
      existing
        ? '/pricing_page_sessions/create_for_existing_subscription'
        : '/pricing_page_sessions/create_for_new_subscription',
      {
        'pricing_page[id]': deps.config.CHARGEBEE_PRICING_PAGE_ID,
        redirect_url: returnUrl(deps, 'success'),
        ...(existing ? { 'subscription[id]': existing } : { 'customer[id]': account.customerId }),
      },
    );
    return { url: res.pricing_page_session.url };
  } catch (err) {
    throw failed(err);
  }
}

// ---- Quotas and top-ups, read from Chargebee ----

const QUOTA_KEYS: Record<TBilledChannel, string> = {
  email: 'email_quota',
  sms: 'sms_quota',
  whatsapp: 'whatsapp_quota',
};
const QUOTA_FEATURES: Record<TBilledChannel, string> = {
  email: 'email-quota',
  sms: 'sms-quota',
  whatsapp: 'whatsapp-quota',
};

function wholeNumber(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** The plan's quotas: its item price's metadata, then the subscription's entitlements over them. */
async function quotasOf(
  deps: BillingDeps,
  sub: CbSubscription,
): Promise<{ quotas: repo.Quotas; planName: string | null; planId: string | null }> {
  const cb = chargebee(deps);
  const planId = sub.subscription_items?.find((i) => i.item_type === 'plan')?.item_price_id ?? null;
  const quotas: repo.Quotas = {};
  let planName: string | null = null;
  if (planId) {
    const { item_price: price } = await chargebeeCall<{ item_price: CbItemPrice }>(
      cb,
      'GET',
      `/item_prices/${encodeURIComponent(planId)}`,
    );
    planName = price.external_name ?? price.name;
    for (const channel of BILLED_CHANNELS) {
      const n = wholeNumber(price.metadata?.[QUOTA_KEYS[channel]]);
      if (n !== null) quotas[channel] = n;
    }
  }
  const { list } = await chargebeeCall<{
    list: { subscription_entitlement: { feature_id: string; value?: string; is_enabled?: boolean } }[];
  }>(cb, 'GET', `/subscriptions/${encodeURIComponent(sub.id)}/subscription_entitlements`, { limit: 100 });
  for (const { subscription_entitlement: e } of list ?? []) {
    const channel = BILLED_CHANNELS.find((c) => QUOTA_FEATURES[c] === e.feature_id);
    if (!channel) continue;
    if (e.value === 'unlimited') delete quotas[channel];
    else {
      const n = e.is_enabled === false ? 0 : wholeNumber(e.value);
      if (n !== null) quotas[channel] = n;
    }
  }
  return { quotas, planName, planId };
}

function topUpOf(price: CbItemPrice): TTopUp | null {
  const channel = price.metadata?.top_up_channel;
  const units = wholeNumber(price.metadata?.top_up_units);
  if (!BILLED_CHANNELS.includes(channel as TBilledChannel) || !units) return null;
  return {
    id: price.id,
    name: price.external_name ?? price.name,
    channel: channel as TBilledChannel,
    units,
    price: price.price ?? 0,
    currency_code: price.currency_code ?? 'USD',
  };
}

async function listTopUps(deps: BillingDeps): Promise<TTopUp[]> {
  const { list } = await chargebeeCall<{ list: { item_price: CbItemPrice }[] }>(
    chargebee(deps),
    'GET',
    '/item_prices',
    {
      'item_type[is]': 'charge',
      'status[is]': 'active',
      limit: 100,
    },
  );
  return (list ?? []).map((l) => topUpOf(l.item_price)).filter((t): t is TTopUp => t !== null);
}

/** What Settings → Billing shows: the plan, its status, usage against quotas, top-ups. */
export async function billingState(deps: BillingDeps, businessId: number): Promise<TBillingState> {
  const { enabled, account, period, usage } = await usageOf(deps.db, businessId);
  const status = account?.status ?? 'inactive';
  let topUps: TTopUp[] = [];
  let topUpsError: string | null = null;
  if (enabled && deps.config.CHARGEBEE_SITE) {
    try {
      topUps = await listTopUps(deps);
    } catch (err) {
      deps.logger.warn({ err }, 'chargebee top-ups could not be listed');
      topUpsError = BILLING_ERRORS.unreachable;
    }
  }
  return {
    enabled,
    status,
    can_send: !enabled || canSend(status),
    plan: account?.planItemPriceId
      ? { id: account.planItemPriceId, name: account.planName ?? account.planItemPriceId }
      : null,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    usage,
    top_ups: topUps,
    top_ups_error: topUpsError,
  };
}

/** Credits a top-up's units to the current period, once per invoice. */
async function creditTopUp(deps: BillingDeps, invoiceId: string, invoiceStatus: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const topUp = await repo.markTopUpCredited(tx, invoiceId, invoiceStatus);
    if (!topUp) return false;
    const account = await repo.findAccount(tx, topUp.business_id);
    const period = periodOf(account);
    await repo.addExtra(
      tx,
      { businessId: topUp.business_id, channel: topUp.channel, periodStart: period.start },
      topUp.units,
    );
    return true;
  });
}

/** A one-off charge for a top-up: credited at once when Chargebee collects it, else on payment. */
export async function chargeTopUp(
  deps: BillingDeps,
  businessId: number,
  topUpId: string,
  createdBy: number | null,
): Promise<TChargeResult> {
  const account = await ensureCustomer(deps, businessId);
  const cb = chargebee(deps);
  let topUp: TTopUp | null = null;
  try {
    const { item_price: price } = await chargebeeCall<{ item_price: CbItemPrice }>(
      cb,
      'GET',
      `/item_prices/${encodeURIComponent(topUpId)}`,
    );
    topUp = price.item_type === 'charge' && price.status !== 'archived' ? topUpOf(price) : null;
  } catch (err) {
    if (!(err instanceof ChargebeeError && err.status === 404)) throw failed(err);
  }
  if (!topUp) throw AppError.fields({ top_up: [BILLING_ERRORS.unknownTopUp] });
  let invoice: CbInvoice;
  try {
    ({ invoice } = await chargebeeCall<{ invoice: CbInvoice }>(
      cb,
      'POST',
      '/invoices/create_for_charge_items_and_charges',
      {
        customer_id: account.customerId,
        'item_prices[item_price_id][0]': topUp.id,
        'item_prices[quantity][0]': 1,
      },
    ));
  } catch (err) {
    throw failed(err);
  }
  await repo.insertTopUp(deps.db, {
    invoiceId: invoice.id,
    businessId,
    itemPriceId: topUp.id,
    channel: topUp.channel,
    units: topUp.units,
    status: invoice.status,
    createdBy,
  });
  const credited = invoice.status === 'paid' ? await creditTopUp(deps, invoice.id, invoice.status) : false;
  return {
    invoice_id: invoice.id,
    invoice_status: invoice.status,
    channel: topUp.channel,
    units: topUp.units,
    credited,
  };
}

// ---- The webhook ----

/** Chargebee's webhook authenticates with the basic-auth credentials it was configured with. */
export function webhookAuthorized(deps: BillingDeps, header: string | undefined): boolean {
  const { CHARGEBEE_WEBHOOK_USERNAME: user, CHARGEBEE_WEBHOOK_PASSWORD: password } = deps.config;
  if (!user || !password || !header?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared, whatever the first answers: no early exit to time.
  const userOk = safeEqual(decoded.slice(0, colon), user);
  const passwordOk = safeEqual(decoded.slice(colon + 1), password);
  return userOk && passwordOk;
}

/**
 * Failed credential checks one IP may make in a window: the password is all that guards the
 * webhook, so guessing it is slowed like a login. Only failures count, so Chargebee's own
 * deliveries, however many, never use the allowance up.
 */
export const WEBHOOK_FAILURES = { max: 10, windowSeconds: 15 * 60 } as const;

/** 429 for an IP that failed too often, 401 for wrong credentials (counted); else nothing. */
export async function authorizeWebhook(
  deps: BillingDeps,
  header: string | undefined,
  ip: string,
): Promise<void> {
  const failures = { key: `chargebee-webhook:ip:${ip}`, ...WEBHOOK_FAILURES };
  await deps.limiter.check(failures);
  if (webhookAuthorized(deps, header)) return;
  await deps.limiter.hit(failures);
  throw new AppError('unauthorized', BILLING_ERRORS.webhookCredentials, null, {
    'www-authenticate': 'Basic realm="chargebee-webhook"',
  });
}

function titanStatus(eventType: string, chargebeeStatus: string): TSubscriptionStatus {
  if (eventType === 'subscription_deleted') return 'inactive';
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(chargebeeStatus)
    ? (chargebeeStatus as TSubscriptionStatus)
    : 'inactive'; // `future`: not started yet
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown_customer' | 'credited' | 'ignored';

/**
 * One event, once (by its id), in order: a subscription older than the one kept (Chargebee's
 * `resource_version`) changes nothing. Answers what was done with it.
 */
export async function acceptWebhook(deps: BillingDeps, event: CbEvent): Promise<WebhookOutcome> {
  const sub = event.content?.subscription;
  const invoice = event.content?.invoice;
  let outcome: WebhookOutcome | null = null;
  if (sub?.id && sub.customer_id) outcome = await applySubscription(deps, event, sub);
  // A paid invoice (payment_succeeded, invoice_updated…, with or without a subscription) credits
  // its top-up, once per invoice.
  if (invoice?.id && invoice.status === 'paid' && outcome !== 'duplicate') {
    if (outcome === null) {
      outcome = await keep(deps, event, null, 'credited');
      if (outcome === 'duplicate') return outcome;
    }
    const credited = await creditTopUp(deps, invoice.id, invoice.status);
    if (outcome === 'credited' && !credited) return 'ignored'; // already credited by another event
    return outcome === 'applied' || !credited ? outcome : 'credited';
  }
  return outcome ?? keep(deps, event, null, 'ignored');
}

async function applySubscription(
  deps: BillingDeps,
  event: CbEvent,
  sub: CbSubscription,
): Promise<WebhookOutcome> {
  const known = await repo.findAccountByCustomer(deps.db, sub.customer_id);
  if (!known) return keep(deps, event, null, 'unknown_customer');
  // Chargebee's resource_version orders changes; without it, when the subscription (or the event) was made.
  const version = sub.resource_version ?? (sub.updated_at ?? event.occurred_at ?? 0) * 1000;
  if (version <= known.resourceVersion) return keep(deps, event, known.businessId, 'stale');
  // Read from Chargebee before the transaction: no lock is held over the network.
  let plan: Awaited<ReturnType<typeof quotasOf>>;
  try {
    plan = await quotasOf(deps, sub);
  } catch (err) {
    throw failed(err); // 502: Chargebee delivers the event again later
  }
  return deps.db.transaction(async (tx) => {
    const account = await repo.findAccountByCustomer(tx, sub.customer_id, { lock: true });
    if (!account) return 'unknown_customer' as const;
    const fresh = await repo.insertWebhookEvent(tx, {
      id: event.id,
      type: event.event_type,
      businessId: account.businessId,
      outcome: 'applied',
    });
    if (!fresh) return 'duplicate' as const;
    if (version <= account.resourceVersion) return 'stale' as const;
    const status = titanStatus(event.event_type, sub.status);
    await repo.updateSubscription(tx, account.businessId, {
      subscriptionId: sub.id,
      status,
      planItemPriceId: plan.planId,
      planName: plan.planName,
      quotas: plan.quotas,
      currentTermStart: sub.current_term_start ? new Date(sub.current_term_start * 1000) : null,
      currentTermEnd: sub.current_term_end ? new Date(sub.current_term_end * 1000) : null,
      resourceVersion: version,
    });
    await deps.business.setSubscriptionStatus(tx, account.businessId, status);
    return 'applied' as const;
  });
}

async function keep(
  deps: BillingDeps,
  event: CbEvent,
  businessId: number | null,
  outcome: WebhookOutcome,
): Promise<WebhookOutcome> {
  const fresh = await repo.insertWebhookEvent(deps.db, {
    id: event.id,
    type: event.event_type,
    businessId,
    outcome,
  });
  return fresh ? outcome : 'duplicate';
}
