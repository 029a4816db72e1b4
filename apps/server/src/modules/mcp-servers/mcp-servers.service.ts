// MCP servers (engage.md §6): a business registers a server (none, a bearer token, or OAuth), Titan
// speaks Streamable HTTP to it with `@modelcontextprotocol/sdk`, caches its tools, and keeps its
// status (`pending_oauth`, `connected`, `expired`, `error`) with the last error in words. This file
// is the API over the registered servers; talking to one is mcp-servers.connection.ts, connecting by
// OAuth (the MCP authorization spec) mcp-servers.oauth.ts. Tokens are sealed, never answered,
// refreshed ahead of runs.
import {
  MCP_ERRORS,
  type TExternalToolInfo,
  type TMcpServer,
  type TMcpServerRequest,
  type TMcpServerUpdate,
} from '@titan/contracts';
import { sqlStateOf } from '../../platform/db-errors';
import { AppError } from '../../platform/errors';
import { outboundUrlProblem } from '../../platform/safe-fetch';
import * as repo from './mcp-servers.repository';
import type { McpOauthState } from './mcp-servers.repository';
import {
  hasCredentials,
  listAndCache,
  type McpDeps,
  notFound,
  type OauthColumn,
  type Row,
  toolInfos,
} from './mcp-servers.connection';

export function present(row: Row): TMcpServer {
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

export async function urlField(deps: McpDeps, url: string): Promise<void> {
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
