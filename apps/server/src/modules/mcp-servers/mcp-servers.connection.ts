// Talking to an MCP server: Streamable HTTP through `@modelcontextprotocol/sdk`, its OAuth tokens kept
// fresh ahead of calls (refreshed under a lease), its tools listed and cached, a tool called with a
// timeout and its failure in words. The deps, types and constants the module's files share.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_CALLBACK_PATH, type TExternalToolInfo } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { outboundErrorWords, safeFetch } from '../../platform/safe-fetch';
import {
  GrantExpired,
  refreshWithLease,
  tellConnectionExpired,
  type OAuthDeps,
} from '../outside-connections';
import * as repo from './mcp-servers.repository';
import { lazy } from '../../platform/lazy';

/**
 * The MCP SDK (~7 MB of heap) only once a business's MCP server is talked to. Until it is loaded no
 * error of its can exist, so `isHttpError` needs no import.
 */
let loadedSdk: { StreamableHTTPError: typeof StreamableHTTPError } | undefined;
const sdk = lazy(async () => {
  const [client, auth, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const loaded = {
    Client: client.Client,
    refreshAuthorization: auth.refreshAuthorization,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
  };
  loadedSdk = loaded;
  return loaded;
});

const isHttpError = (err: unknown): err is StreamableHTTPError =>
  loadedSdk !== undefined && err instanceof loadedSdk.StreamableHTTPError;
import type { CachedTool, McpOauthState } from './mcp-servers.repository';
import { modelToolName } from './tool-names';

export type { McpServerRow } from './mcp-servers.repository';

export type McpDeps = OAuthDeps & {
  /** How long one call to a server may take (ms). */
  timeoutMs?: number;
};

export type Row = repo.McpServerRow;
/** What the oauth column holds before discovery: a pre-registered client only. */
export type OauthColumn = Partial<McpOauthState> & { metadata?: AuthorizationServerMetadata };

const DEFAULT_TIMEOUT_MS = 30_000;
/** Before any call, an access token living less than this is refreshed. */
const CALL_MARGIN_MS = 60_000;
export const CLIENT_METADATA_PATH = '/api/config/mcp-servers/client-metadata.json';

export const notFound = () => new AppError('not_found', 'Not found.');
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

// ---- Talking to a server ----

/** A server's answer as words for `last_error`. */
export function mcpErrorWords(err: unknown, timeoutMs = DEFAULT_TIMEOUT_MS): string {
  if (err instanceof GrantExpired) return err.message;
  if (isHttpError(err)) {
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
    connection: repo.leasedServer(deps.db, row),
    onExpired: () =>
      tellConnectionExpired(deps, row.businessId, { kind: 'MCP server', name: row.name, tab: 'mcp-servers' }),
    refresh: async (r, refreshToken) => {
      const oauth = r.oauth as OauthColumn;
      const { refreshAuthorization } = await sdk();
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

export function clientInfoOf(deps: McpDeps, row: Row) {
  const oauth = row.oauth as OauthColumn;
  return {
    client_id: oauth.client_id!,
    ...(row.clientSecretSealed ? { client_secret: deps.secrets.open(row.clientSecretSealed) } : {}),
  };
}

/** Whether Titan holds what the server expects (a bearer server whose URL changed waits for its token). */
export const hasCredentials = (row: Row) =>
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
    const { Client, StreamableHTTPClientTransport } = await sdk();
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
    if (!(isHttpError(err) && err.code === 401)) throw err;
    // The server no longer takes this token (revoked, or its clock disagrees): one refresh, one retry.
    return attempt(await oauthRow(deps, fresh, CALL_MARGIN_MS, fresh.accessTokenSealed));
  }
}

/** Lists the server's tools into the cache; the status says how that went. */
export async function listAndCache(deps: McpDeps, row: Row): Promise<Row> {
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
    if (isHttpError(err) && err.code === 401 && row.auth === 'bearer')
      await repo.updateServer(deps.db, row.businessId, row.id, { status: 'error', lastError: words });
    return { ok: false, error: words };
  }
}
