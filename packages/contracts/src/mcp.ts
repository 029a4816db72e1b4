// MCP servers and plugins (engage.md §6): outside systems whose tools agents may use. An MCP server
// is registered with its URL and authorization (none, a bearer token, or OAuth per the MCP
// authorization spec) at `/api/config/mcp-servers/`; a plugin is a manifest from the catalogue
// (`/api/plugins/`) that a user connects (`/api/user-plugins/`).
import { z } from 'zod';

export const MCP_AUTH_KINDS = ['none', 'bearer', 'oauth'] as const;
export const CONNECTION_STATUSES = ['pending_oauth', 'connected', 'expired', 'error'] as const;
export const ZConnectionStatus = z.enum(CONNECTION_STATUSES);
export type TConnectionStatus = z.infer<typeof ZConnectionStatus>;
export const OAUTH_REGISTRATIONS = ['pre_registered', 'metadata_document', 'dynamic'] as const;

/** The page an OAuth authorization server sends the user back to (engage.md §6). */
export const MCP_CALLBACK_PATH = '/engage/settings/mcp-servers/callback';
export const PLUGIN_CALLBACK_PATH = '/engage/settings/plugins/callback';

/** What models accept as a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export const MCP_ERRORS = {
  urlInvalid: 'Enter a valid URL.',
  httpsRequired: 'Use an https:// URL (http:// is allowed only for localhost outside production).',
  privateAddress: 'This URL points at a private or local network address, which is not allowed.',
  hostNotFound: 'The host name of this URL could not be found.',
  titanItself: 'This URL points at Titan itself.',
  tokenRequired: 'Enter the bearer token this server expects.',
  nameTaken: 'Another MCP server of this business already has this name.',
  notOauth: 'This server does not use OAuth.',
  noPkce:
    'The authorization server of this MCP server does not support PKCE with S256, which the MCP authorization spec requires; Titan will not connect to it.',
  noRegistration:
    'The authorization server offers no way for Titan to register: no client metadata documents, no dynamic registration. Enter the client id it gave you.',
  stateInvalid:
    'This connection link is not valid any more (already used, expired, or started by someone else). Connect again.',
  issuerMismatch: 'The authorization server that answered is not the one Titan asked. Connect again.',
  expired: 'The authorization was revoked or has expired. Reconnect this server.',
  notConnected: 'This server is not connected.',
} as const;

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
    message: MCP_ERRORS.urlInvalid,
  });

/** `POST /api/config/mcp-servers/`. `token` is the bearer token (auth `bearer`); `oauth_client`/`oauth_client_secret` the id and secret of a pre-registered OAuth client. */
export const ZMcpServerRequest = z.object({
  name: z.string().trim().min(1).max(80),
  url: httpUrl,
  auth: z.enum(MCP_AUTH_KINDS),
  token: z.string().trim().min(1).max(4000).optional(),
  oauth_client: z.string().trim().min(1).max(500).optional(),
  oauth_client_secret: z.string().trim().min(1).max(2000).optional(),
});
export type TMcpServerRequest = z.infer<typeof ZMcpServerRequest>;

/** `PUT …/{id}/`: any field; a new URL or auth asks to connect again, and a new URL keeps no token, grant or client unless given again. */
export const ZMcpServerUpdate = ZMcpServerRequest.partial();
export type TMcpServerUpdate = z.infer<typeof ZMcpServerUpdate>;

export const ZExternalToolInfo = z.object({
  name: z.string(),
  /** The name offered to models: prefixed by its source, `^[a-zA-Z0-9_-]{1,64}$`. */
  model_name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
});
export type TExternalToolInfo = z.infer<typeof ZExternalToolInfo>;

/** An MCP server as answered: never its token. */
export const ZMcpServer = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  auth: z.enum(MCP_AUTH_KINDS),
  status: ZConnectionStatus,
  /** Why it is not connected, in words. */
  last_error: z.string().nullable(),
  has_token: z.boolean(),
  oauth_registration: z.enum(OAUTH_REGISTRATIONS).nullable(),
  token_expires_at: z.string().nullable(),
  tools: z.array(ZExternalToolInfo),
  tools_listed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMcpServer = z.infer<typeof ZMcpServer>;

export const ZConnectResult = z.object({ authorization_url: z.string() });
export type TConnectResult = z.infer<typeof ZConnectResult>;

/** The callback page posts what the authorization server sent back. */
export const ZOAuthCallbackRequest = z.object({
  code: z.string().min(1).max(2000),
  state: z.string().min(1).max(500),
  iss: z.string().max(2000).optional(),
});
export type TOAuthCallbackRequest = z.infer<typeof ZOAuthCallbackRequest>;

// ---- Plugins ----

export const PLUGIN_ERRORS = {
  unknownPlugin: 'There is no plugin with this id in the catalogue.',
  unavailable: 'This plugin is not available on this server.',
  apiKeyRequired: 'Enter the API key.',
  settingRequired: 'This field is required.',
  notOauth: 'This plugin does not use OAuth.',
} as const;

/** A plugin tool: JSON Schema arguments, answered by one HTTPS call. */
export const ZPluginToolManifest = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,48}$/),
  description: z.string().max(1000),
  input_schema: z.record(z.string(), z.unknown()),
  /** `{arg}` in the URL takes that argument; `{settings.x}` a connection setting. The rest go as JSON (POST, PUT) or the query (GET, DELETE). */
  http: z.object({ method: z.enum(['GET', 'POST', 'PUT', 'DELETE']), url: z.string().max(2000) }),
});

export const ZPluginManifest = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: z.string().max(80),
  description: z.string().max(1000),
  auth: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('api_key'),
      /** Where the key goes: a header (`Authorization` with `Bearer`), or the HMAC signature of the request (`signature`). */
      placement: z.enum(['bearer', 'signature']).default('bearer'),
    }),
    z.object({
      type: z.literal('oauth2'),
      authorization_endpoint: z.string(),
      token_endpoint: z.string(),
      issuer: z.string().optional(),
      scopes: z.array(z.string()).default([]),
      client_id: z.string().optional(),
      /** The environment variable holding the client secret (never in the manifest). */
      client_secret_env: z.string().optional(),
      /** RFC 8707 resource indicator, when the provider wants one. */
      resource: z.string().optional(),
    }),
  ]),
  settings: z
    .array(
      z.object({ name: z.string(), label: z.string(), type: z.enum(['url', 'text']), required: z.boolean() }),
    )
    .default([]),
  tools: z.array(ZPluginToolManifest).min(1).max(50),
});
export type TPluginManifest = z.output<typeof ZPluginManifest>;
export type TPluginManifestInput = z.input<typeof ZPluginManifest>;

/** `GET /api/plugins/`: the catalogue. */
export const ZPlugin = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  auth_type: z.enum(['api_key', 'oauth2']),
  /** An api_key plugin whose key the user must enter (a signing secret is made by Titan when absent). */
  api_key_required: z.boolean(),
  settings: z.array(
    z.object({ name: z.string(), label: z.string(), type: z.enum(['url', 'text']), required: z.boolean() }),
  ),
  tools: z.array(
    z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) }),
  ),
  available: z.boolean(),
  unavailable_reason: z.string().nullable(),
});
export type TPlugin = z.infer<typeof ZPlugin>;

export const ZUserPluginRequest = z.object({
  plugin: z.string().trim().min(1).max(40),
  name: z.string().trim().min(1).max(80).optional(),
  settings: z.record(z.string(), z.string().max(2000)).default({}),
  /** api_key plugins: the key; the HTTP webhook plugin makes a signing secret when none is given. */
  api_key: z.string().trim().min(8).max(4000).optional(),
});
export type TUserPluginRequest = z.input<typeof ZUserPluginRequest>;

/** `PUT /api/user-plugins/{id}/`: new settings that move the calls (a URL) keep no key or tokens unless given again. */
export const ZUserPluginUpdate = z.object({
  name: z.string().trim().min(1).max(80).optional(),
  settings: z.record(z.string(), z.string().max(2000)).optional(),
  api_key: z.string().trim().min(8).max(4000).optional(),
});
export type TUserPluginUpdate = z.infer<typeof ZUserPluginUpdate>;

/** A user's plugin connection: never its key or tokens (a generated signing secret is answered once: at creation, and when a new URL replaces it). */
export const ZUserPlugin = z.object({
  id: z.number(),
  plugin: z.string(),
  plugin_name: z.string(),
  name: z.string(),
  settings: z.record(z.string(), z.string()),
  status: ZConnectionStatus,
  last_error: z.string().nullable(),
  has_key: z.boolean(),
  tools: z.array(ZExternalToolInfo),
  connected_by: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  signing_secret: z.string().optional(),
});
export type TUserPlugin = z.infer<typeof ZUserPlugin>;
