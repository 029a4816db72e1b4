// The optional outside analytics provider (spec: "GET of web config for an app id with an API key
// header"; a 60 s timeout, retries on HTTP 429, 500, 503 and 504 with backoff). Off unless
// ANALYTICS_PROVIDER_URL, ANALYTICS_APP_ID and ANALYTICS_API_KEY are set: first-party error
// reports (POST /api/analytics/events/) stay the default, and stay on beside a provider.
// The call goes through platform/safe-fetch.ts like every outbound call.
import type { Config } from '../../config';
import { safeFetch, type OutboundDeps } from '../../platform/safe-fetch';

export type AnalyticsProviderConfig = Pick<
  Config,
  'ANALYTICS_PROVIDER_URL' | 'ANALYTICS_APP_ID' | 'ANALYTICS_API_KEY' | 'ANALYTICS_API_KEY_HEADER'
>;

export type WebConfigDeps = {
  config: AnalyticsProviderConfig;
  outbound: Pick<OutboundDeps, 'guarded' | 'publicUrl' | 'resolveHost'>;
  /** Per attempt (the spec's 60 s). */
  timeoutMs?: number;
  /** Waits between attempts (tests shorten them). */
  backoffMs?: (attempt: number) => number;
  sleep?: (ms: number) => Promise<void>;
};

export const WEB_CONFIG_TIMEOUT_MS = 60_000;
export const WEB_CONFIG_RETRY_STATUSES = new Set([429, 500, 503, 504]);
export const WEB_CONFIG_ATTEMPTS = 4;

/** 1 s, 2 s, 4 s … (a Retry-After in seconds wins when the provider sends one, up to 60 s). */
const defaultBackoff = (attempt: number) => 1000 * 2 ** (attempt - 1);

export type WebConfigAnswer =
  | { provider: 'first_party' }
  | { provider: 'external'; app_id: string; config: unknown }
  | { provider: 'external'; app_id: string; config: null; error: string };

/** The URL of the app's web config: `<ANALYTICS_PROVIDER_URL>/apps/<app id>/web-config`. */
export function webConfigUrl(config: AnalyticsProviderConfig): string | null {
  if (!config.ANALYTICS_PROVIDER_URL || !config.ANALYTICS_APP_ID || !config.ANALYTICS_API_KEY) return null;
  const base = config.ANALYTICS_PROVIDER_URL.replace(/\/+$/, '');
  return `${base}/apps/${encodeURIComponent(config.ANALYTICS_APP_ID)}/web-config`;
}

/** Reads the provider's web config, retrying as the spec says; first-party when none is set up. */
export async function fetchWebConfig(deps: WebConfigDeps): Promise<WebConfigAnswer> {
  const url = webConfigUrl(deps.config);
  if (!url) return { provider: 'first_party' };
  const appId = deps.config.ANALYTICS_APP_ID!;
  const fetchFn = safeFetch({ ...deps.outbound });
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const backoff = deps.backoffMs ?? defaultBackoff;
  let last = '';
  for (let attempt = 1; attempt <= WEB_CONFIG_ATTEMPTS; attempt++) {
    let retryAfterMs: number | null = null;
    try {
      const res = await fetchFn(url, {
        headers: {
          [deps.config.ANALYTICS_API_KEY_HEADER]: deps.config.ANALYTICS_API_KEY!,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(deps.timeoutMs ?? WEB_CONFIG_TIMEOUT_MS),
      });
      if (res.ok) return { provider: 'external', app_id: appId, config: await res.json() };
      last = `The analytics provider answered HTTP ${res.status}.`;
      await res.body?.cancel();
      if (!WEB_CONFIG_RETRY_STATUSES.has(res.status)) break;
      const after = Number(res.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) retryAfterMs = Math.min(after, 60) * 1000;
    } catch (err) {
      last =
        err instanceof Error && err.name === 'TimeoutError'
          ? 'The analytics provider did not answer within 60 seconds.'
          : 'The analytics provider could not be reached.';
    }
    if (attempt < WEB_CONFIG_ATTEMPTS) await sleep(retryAfterMs ?? backoff(attempt));
  }
  return { provider: 'external', app_id: appId, config: null, error: last };
}
