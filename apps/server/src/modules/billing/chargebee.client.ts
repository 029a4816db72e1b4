// Chargebee's API v2 as Titan calls it: form-encoded bodies with bracketed keys
// (`customer[id]`, `item_prices[item_price_id][0]`), basic auth with the API key as the user name,
// JSON answers, errors as `{message, type, api_error_code, param, http_status_code}`.
export type ChargebeeConfig = { apiUrl: string; apiKey: string };

export class ChargebeeError extends Error {
  constructor(
    readonly status: number,
    readonly apiErrorCode: string | null,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'ChargebeeError';
  }
}

export type Params = Record<string, string | number | boolean | undefined | null>;

const TIMEOUT_MS = 10_000;

export function chargebeeApiUrl(site: string, override: string | undefined): string {
  return override ?? `https://${site}.chargebee.com/api/v2`;
}

export async function chargebeeCall<T>(
  cfg: ChargebeeConfig,
  method: 'GET' | 'POST',
  path: string,
  params: Params = {},
): Promise<T> {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) form.append(key, String(value));
  }
  const query = method === 'GET' && [...form.keys()].length > 0 ? `?${form.toString()}` : '';
  let res: Response;
  try {
    res = await fetch(`${cfg.apiUrl}${path}${query}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${cfg.apiKey}:`).toString('base64')}`,
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: form.toString() } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new ChargebeeError(0, null, `Chargebee could not be reached: ${(err as Error).message}`);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const e = (body ?? {}) as { message?: string; api_error_code?: string; param?: string };
    throw new ChargebeeError(
      res.status,
      e.api_error_code ?? null,
      e.message ?? `HTTP ${res.status}`,
      e.param ?? null,
    );
  }
  return body as T;
}

// ---- The resources Titan reads (the fields it uses) ----

export type CbSubscription = {
  id: string;
  customer_id: string;
  status: string;
  current_term_start?: number;
  current_term_end?: number;
  resource_version?: number;
  updated_at?: number;
  subscription_items?: { item_price_id: string; item_type: string }[];
};

export type CbItemPrice = {
  id: string;
  name: string;
  external_name?: string;
  item_type: string;
  price?: number;
  currency_code?: string;
  status?: string;
  metadata?: Record<string, unknown>;
};

export type CbInvoice = { id: string; customer_id: string; status: string; total?: number };

export type CbEvent = {
  id: string;
  event_type: string;
  occurred_at?: number;
  content?: { subscription?: CbSubscription; invoice?: CbInvoice; customer?: { id: string } };
};
