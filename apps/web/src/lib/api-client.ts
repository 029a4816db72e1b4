// The HTTP clients for the Titan API (spec section 7): the public client here, the protected one in
// protected-client.ts. Both: same origin, 5000 ms timeout, JSON in and out, X-Business-Code when the
// business code cookie is set (spec sections 6 and 7), and a 402 answer with a dialog opens the
// blocker modal and ends the request as handled (spec section 8).
import { BUSINESS_CODE_HEADER, REQUEST_TIMEOUT_MS, ZPaymentRequiredResult } from '@titan/contracts';
import axios, { isAxiosError, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';

import { useBlockerModalStore } from '../stores/blocker-modal';
import { HandledApiError } from './api-errors';
import { readBusinessCode } from './session/tokens';

const PAYMENT_REQUIRED = 402;

function openBlockerOnPaymentRequired(error: unknown): Promise<never> {
  if (isAxiosError(error) && error.response?.status === PAYMENT_REQUIRED) {
    const body: unknown = error.response.data;
    const result = typeof body === 'object' && body !== null && 'result' in body ? body.result : null;
    const parsed = ZPaymentRequiredResult.safeParse(result);
    if (parsed.success) {
      useBlockerModalStore.getState().show(parsed.data.dialog);
      return Promise.reject(new HandledApiError('payment_required', { cause: error }));
    }
  }
  return Promise.reject(error);
}

/** A request without a body must not claim a JSON one: the server refuses an empty JSON body (400),
 * so DELETEs and bodyless POSTs would fail. `false` keeps axios from adding a default type too. */
function noContentTypeWithoutBody(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  if (config.data === undefined || config.data === null) config.headers.set('Content-Type', false);
  return config;
}

/** Read per request: the cookie changes when the user switches business. */
function withBusinessCode(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  const businessCode = readBusinessCode();
  if (businessCode) config.headers.set(BUSINESS_CODE_HEADER, businessCode);
  return config;
}

export function createApiClient(): AxiosInstance {
  const client = axios.create({
    // Absolute same-origin base: fetch (unlike XHR) needs it outside a browser, e.g. in tests.
    baseURL: typeof window === 'undefined' ? '' : window.location.origin,
    // fetch rather than XHR: timeouts abort the request through an AbortSignal.
    adapter: 'fetch',
    timeout: REQUEST_TIMEOUT_MS,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
  });
  client.interceptors.request.use(noContentTypeWithoutBody);
  client.interceptors.request.use(withBusinessCode);
  client.interceptors.response.use(undefined, openBlockerOnPaymentRequired);
  return client;
}

/** For calls made without a session: sign-up, login, refresh, password reset, invitation lookup. */
export const publicClient = createApiClient();
