// Connecting an MCP server by OAuth, per the MCP authorization spec: protected resource metadata,
// authorization server metadata, a client registered in this order — pre-registered, client metadata
// document, dynamic — with one redirect URI throughout, PKCE S256 (servers without it are refused),
// the `resource` parameter, and the issuer checked on return.
import type {
  AuthorizationServerMetadata,
  OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_ERRORS, type TMcpServer, type TOAuthCallbackRequest } from '@titan/contracts';
import { randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { outboundErrorWords, outboundUrlProblem, safeFetch } from '../../platform/safe-fetch';
import {
  checkIssuer,
  codeRefused,
  newConnectState,
  requireUser,
  sealTokens,
  takeConnectState,
} from '../outside-connections';
import * as repo from './mcp-servers.repository';
import type { McpOauthState } from './mcp-servers.repository';
import {
  clientInfoOf,
  clientMetadataUrlOf,
  listAndCache,
  type McpDeps,
  notFound,
  type OauthColumn,
  redirectUriOf,
  type Row,
} from './mcp-servers.connection';
import { present, urlField } from './mcp-servers.service';
import { lazy } from '../../platform/lazy';

/** The MCP SDK's OAuth client (~5.5 MB of heap with the schemas it shares) only once it is used. */
const oauthSdk = lazy(() => import('@modelcontextprotocol/sdk/client/auth.js'));

async function discover(deps: McpDeps, row: Row) {
  const fetchFn = safeFetch(deps);
  let resource: OAuthProtectedResourceMetadata | undefined;
  try {
    resource = await (await oauthSdk()).discoverOAuthProtectedResourceMetadata(row.url, {}, fetchFn);
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
    metadata = await (await oauthSdk()).discoverAuthorizationServerMetadata(asUrl, { fetchFn });
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
      const registered = await (
        await oauthSdk()
      ).registerClient(metadata.issuer, {
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
  const { authorizationUrl, codeVerifier } = await (
    await oauthSdk()
  ).startAuthorization(metadata.issuer, {
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
    tokens = await (
      await oauthSdk()
    ).exchangeAuthorization(oauth.issuer!, {
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
