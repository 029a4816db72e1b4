// MCP servers (engage.md §6): a business registers a server (none, a bearer token, or OAuth), Titan
// speaks Streamable HTTP to it with `@modelcontextprotocol/sdk`, caches its tools, and keeps its
// status (`pending_oauth`, `connected`, `expired`, `error`) with the last error in words. OAuth
// follows the MCP authorization spec: protected resource metadata, authorization server metadata,
// a client registered in this order — pre-registered, client metadata document, dynamic — with one
// redirect URI throughout, PKCE S256 (servers without it are refused), the `resource` parameter, and
// the issuer checked on return. Tokens are sealed, never answered, refreshed ahead of runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from '@modelcontextprotocol/sdk/client/auth.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  AuthorizationServerMetadata,
  OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  MCP_CALLBACK_PATH,
  MCP_ERRORS,
  type TExternalToolInfo,
  type TMcpServer,
  type TMcpServerRequest,
  type TMcpServerUpdate,
  type TOAuthCallbackRequest,
} from '@titan/contracts';
import { sqlStateOf } from '../../platform/db-errors';
import { randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { outboundErrorWords, outboundUrlProblem, safeFetch } from '../../platform/safe-fetch';
import {
  checkIssuer,
  codeRefused,
  GrantExpired,
  newConnectState,
  refreshWithLease,
  tellConnectionExpired,
  requireUser,
  sealTokens,
  takeConnectState,
  type OAuthDeps,
} from './oauth-client';
import * as repo from './mcp-servers.repository';
import type { CachedTool, McpOauthState } from './mcp-servers.repository';
import { modelToolName } from './tool-names';

export type { McpServerRow } from './mcp-servers.repository';

export type McpDeps = OAuthDeps & {
  /** How long one call to a server may take (ms). */
  timeoutMs?: number;
};

type Row = repo.McpServerRow;
/** What the oauth column holds before discovery: a pre-registered client only. */
type OauthColumn = Partial<McpOauthState> & { metadata?: AuthorizationServerMetadata };

const DEFAULT_TIMEOUT_MS = 30_000;
/** Before any call, an access token living less than this is refreshed. */
const CALL_MARGIN_MS = 60_000;
export const CLIENT_METADATA_PATH = '/api/config/mcp-servers/client-metadata.json';

const notFound = () => new AppError('not_found', 'Not found.');
export const redirectUriOf = (deps: Pick<McpDeps, 'publicUrl'>) =>
  `${deps.publicUrl.replace(/\/+$/, '')}${MCP_CALLBACK_PATH}`;
export const clientMetadataUrlOf = (deps: Pick<McpDeps, 'publicUrl'>) =>
  `${deps.publicUrl.replace(/\/+$/, '')}${CLIENT_METADATA_PATH}`;

/** The client metadata document Titan publishes (its URL is its client id where servers accept that). */
export function clientMetadataDocument(deps: Pick<McpDeps, 'publicUrl'>) {
  return {
    client_id: clientMetadataUrlOf(deps),
    client_name: 'Titan',
    client_uri: deps.publicUrl,
    redirect_uris: [redirectUriOf(deps)],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export function toolInfos(
  serverId: number,
  tools: CachedTool[],
  source: 'mcp' | 'plugin' = 'mcp',
): TExternalToolInfo[] {
  return tools.map((t) => ({
    name: t.name,
    model_name: modelToolName(source, serverId, t.name),
    description: t.description,
    input_schema: t.input_schema,
  }));
}

function present(row: Row): TMcpServer {
  const oauth = row.oauth as OauthColumn | null;
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    auth: row.auth,
    status: row.status,
    last_error: row.lastError,
    has_token: row.auth === 'bearer' ? !!row.bearerTokenSealed : !!row.accessTokenSealed,
    oauth_registration: row.auth === 'oauth' && oauth?.client_id ? (oauth.registration ?? null) : null,
    token_expires_at: row.tokenExpiresAt?.toISOString() ?? null,
    tools: toolInfos(row.id, row.tools),
    tools_listed_at: row.toolsListedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function urlField(deps: McpDeps, url: string): Promise<void> {
  const problem = await outboundUrlProblem(deps, url);
  if (problem) throw AppError.fields({ url: [problem] });
}

async function saving<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (sqlStateOf(err) === '23505') throw AppError.fields({ name: [MCP_ERRORS.nameTaken] });
    throw err;
  }
}

// ---- Talking to a server ----

/** A server's answer as words for `last_error`. */
export function mcpErrorWords(err: unknown, timeoutMs = DEFAULT_TIMEOUT_MS): string {
  if (err instanceof GrantExpired) return err.message;
  if (err instanceof StreamableHTTPError) {
    if (err.code === 401) return 'The server refused Titan’s credentials (HTTP 401).';
    if (err.code === 403) return 'The server refused access (HTTP 403).';
    if (err.code === 404) return 'No MCP server answers at this URL (HTTP 404).';
    if (err.code === 405) return 'This URL does not speak MCP over Streamable HTTP (HTTP 405).';
    if ((err.code ?? 0) >= 500) return `The server failed (HTTP ${err.code}).`;
  }
  const code = (err as { code?: unknown }).code;
  if (code === -32001) return `The server did not answer within ${Math.round(timeoutMs / 1000)} seconds.`;
  return outboundErrorWords(err, Math.round(timeoutMs / 1000));
}

/** The access token to send now: refreshed first when it would expire within `marginMs`, or when `rejected` is the one stored. */
async function oauthRow(deps: McpDeps, row: Row, marginMs: number, rejected?: string | null): Promise<Row> {
  return refreshWithLease<Row>({
    secrets: deps.secrets,
    marginMs,
    rejected,
    read: () => repo.findServer(deps.db, row.businessId, row.id),
    claim: (ms) => repo.claimRefreshLease(deps.db, row.businessId, row.id, ms),
    finish: async (set) => {
      await repo.updateServer(deps.db, row.businessId, row.id, set);
    },
    onExpired: () =>
      tellConnectionExpired(deps, row.businessId, { kind: 'MCP server', name: row.name, tab: 'mcp-servers' }),
    refresh: (r, refreshToken) => {
      const oauth = r.oauth as OauthColumn;
      return refreshAuthorization(oauth.issuer!, {
        metadata: oauth.metadata,
        clientInformation: clientInfoOf(deps, r),
        refreshToken,
        resource: new URL(oauth.resource!),
        fetchFn: safeFetch(deps),
      });
    },
  });
}

function clientInfoOf(deps: McpDeps, row: Row) {
  const oauth = row.oauth as OauthColumn;
  return {
    client_id: oauth.client_id!,
    ...(row.clientSecretSealed ? { client_secret: deps.secrets.open(row.clientSecretSealed) } : {}),
  };
}

/** Whether Titan holds what the server expects (a bearer server whose URL changed waits for its token). */
const hasCredentials = (row: Row) =>
  row.auth === 'none' || !!(row.auth === 'bearer' ? row.bearerTokenSealed : row.accessTokenSealed);

/** Refreshes ahead: the server's OAuth tokens good for `marginMs` more (a run's length). */
export async function ensureFresh(deps: McpDeps, row: Row, marginMs: number): Promise<Row> {
  if (row.auth !== 'oauth') return row;
  return oauthRow(deps, row, marginMs);
}

/**
 * A server ready for a run starting now: OAuth tokens good for `marginMs`, and a server whose last
 * attempt failed (a network error, a server down) asked again once — its status then says how that went.
 */
export async function readyForRun(deps: McpDeps, row: Row, marginMs: number): Promise<Row> {
  const fresh = await ensureFresh(deps, row, marginMs);
  return fresh.status === 'error' && hasCredentials(fresh) ? listAndCache(deps, fresh) : fresh;
}

/** Runs `work` with a connected MCP client; an OAuth 401 refreshes once and tries once more. */
async function withClient<T>(
  deps: McpDeps,
  row: Row,
  work: (client: Client) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const timeout = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const attempt = async (current: Row): Promise<T> => {
    const token =
      current.auth === 'bearer' && current.bearerTokenSealed
        ? deps.secrets.open(current.bearerTokenSealed)
        : current.auth === 'oauth' && current.accessTokenSealed
          ? deps.secrets.open(current.accessTokenSealed)
          : null;
    const client = new Client({ name: 'Titan', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(current.url), {
      fetch: safeFetch(deps),
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
    try {
      await client.connect(transport, { timeout, signal });
      return await work(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  if (row.auth !== 'oauth') return attempt(row);
  const fresh = await oauthRow(deps, row, CALL_MARGIN_MS);
  try {
    return await attempt(fresh);
  } catch (err) {
    if (!(err instanceof StreamableHTTPError && err.code === 401)) throw err;
    // The server no longer takes this token (revoked, or its clock disagrees): one refresh, one retry.
    return attempt(await oauthRow(deps, fresh, CALL_MARGIN_MS, fresh.accessTokenSealed));
  }
}

/** Lists the server's tools into the cache; the status says how that went. */
async function listAndCache(deps: McpDeps, row: Row): Promise<Row> {
  try {
    const tools = await withClient(deps, row, async (client) => {
      const out: CachedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, {
          timeout: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        });
        for (const t of page.tools) {
          out.push({
            name: t.name,
            description: t.description ?? '',
            input_schema: t.inputSchema as Record<string, unknown>,
          });
        }
        cursor = page.nextCursor;
      } while (cursor && out.length < 500);
      return out;
    });
    return (await repo.updateServer(deps.db, row.businessId, row.id, {
      tools,
      toolsListedAt: new Date(),
      status: 'connected',
      lastError: null,
    }))!;
  } catch (err) {
    const expired = err instanceof GrantExpired;
    return (await repo.updateServer(deps.db, row.businessId, row.id, {
      status: expired ? 'expired' : 'error',
      lastError: mcpErrorWords(err, deps.timeoutMs),
    }))!;
  }
}

export type McpCallResult = { ok: true; output: unknown } | { ok: false; error: string };

/** Calls one tool; failures are answered in words (and an expired grant marks the server). */
export async function callMcpTool(
  deps: McpDeps,
  row: Row,
  name: string,
  input: unknown,
  signal?: AbortSignal,
): Promise<McpCallResult> {
  try {
    const result = await withClient(
      deps,
      row,
      (client) =>
        client.callTool({ name, arguments: (input ?? {}) as Record<string, unknown> }, undefined, {
          timeout: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          signal,
        }),
      signal,
    );
    const content = (result.content ?? []) as { type: string; text?: string }[];
    const texts = content.filter((c) => c.type === 'text').map((c) => c.text ?? '');
    const text = texts.join('\n');
    if (result.isError) return { ok: false, error: text || `The tool ${name} failed.` };
    if (result.structuredContent !== undefined) return { ok: true, output: result.structuredContent };
    if (texts.length === 1) {
      try {
        return { ok: true, output: JSON.parse(text) as unknown };
      } catch {
        return { ok: true, output: text };
      }
    }
    return { ok: true, output: content };
  } catch (err) {
    const words = mcpErrorWords(err, deps.timeoutMs);
    if (err instanceof StreamableHTTPError && err.code === 401 && row.auth === 'bearer')
      await repo.updateServer(deps.db, row.businessId, row.id, { status: 'error', lastError: words });
    return { ok: false, error: words };
  }
}

// ---- The API ----

export async function listMcpServers(deps: McpDeps, businessId: number): Promise<TMcpServer[]> {
  return (await repo.listServers(deps.db, businessId)).map(present);
}

export async function findMcpServerRow(
  deps: Pick<McpDeps, 'db'>,
  businessId: number,
  id: number,
): Promise<Row | null> {
  return repo.findServer(deps.db, businessId, id);
}

export async function listMcpServerRows(deps: Pick<McpDeps, 'db'>, businessId: number): Promise<Row[]> {
  return repo.listServers(deps.db, businessId);
}

export async function getMcpServer(deps: McpDeps, businessId: number, id: number): Promise<TMcpServer> {
  const row = await repo.findServer(deps.db, businessId, id);
  if (!row) throw notFound();
  return present(row);
}

/**
 * The credential columns for `body`. `tokenDropped`: the URL of a bearer server changed without a
 * new token — the stored one is not sent to the new URL, and the server waits for one.
 */
function authColumns(
  deps: McpDeps,
  body: Pick<TMcpServerRequest, 'auth' | 'token' | 'oauth_client' | 'oauth_client_secret'>,
  tokenDropped = false,
) {
  if (body.auth === 'bearer' && !body.token && !tokenDropped)
    throw AppError.fields({ token: [MCP_ERRORS.tokenRequired] });
  const waitsForToken = body.auth === 'bearer' && !body.token;
  return {
    auth: body.auth,
    bearerTokenSealed: body.auth === 'bearer' && body.token ? deps.secrets.seal(body.token) : null,
    oauth:
      body.auth === 'oauth' && body.oauth_client
        ? ({ registration: 'pre_registered', client_id: body.oauth_client } as McpOauthState)
        : null,
    clientSecretSealed:
      body.auth === 'oauth' && body.oauth_client_secret ? deps.secrets.seal(body.oauth_client_secret) : null,
    accessTokenSealed: null,
    refreshTokenSealed: null,
    tokenExpiresAt: null,
    tools: [],
    toolsListedAt: null,
    status: body.auth === 'oauth' ? ('pending_oauth' as const) : ('error' as const),
    lastError: waitsForToken ? MCP_ERRORS.tokenRequired : null,
  };
}

/** Registers a server; one without OAuth is connected (its tools listed) at once, or says why not. */
export async function createMcpServer(
  deps: McpDeps,
  businessId: number,
  userId: number | null,
  body: TMcpServerRequest,
): Promise<TMcpServer> {
  await urlField(deps, body.url);
  const row = await saving(() =>
    repo.insertServer(deps.db, {
      businessId,
      name: body.name,
      url: body.url,
      createdBy: userId,
      ...authColumns(deps, body),
    }),
  );
  return present(row.auth === 'oauth' ? row : await listAndCache(deps, row));
}

export async function updateMcpServer(
  deps: McpDeps,
  businessId: number,
  id: number,
  body: TMcpServerUpdate,
): Promise<TMcpServer> {
  const row = await repo.findServer(deps.db, businessId, id);
  if (!row) throw notFound();
  if (body.url !== undefined) await urlField(deps, body.url);
  // Credentials follow their URL: a new URL keeps no token, grant or client registration unless
  // given again, so whoever may edit the server cannot have the stored ones sent to a server of theirs.
  const urlChanged = body.url !== undefined && body.url !== row.url;
  const auth = body.auth ?? row.auth;
  const reauth =
    urlChanged || auth !== row.auth || body.token !== undefined || body.oauth_client !== undefined;
  const storedToken =
    !urlChanged && row.bearerTokenSealed ? deps.secrets.open(row.bearerTokenSealed) : undefined;
  const set = reauth
    ? authColumns(
        deps,
        {
          auth,
          token: body.token ?? storedToken,
          oauth_client: body.oauth_client,
          oauth_client_secret: body.oauth_client_secret,
        },
        urlChanged && row.auth === 'bearer' && auth === 'bearer',
      )
    : {};
  const updated = await saving(() =>
    repo.updateServer(deps.db, businessId, id, { name: body.name, url: body.url, ...set }),
  );
  if (!updated) throw notFound();
  const listable = updated.auth !== 'oauth' && hasCredentials(updated);
  return present(reauth && listable ? await listAndCache(deps, updated) : updated);
}

export async function deleteMcpServer(deps: McpDeps, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteServer(deps.db, businessId, id))) throw notFound();
}

/** The cached tools; `refresh` lists them again from the server first. */
export async function mcpServerTools(
  deps: McpDeps,
  businessId: number,
  id: number,
  refresh: boolean,
): Promise<TExternalToolInfo[]> {
  let row = await repo.findServer(deps.db, businessId, id);
  if (!row) throw notFound();
  if (refresh && hasCredentials(row)) row = await listAndCache(deps, row);
  return toolInfos(row.id, row.tools);
}

async function discover(deps: McpDeps, row: Row) {
  const fetchFn = safeFetch(deps);
  let resource: OAuthProtectedResourceMetadata | undefined;
  try {
    resource = await discoverOAuthProtectedResourceMetadata(row.url, {}, fetchFn);
  } catch (err) {
    throw new AppError(
      'bad_gateway',
      `The server publishes no OAuth protected resource metadata: ${outboundErrorWords(err)}`,
    );
  }
  if (new URL(resource.resource).origin !== new URL(row.url).origin)
    throw new AppError('bad_gateway', 'The server’s protected resource metadata names another resource.');
  const asUrl = resource.authorization_servers?.[0];
  if (!asUrl) throw new AppError('bad_gateway', 'The server’s metadata names no authorization server.');
  const problem = await outboundUrlProblem(deps, asUrl);
  if (problem) throw new AppError('bad_gateway', `Its authorization server: ${problem}`);
  let metadata: AuthorizationServerMetadata | undefined;
  try {
    metadata = await discoverAuthorizationServerMetadata(asUrl, { fetchFn });
  } catch (err) {
    throw new AppError(
      'bad_gateway',
      `The authorization server’s metadata could not be read: ${outboundErrorWords(err)}`,
    );
  }
  if (!metadata) throw new AppError('bad_gateway', 'The authorization server publishes no metadata.');
  return { resource, metadata, fetchFn };
}

/** Starts OAuth: discovery, registration, PKCE; answers where to send the person. */
export async function connectMcpServer(
  deps: McpDeps,
  businessId: number,
  userId: number | null,
  id: number,
): Promise<{ authorization_url: string }> {
  const user = requireUser(userId);
  const row = await repo.findServer(deps.db, businessId, id);
  if (!row) throw notFound();
  if (row.auth !== 'oauth') throw new AppError('conflict', MCP_ERRORS.notOauth);
  await urlField(deps, row.url);
  const fail = async (err: AppError): Promise<never> => {
    await repo.updateServer(deps.db, businessId, id, {
      status: row.status === 'connected' ? row.status : 'error',
      lastError: err.message,
    });
    throw err;
  };
  let found: Awaited<ReturnType<typeof discover>>;
  try {
    found = await discover(deps, row);
  } catch (err) {
    return fail(err instanceof AppError ? err : new AppError('bad_gateway', outboundErrorWords(err)));
  }
  const { resource, metadata, fetchFn } = found;
  if (!metadata.code_challenge_methods_supported?.includes('S256'))
    return fail(new AppError('conflict', MCP_ERRORS.noPkce));

  const redirectUri = redirectUriOf(deps);
  const previous = (row.oauth ?? {}) as OauthColumn;
  let client: Pick<McpOauthState, 'registration' | 'client_id' | 'token_endpoint_auth_method'>;
  let secretSealed = row.clientSecretSealed;
  if (previous.registration === 'pre_registered' && previous.client_id) {
    client = {
      registration: 'pre_registered',
      client_id: previous.client_id,
      token_endpoint_auth_method: secretSealed ? 'client_secret_post' : 'none',
    };
  } else if (metadata.client_id_metadata_document_supported) {
    client = {
      registration: 'metadata_document',
      client_id: clientMetadataUrlOf(deps),
      token_endpoint_auth_method: 'none',
    };
    secretSealed = null;
  } else if (
    previous.registration === 'dynamic' &&
    previous.client_id &&
    previous.issuer === metadata.issuer
  ) {
    client = {
      registration: 'dynamic',
      client_id: previous.client_id,
      token_endpoint_auth_method: previous.token_endpoint_auth_method ?? 'none',
    };
  } else if (metadata.registration_endpoint) {
    try {
      const registered = await registerClient(metadata.issuer, {
        metadata,
        clientMetadata: {
          redirect_uris: [redirectUri],
          client_name: 'Titan',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
        fetchFn,
      });
      client = {
        registration: 'dynamic',
        client_id: registered.client_id,
        token_endpoint_auth_method: registered.token_endpoint_auth_method ?? 'none',
      };
      secretSealed = registered.client_secret ? deps.secrets.seal(registered.client_secret) : null;
    } catch (err) {
      return fail(
        new AppError(
          'bad_gateway',
          `Registering Titan with the authorization server failed: ${outboundErrorWords(err)}`,
        ),
      );
    }
  } else return fail(new AppError('conflict', MCP_ERRORS.noRegistration));

  const oauth: McpOauthState & { metadata: AuthorizationServerMetadata } = {
    ...client,
    resource: resource.resource,
    issuer: metadata.issuer,
    authorization_endpoint: metadata.authorization_endpoint,
    token_endpoint: metadata.token_endpoint,
    scopes: resource.scopes_supported,
    iss_parameter_supported:
      (metadata as { authorization_response_iss_parameter_supported?: boolean })
        .authorization_response_iss_parameter_supported === true,
    metadata,
  };
  const state = randomToken(32);
  const { authorizationUrl, codeVerifier } = await startAuthorization(metadata.issuer, {
    metadata,
    clientInformation: { client_id: client.client_id },
    redirectUrl: redirectUri,
    state,
    resource: new URL(resource.resource),
    ...(resource.scopes_supported?.length ? { scope: resource.scopes_supported.join(' ') } : {}),
  });
  await newConnectState(
    deps,
    {
      businessId,
      userId: user,
      kind: 'mcp',
      targetId: id,
      codeVerifier,
      redirectUri,
      issuer: metadata.issuer,
    },
    state,
  );
  await repo.updateServer(deps.db, businessId, id, { oauth, clientSecretSealed: secretSealed });
  return { authorization_url: authorizationUrl.toString() };
}

/** The callback page's post: state taken once, issuer checked, code exchanged, tools listed. */
export async function completeMcpOAuth(
  deps: McpDeps,
  businessId: number,
  userId: number | null,
  body: TOAuthCallbackRequest,
): Promise<TMcpServer> {
  const user = requireUser(userId);
  const state = await takeConnectState(deps, { businessId, userId: user, kind: 'mcp', state: body.state });
  const row = await repo.findServer(deps.db, businessId, state.targetId);
  if (!row || row.auth !== 'oauth' || !row.oauth) throw notFound();
  const oauth = row.oauth as OauthColumn;
  checkIssuer(state.issuer, body.iss, oauth.iss_parameter_supported === true);
  let tokens;
  try {
    tokens = await exchangeAuthorization(oauth.issuer!, {
      metadata: oauth.metadata,
      clientInformation: clientInfoOf(deps, row),
      authorizationCode: body.code,
      codeVerifier: state.codeVerifier,
      redirectUri: state.redirectUri,
      resource: new URL(oauth.resource!),
      fetchFn: safeFetch(deps),
    });
  } catch (err) {
    const words = `The authorization server refused the code: ${outboundErrorWords(err)}`;
    await repo.updateServer(deps.db, businessId, row.id, { status: 'error', lastError: words });
    throw codeRefused(err, words);
  }
  const connected = await repo.updateServer(deps.db, businessId, row.id, {
    ...sealTokens(deps.secrets, tokens, null),
    status: 'connected',
    lastError: null,
    refreshLeaseUntil: null,
  });
  return present(await listAndCache(deps, connected!));
}
