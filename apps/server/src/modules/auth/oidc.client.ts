// Titan's side of the configured OpenID provider (openid-client): discovery, found lazily and kept,
// and the authorization code exchange that answers the signed-in person's claims.
import type { TOAuthProvider } from '@titan/contracts';
import * as oidc from 'openid-client';
import { isLoopbackHost, type Config } from '../../config';

export const OIDC_PROVIDER_ID = 'oidc';
export const OIDC_SCOPE = 'openid email profile';
/** Seconds for each request to the provider: the sign-in screen waits on discovery. */
const REQUEST_TIMEOUT_SECONDS = 5;

export type OidcSettings = {
  issuer: string;
  clientId: string;
  /** Unset for a public client, which proves itself with PKCE alone. */
  clientSecret?: string | undefined;
  label: string;
};

/** What Titan uses from the ID token (or userinfo), validated and typed. */
export type OidcClaims = {
  sub: string;
  email: string | null;
  /** True only when the provider says so with a JSON `true`. */
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  /** How the provider authenticated the user (RFC 8176); `mfa`, `otp`, `hwk` count as a second factor. */
  amr: string[];
};

/** The provider refused or could not complete the exchange; `cause` says why (for the log only). */
export class OidcExchangeError extends Error {
  constructor(cause: unknown) {
    super('OpenID Connect authorization code exchange failed', { cause });
    this.name = 'OidcExchangeError';
  }
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export class OidcClient {
  readonly id = OIDC_PROVIDER_ID;
  private discovered: oidc.Configuration | null = null;
  private pending: Promise<oidc.Configuration> | null = null;

  constructor(readonly settings: OidcSettings) {}

  /** The discovered configuration: fetched on first use and kept; a failure is retried next time. */
  configuration(): Promise<oidc.Configuration> {
    if (this.discovered) return Promise.resolve(this.discovered);
    this.pending ??= this.discover()
      .then((found) => (this.discovered = found))
      .finally(() => (this.pending = null));
    return this.pending;
  }

  private discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const secret = this.settings.clientSecret;
    // Plain http is for a provider on this machine (tools/oidc-dev) and nowhere else.
    const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
    return oidc.discovery(
      issuer,
      this.settings.clientId,
      secret ? { client_secret: secret } : undefined,
      secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
      { timeout: REQUEST_TIMEOUT_SECONDS, execute: insecure ? [oidc.allowInsecureRequests] : [] },
    );
  }

  /** What the sign-in screen needs to send the browser to the provider. */
  async describe(): Promise<TOAuthProvider> {
    const metadata = (await this.configuration()).serverMetadata();
    if (!metadata.authorization_endpoint) {
      throw new Error(`${this.settings.issuer} publishes no authorization_endpoint`);
    }
    return {
      id: this.id,
      label: this.settings.label,
      authorization_endpoint: metadata.authorization_endpoint,
      client_id: this.settings.clientId,
      scope: OIDC_SCOPE,
    };
  }

  /**
   * Redeems an authorization code at the token endpoint with the PKCE verifier, validates the ID
   * token (signature, issuer, audience, expiry) and answers the claims, asking userinfo for them
   * when the ID token carries no email. Every failure is an OidcExchangeError.
   */
  async exchange(input: {
    redirectUri: string;
    code: string;
    codeVerifier: string;
    state?: string | undefined;
  }): Promise<OidcClaims> {
    try {
      const config = await this.configuration();
      const metadata = config.serverMetadata();
      const callback = new URL(input.redirectUri);
      callback.searchParams.set('code', input.code);
      if (input.state) callback.searchParams.set('state', input.state);
      // RFC 9207: providers that announce it add `iss` to the redirect, and openid-client insists on
      // it. The browser hands Titan only code and state; with one provider configured there is no
      // other issuer to mix this one up with, so the expected issuer is supplied here.
      if (metadata.authorization_response_iss_parameter_supported)
        callback.searchParams.set('iss', metadata.issuer);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state || undefined,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('the token response carried no ID token');
      const claims: Record<string, unknown> =
        text(idToken.email) === null
          ? { ...idToken, ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)) }
          : idToken;
      return {
        sub: idToken.sub,
        email: text(claims.email),
        emailVerified: claims.email_verified === true,
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
        name: text(claims.name),
        amr: Array.isArray(idToken.amr) ? idToken.amr.filter((m): m is string => typeof m === 'string') : [],
      };
    } catch (err) {
      throw new OidcExchangeError(err);
    }
  }
}

/** The configured provider, or null when OIDC sign-in is off (OIDC_ISSUER unset). */
export function createOidcClient(
  config: Pick<Config, 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_LABEL'>,
): OidcClient | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return null;
  return new OidcClient({
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    label: config.OIDC_LABEL,
  });
}
