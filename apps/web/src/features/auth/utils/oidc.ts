// OpenID Connect sign-in with authorization code + PKCE (RFC 7636, S256). The verifier, state and
// return path wait in sessionStorage (this tab only) until the provider sends the browser back to
// /auth-flow.
import type { TLoginAnswer, TOAuthProvider } from '@titan/contracts';
import { z } from 'zod';

import { AUTH_FLOW_PATH } from '../../../config/paths';
import { oauthLogin } from '../api/oauth-login';
import { AUTH_STRINGS } from '../strings';

export const OIDC_ATTEMPT_KEY = 'titan.oidc-attempt';

const ZOidcAttempt = z.object({
  provider: z.string(),
  state: z.string(),
  verifier: z.string(),
  next: z.string().nullable(),
});
export type TOidcAttempt = z.infer<typeof ZOidcAttempt>;

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes → 43 URL-safe characters: a valid PKCE verifier and an unguessable state. */
export function randomUrlSafe(byteCount = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(byteCount)));
}

export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

export function oidcRedirectUri(): string {
  return `${window.location.origin}${AUTH_FLOW_PATH}`;
}

/** Builds the provider's authorization URL and remembers what /auth-flow needs to finish. */
export async function beginOidcSignIn(provider: TOAuthProvider, next: string | null): Promise<string> {
  const attempt: TOidcAttempt = {
    provider: provider.id,
    state: randomUrlSafe(),
    verifier: randomUrlSafe(),
    next,
  };
  const url = new URL(provider.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.client_id);
  url.searchParams.set('redirect_uri', oidcRedirectUri());
  url.searchParams.set('scope', provider.scope);
  url.searchParams.set('state', attempt.state);
  url.searchParams.set('code_challenge', await s256Challenge(attempt.verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  window.sessionStorage.setItem(OIDC_ATTEMPT_KEY, JSON.stringify(attempt));
  return url.toString();
}

/** The attempt started in this tab, removed so that a code can be exchanged only once. */
export function takeOidcAttempt(): TOidcAttempt | null {
  const raw = window.sessionStorage.getItem(OIDC_ATTEMPT_KEY);
  window.sessionStorage.removeItem(OIDC_ATTEMPT_KEY);
  if (!raw) return null;
  try {
    const parsed = ZOidcAttempt.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A sign-in response this tab cannot accept; its message is for the person. */
export class OidcFlowError extends Error {
  override name = 'OidcFlowError';
}

/**
 * Finishes the flow from the query string the provider sent back: the state must match the attempt
 * started in this tab; then the code and verifier are exchanged for a session.
 */
export async function completeOidcSignIn(
  search: URLSearchParams,
): Promise<{ result: TLoginAnswer; next: string | null }> {
  const attempt = takeOidcAttempt();
  const providerError = search.get('error');
  if (providerError) {
    throw new OidcFlowError(
      AUTH_STRINGS.authFlowProviderError(search.get('error_description') ?? providerError),
    );
  }
  const state = search.get('state');
  if (!attempt || !state || attempt.state !== state)
    throw new OidcFlowError(AUTH_STRINGS.authFlowStateMismatch);
  const code = search.get('code');
  if (!code) throw new OidcFlowError(AUTH_STRINGS.authFlowMissingCode);
  const result = await oauthLogin({
    provider: attempt.provider,
    code,
    redirect_uri: oidcRedirectUri(),
    code_verifier: attempt.verifier,
    state,
  });
  return { result, next: attempt.next };
}
