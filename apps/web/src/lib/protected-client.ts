// The protected HTTP client (spec sections 4, 7, 8): the public client's behaviour (X-Business-Code
// included) plus a fresh access token as Bearer before every request (refreshing first when needed),
// and logout when the server answers 401 or the session can no longer be renewed.
import { isAxiosError, type InternalAxiosRequestConfig } from 'axios';

import { MFA_ENROLMENT_REQUIRED } from '@titan/contracts';

import { TWO_FACTOR_SETUP_PATH } from '../config/paths';
import { createApiClient } from './api-client';
import { HandledApiError } from './api-errors';
import { logout } from './session/logout';
import { ensureAccessToken } from './session/refresh';

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;

/**
 * A business of the user requires 2FA and they have none: every call but the enrolment ones is
 * refused (403, `result.code` mfa_enrolment_required) until they set it up, so go there.
 */
function enrolOnMfaRequired(error: unknown): Promise<never> {
  if (isAxiosError(error) && error.response?.status === FORBIDDEN) {
    const body: unknown = error.response.data;
    const result = typeof body === 'object' && body !== null && 'result' in body ? body.result : null;
    if (
      typeof result === 'object' &&
      result !== null &&
      'code' in result &&
      result.code === MFA_ENROLMENT_REQUIRED
    ) {
      if (window.location.pathname !== TWO_FACTOR_SETUP_PATH) window.location.assign(TWO_FACTOR_SETUP_PATH);
      return Promise.reject(new HandledApiError('mfa_enrolment_required', { cause: error }));
    }
  }
  return Promise.reject(error);
}

/** A refresh that the server refused (or no refresh token at all) means the session is over. */
function sessionEnded(error: HandledApiError): boolean {
  if (error.reason !== 'refresh_failed') return false;
  const cause = error.cause;
  return cause === undefined || (isAxiosError(cause) && cause.response?.status === UNAUTHORIZED);
}

async function authorize(config: InternalAxiosRequestConfig): Promise<InternalAxiosRequestConfig> {
  let access: string;
  try {
    access = await ensureAccessToken();
  } catch (failure) {
    if (failure instanceof HandledApiError && sessionEnded(failure)) {
      void logout('session-ended');
      throw new HandledApiError('logged_out', { cause: failure });
    }
    throw failure;
  }
  config.headers.set('Authorization', `Bearer ${access}`);
  return config;
}

function logoutOnUnauthorized(error: unknown): Promise<never> {
  if (isAxiosError(error) && error.response?.status === UNAUTHORIZED) {
    void logout('session-ended');
    return Promise.reject(new HandledApiError('logged_out', { cause: error }));
  }
  return Promise.reject(error);
}

export const protectedClient = createApiClient();
protectedClient.interceptors.request.use(authorize);
protectedClient.interceptors.response.use(undefined, logoutOnUnauthorized);
protectedClient.interceptors.response.use(undefined, enrolOnMfaRequired);
