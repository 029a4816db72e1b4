// The protected HTTP client (spec sections 4, 7, 8): the public client's behaviour (X-Business-Code
// included) plus a fresh access token as Bearer before every request (refreshing first when needed),
// and logout when the server answers 401 or the session can no longer be renewed.
import { isAxiosError, type InternalAxiosRequestConfig } from 'axios';

import { createApiClient } from './api-client';
import { HandledApiError } from './api-errors';
import { logout } from './session/logout';
import { ensureAccessToken } from './session/refresh';

const UNAUTHORIZED = 401;

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
