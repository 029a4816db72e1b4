// Plugins (engage.md §6): manifests (name, description, auth oauth2 or api_key, tools described by
// JSON Schema and answered by one HTTPS call each) in a catalogue (`/api/plugins/`), connected by a
// user for the business (`/api/user-plugins/`, OAuth plugins through `…/callback/`). Keys and tokens
// are sealed, never answered (a signing secret Titan makes is shown once, at creation). Calls follow
// the SSRF rules of every outside call.
import { createHmac } from 'node:crypto';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  PLUGIN_CALLBACK_PATH,
  PLUGIN_ERRORS,
  type TFieldErrors,
  type TOAuthCallbackRequest,
  type TPlugin,
  type TPluginManifest,
  type TUserPlugin,
  type TUserPluginRequest,
  type TUserPluginUpdate,
  ZUserPluginRequest,
} from '@titan/contracts';
import { randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { outboundErrorWords, outboundUrlProblem, safeFetch } from '../../platform/safe-fetch';
import {
  checkIssuer,
  codeRefused,
  GrantExpired,
  newConnectState,
  type OAuthDeps,
  refreshWithLease,
  requireUser,
  sealTokens,
  takeConnectState,
  tellConnectionExpired,
} from '../outside-connections';
import { toolInfos } from '../mcp-servers';
import { BUILTIN_PLUGINS } from './plugins.manifests';
import * as repo from './plugins.repository';
import { lazy } from '../../platform/lazy';

/** The MCP SDK's OAuth client (~5.5 MB of heap) only once a plugin is connected or refreshed. */
const oauthSdk = lazy(() => import('@modelcontextprotocol/sdk/client/auth.js'));

export type PluginDeps = OAuthDeps & { timeoutMs?: number; pluginManifests?: TPluginManifest[] };
export type { PluginConnectionRow } from './plugins.repository';
type Row = repo.PluginConnectionRow;
type OAuth2 = Extract<TPluginManifest['auth'], { type: 'oauth2' }>;

const DEFAULT_TIMEOUT_MS = 30_000;
const CALL_MARGIN_MS = 60_000;
/** What a tool answer may weigh before it is cut (the model reads it). */
const MAX_ANSWER_CHARS = 20_000;

const notFound = () => new AppError('not_found', 'Not found.');
const redirectUriOf = (deps: Pick<PluginDeps, 'publicUrl'>) =>
  `${deps.publicUrl.replace(/\/+$/, '')}${PLUGIN_CALLBACK_PATH}`;

export function pluginCatalogue(deps: Pick<PluginDeps, 'pluginManifests'>): TPluginManifest[] {
  return [...BUILTIN_PLUGINS, ...(deps.pluginManifests ?? [])];
}

function manifestOf(deps: PluginDeps, id: string): TPluginManifest | null {
  return pluginCatalogue(deps).find((m) => m.id === id) ?? null;
}

/** Why a plugin cannot be connected on this server, or null. */
function unavailableReason(m: TPluginManifest): string | null {
  if (m.auth.type !== 'oauth2') return null;
  if (!m.auth.client_id) return `${PLUGIN_ERRORS.unavailable} Its OAuth client id is not configured.`;
  if (m.auth.client_secret_env && !process.env[m.auth.client_secret_env])
    return `${PLUGIN_ERRORS.unavailable} ${m.auth.client_secret_env} is not set.`;
  return null;
}

export function listPlugins(deps: PluginDeps): TPlugin[] {
  return pluginCatalogue(deps).map((m) => ({
    id: m.id,
    name: m.name,
    description: m.description,
    auth_type: m.auth.type,
    api_key_required: m.auth.type === 'api_key' && m.auth.placement === 'bearer',
    settings: m.settings,
    tools: m.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
    available: unavailableReason(m) === null,
    unavailable_reason: unavailableReason(m),
  }));
}

export const pluginToolsOf = (m: TPluginManifest) =>
  m.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema }));

function present(deps: PluginDeps, row: Row, signingSecret?: string): TUserPlugin {
  const m = manifestOf(deps, row.plugin);
  return {
    id: row.id,
    plugin: row.plugin,
    plugin_name: m?.name ?? row.plugin,
    name: row.name,
    settings: row.settings,
    status: m ? row.status : 'error',
    last_error: m ? row.lastError : 'This plugin is no longer in the catalogue.',
    has_key: !!row.keySealed || !!row.accessTokenSealed,
    tools: m ? toolInfos(row.id, pluginToolsOf(m), 'plugin') : [],
    connected_by: row.connectedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(signingSecret ? { signing_secret: signingSecret } : {}),
  };
}

/** The manifest's settings from `given`: required ones present, URLs callable. */
async function checkedSettings(
  deps: PluginDeps,
  m: TPluginManifest,
  given: Record<string, string>,
): Promise<Record<string, string>> {
  const errors: TFieldErrors = {};
  const out: Record<string, string> = {};
  for (const s of m.settings) {
    const value = given[s.name]?.trim();
    if (!value) {
      if (s.required) errors[`settings.${s.name}`] = [PLUGIN_ERRORS.settingRequired];
      continue;
    }
    if (s.type === 'url') {
      const problem = await outboundUrlProblem(deps, value);
      if (problem) errors[`settings.${s.name}`] = [problem];
    }
    out[s.name] = value;
  }
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  return out;
}

export async function listUserPlugins(deps: PluginDeps, businessId: number): Promise<TUserPlugin[]> {
  return (await repo.listConnections(deps.db, businessId)).map((r) => present(deps, r));
}

export async function listPluginRows(deps: Pick<PluginDeps, 'db'>, businessId: number): Promise<Row[]> {
  return repo.listConnections(deps.db, businessId);
}

export async function findPluginRow(
  deps: Pick<PluginDeps, 'db'>,
  businessId: number,
  id: number,
): Promise<Row | null> {
  return repo.findConnection(deps.db, businessId, id);
}

export async function getUserPlugin(deps: PluginDeps, businessId: number, id: number): Promise<TUserPlugin> {
  const row = await repo.findConnection(deps.db, businessId, id);
  if (!row) throw notFound();
  return present(deps, row);
}

export async function createUserPlugin(
  deps: PluginDeps,
  businessId: number,
  userId: number | null,
  input: TUserPluginRequest,
): Promise<TUserPlugin> {
  const body = ZUserPluginRequest.parse(input);
  const m = manifestOf(deps, body.plugin);
  if (!m) throw AppError.fields({ plugin: [PLUGIN_ERRORS.unknownPlugin] });
  const unavailable = unavailableReason(m);
  if (unavailable) throw AppError.fields({ plugin: [unavailable] });
  const settings = await checkedSettings(deps, m, body.settings);
  let key: string | null = null;
  let generated: string | undefined;
  if (m.auth.type === 'api_key') {
    if (body.api_key) key = body.api_key;
    else if (m.auth.placement === 'signature') key = generated = randomToken(32);
    else throw AppError.fields({ api_key: [PLUGIN_ERRORS.apiKeyRequired] });
  }
  const row = await repo.insertConnection(deps.db, {
    businessId,
    plugin: m.id,
    name: body.name ?? m.name,
    settings,
    status: m.auth.type === 'oauth2' ? 'pending_oauth' : 'connected',
    keySealed: key ? deps.secrets.seal(key) : null,
    connectedBy: userId,
  });
  return present(deps, row, generated);
}

export async function updateUserPlugin(
  deps: PluginDeps,
  businessId: number,
  id: number,
  body: TUserPluginUpdate,
): Promise<TUserPlugin> {
  const row = await repo.findConnection(deps.db, businessId, id);
  if (!row) throw notFound();
  const m = manifestOf(deps, row.plugin);
  if (!m) throw AppError.fields({ plugin: [PLUGIN_ERRORS.unknownPlugin] });
  const settings = body.settings ? await checkedSettings(deps, m, body.settings) : undefined;
  if (body.api_key !== undefined && m.auth.type !== 'api_key')
    throw AppError.fields({ api_key: [PLUGIN_ERRORS.notOauth] });
  let generated: string | undefined;
  let credentials: Partial<repo.NewPluginConnection> = {};
  if (body.api_key) {
    credentials = { keySealed: deps.secrets.seal(body.api_key), status: 'connected', lastError: null };
  } else if (settings && movesCalls(m, row.settings, settings)) {
    // Credentials follow their URL: where the calls go changed, so the stored key or tokens stay
    // behind, and whoever may edit the connection cannot have them sent to a server of theirs.
    if (m.auth.type === 'oauth2') {
      credentials = {
        accessTokenSealed: null,
        refreshTokenSealed: null,
        tokenExpiresAt: null,
        status: 'pending_oauth',
        lastError: null,
      };
    } else if (m.auth.placement === 'signature') {
      generated = randomToken(32);
      credentials = { keySealed: deps.secrets.seal(generated), status: 'connected', lastError: null };
    } else {
      credentials = { keySealed: null, status: 'error', lastError: PLUGIN_ERRORS.apiKeyRequired };
    }
  }
  const updated = await repo.updateConnection(deps.db, businessId, id, {
    name: body.name,
    settings,
    ...credentials,
  });
  return present(deps, updated!, generated);
}

/**
 * Whether new settings send the plugin's calls elsewhere: a URL setting, or any setting a tool's
 * URL is built from, changed.
 */
function movesCalls(
  m: TPluginManifest,
  before: Record<string, string>,
  after: Record<string, string>,
): boolean {
  const inUrls = new Set(
    m.tools.flatMap((t) => [...t.http.url.matchAll(/\{settings\.([a-zA-Z0-9_.]+)\}/g)].map((x) => x[1]!)),
  );
  return m.settings.some(
    (s) => (s.type === 'url' || inUrls.has(s.name)) && (before[s.name] ?? '') !== (after[s.name] ?? ''),
  );
}

export async function deleteUserPlugin(deps: PluginDeps, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteConnection(deps.db, businessId, id))) throw notFound();
}

function oauthMetadata(auth: OAuth2): AuthorizationServerMetadata {
  return {
    issuer: auth.issuer ?? new URL(auth.authorization_endpoint).origin,
    authorization_endpoint: auth.authorization_endpoint,
    token_endpoint: auth.token_endpoint,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
  };
}

function clientInfoOf(auth: OAuth2) {
  const secret = auth.client_secret_env ? process.env[auth.client_secret_env] : undefined;
  return { client_id: auth.client_id!, ...(secret ? { client_secret: secret } : {}) };
}

function oauthManifest(deps: PluginDeps, row: Row): { m: TPluginManifest; auth: OAuth2 } {
  const m = manifestOf(deps, row.plugin);
  if (!m || m.auth.type !== 'oauth2') throw new AppError('conflict', PLUGIN_ERRORS.notOauth);
  const reason = unavailableReason(m);
  if (reason) throw new AppError('conflict', reason);
  return { m, auth: m.auth };
}

export async function connectUserPlugin(
  deps: PluginDeps,
  businessId: number,
  userId: number | null,
  id: number,
): Promise<{ authorization_url: string }> {
  const user = requireUser(userId);
  const row = await repo.findConnection(deps.db, businessId, id);
  if (!row) throw notFound();
  const { auth } = oauthManifest(deps, row);
  const problem = await outboundUrlProblem(deps, auth.token_endpoint);
  if (problem) throw new AppError('conflict', problem);
  const metadata = oauthMetadata(auth);
  const redirectUri = redirectUriOf(deps);
  const state = randomToken(32);
  const { authorizationUrl, codeVerifier } = await (
    await oauthSdk()
  ).startAuthorization(metadata.issuer, {
    metadata,
    clientInformation: { client_id: auth.client_id! },
    redirectUrl: redirectUri,
    state,
    ...(auth.resource ? { resource: new URL(auth.resource) } : {}),
    ...(auth.scopes.length ? { scope: auth.scopes.join(' ') } : {}),
  });
  await newConnectState(
    deps,
    {
      businessId,
      userId: user,
      kind: 'plugin',
      targetId: id,
      codeVerifier,
      redirectUri,
      issuer: auth.issuer ?? null,
    },
    state,
  );
  return { authorization_url: authorizationUrl.toString() };
}

export async function completeUserPluginOAuth(
  deps: PluginDeps,
  businessId: number,
  userId: number | null,
  body: TOAuthCallbackRequest,
): Promise<TUserPlugin> {
  const user = requireUser(userId);
  const state = await takeConnectState(deps, { businessId, userId: user, kind: 'plugin', state: body.state });
  const row = await repo.findConnection(deps.db, businessId, state.targetId);
  if (!row) throw notFound();
  const { auth } = oauthManifest(deps, row);
  checkIssuer(state.issuer, body.iss, false);
  let tokens;
  try {
    tokens = await (
      await oauthSdk()
    ).exchangeAuthorization(oauthMetadata(auth).issuer, {
      metadata: oauthMetadata(auth),
      clientInformation: clientInfoOf(auth),
      authorizationCode: body.code,
      codeVerifier: state.codeVerifier,
      redirectUri: state.redirectUri,
      ...(auth.resource ? { resource: new URL(auth.resource) } : {}),
      fetchFn: safeFetch(deps),
    });
  } catch (err) {
    const words = `The provider refused the code: ${outboundErrorWords(err)}`;
    await repo.updateConnection(deps.db, businessId, row.id, { status: 'error', lastError: words });
    throw codeRefused(err, words);
  }
  const connected = await repo.updateConnection(deps.db, businessId, row.id, {
    ...sealTokens(deps.secrets, tokens, null),
    status: 'connected',
    lastError: null,
    refreshLeaseUntil: null,
    connectedBy: user,
  });
  return present(deps, connected!);
}

/** An OAuth plugin's tokens good for `marginMs` more (refreshed one at a time); others as they are. */
export async function ensureFreshPlugin(
  deps: PluginDeps,
  row: Row,
  marginMs: number,
  rejected?: string | null,
): Promise<Row> {
  const m = manifestOf(deps, row.plugin);
  if (!m || m.auth.type !== 'oauth2') return row;
  const auth = m.auth;
  return refreshWithLease<Row>({
    secrets: deps.secrets,
    marginMs,
    rejected,
    connection: repo.leasedConnection(deps.db, row),
    onExpired: () =>
      tellConnectionExpired(deps, row.businessId, { kind: 'plugin', name: row.name, tab: 'plugins' }),
    refresh: async (_r, refreshToken) =>
      (await oauthSdk()).refreshAuthorization(oauthMetadata(auth).issuer, {
        metadata: oauthMetadata(auth),
        clientInformation: clientInfoOf(auth),
        refreshToken,
        ...(auth.resource ? { resource: new URL(auth.resource) } : {}),
        fetchFn: safeFetch(deps),
      }),
  });
}

/** The HTTP request a tool call makes: `{arg}` and `{settings.x}` filled in the URL, the rest as JSON or query. */
function requestOf(tool: TPluginManifest['tools'][number], settings: Record<string, string>, input: unknown) {
  const args = { ...((input ?? {}) as Record<string, unknown>) };
  const url = tool.http.url.replace(/\{([a-zA-Z0-9_.]+)\}/g, (_, key: string) => {
    if (key.startsWith('settings.')) return settings[key.slice('settings.'.length)] ?? '';
    const value = args[key];
    delete args[key];
    return encodeURIComponent(value === undefined ? '' : String(value));
  });
  const withBody = tool.http.method === 'POST' || tool.http.method === 'PUT';
  const target = new URL(url);
  if (!withBody) {
    for (const [k, v] of Object.entries(args))
      target.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return { url: target.toString(), body: withBody ? JSON.stringify(args) : undefined };
}

/** The HMAC the HTTP webhook plugin signs with: sha256 of `<timestamp>.<body>`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export type PluginCallResult = { ok: true; output: unknown } | { ok: false; error: string };

/** Calls one plugin tool; failures are answered in words, never thrown. */
export async function callPluginTool(
  deps: PluginDeps,
  row: Row,
  toolName: string,
  input: unknown,
  signal?: AbortSignal,
): Promise<PluginCallResult> {
  const m = manifestOf(deps, row.plugin);
  const tool = m?.tools.find((t) => t.name === toolName);
  if (!m || !tool) return { ok: false, error: `The plugin offers no tool ${toolName}.` };
  const timeout = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const send = async (current: Row) => {
    const { url, body } = requestOf(tool, current.settings, input);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Titan' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (m.auth.type === 'oauth2' && current.accessTokenSealed)
      headers.authorization = `Bearer ${deps.secrets.open(current.accessTokenSealed)}`;
    if (m.auth.type === 'api_key' && current.keySealed) {
      const key = deps.secrets.open(current.keySealed);
      if (m.auth.placement === 'signature') {
        const timestamp = String(Math.floor(Date.now() / 1000));
        headers['x-titan-timestamp'] = timestamp;
        headers['x-titan-signature'] = webhookSignature(key, timestamp, body ?? '');
      } else headers.authorization = `Bearer ${key}`;
    }
    const signals = [AbortSignal.timeout(timeout), ...(signal ? [signal] : [])];
    return safeFetch(deps)(url, {
      method: tool.http.method,
      headers,
      body,
      signal: AbortSignal.any(signals),
    });
  };
  try {
    let current = m.auth.type === 'oauth2' ? await ensureFreshPlugin(deps, row, CALL_MARGIN_MS) : row;
    let res = await send(current);
    if (res.status === 401 && m.auth.type === 'oauth2') {
      current = await ensureFreshPlugin(deps, current, CALL_MARGIN_MS, current.accessTokenSealed);
      res = await send(current);
    }
    const text = (await res.text()).slice(0, MAX_ANSWER_CHARS);
    let output: unknown = text;
    try {
      output = JSON.parse(text) as unknown;
    } catch {
      // Not JSON: the text as it is.
    }
    if (!res.ok)
      return { ok: false, error: `The endpoint answered HTTP ${res.status}: ${text.slice(0, 500)}` };
    return { ok: true, output };
  } catch (err) {
    if (err instanceof GrantExpired) return { ok: false, error: err.message };
    return { ok: false, error: outboundErrorWords(err, Math.round(timeout / 1000)) };
  }
}
