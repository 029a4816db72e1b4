// Types for provider.mjs (plain JavaScript, so that `node server.mjs` runs it without a build).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** oidc-provider client metadata; these are the fields Titan's setups use. */
export type DevClient = {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
  redirect_uris: string[];
  response_types?: string[];
  grant_types?: string[];
};

export type DevProviderOptions = {
  issuer: string;
  clients: DevClient[];
  /** Also put email and profile claims into the ID token (default: userinfo only). */
  idTokenClaims?: boolean;
};

export type DevProvider = {
  issuer: string;
  /** The oidc-provider instance, for anything the helpers here do not cover. */
  provider: unknown;
  handler(req: IncomingMessage, res: ServerResponse): void;
};

export type RunningDevProvider = {
  issuer: string;
  port: number;
  provider: unknown;
  close(): Promise<void>;
};

export function subjectFor(email: string): string;
export function createDevProvider(options: DevProviderOptions): DevProvider;
export function startDevProvider(
  options: Omit<DevProviderOptions, 'issuer'> & { host?: string; port?: number },
): Promise<RunningDevProvider>;
