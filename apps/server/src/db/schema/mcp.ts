// MCP servers and plugin connections (engage.md §6), and the OAuth connect states both use. Only
// modules/mcp-servers/mcp-servers.repository.ts and modules/plugins/plugins.repository.ts touch them.
import { bigint, bigserial, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { MCP_AUTH_KINDS, type TConnectionStatus } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

/** A tool as listed by its server, cached. */
export type CachedTool = { name: string; description: string; input_schema: Record<string, unknown> };

/** What OAuth discovery and registration found for an MCP server. */
export type McpOauthState = {
  resource: string;
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  scopes?: string[];
  registration: 'pre_registered' | 'metadata_document' | 'dynamic';
  client_id: string;
  token_endpoint_auth_method: string;
  iss_parameter_supported?: boolean;
};

export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    auth: text('auth', { enum: MCP_AUTH_KINDS }).notNull(),
    status: text('status').$type<TConnectionStatus>().notNull(),
    lastError: text('last_error'),
    bearerTokenSealed: text('bearer_token_sealed'),
    oauth: jsonb('oauth').$type<McpOauthState>(),
    clientSecretSealed: text('client_secret_sealed'),
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: ts('token_expires_at'),
    refreshLeaseUntil: ts('refresh_lease_until'),
    tools: jsonb('tools').$type<CachedTool[]>().notNull().default([]),
    toolsListedAt: ts('tools_listed_at'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mcp_servers_business_name_key').on(t.businessId, sql`lower(${t.name})`)],
);

export const pluginConnections = pgTable(
  'plugin_connections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    plugin: text('plugin').notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
    status: text('status').$type<TConnectionStatus>().notNull(),
    lastError: text('last_error'),
    keySealed: text('key_sealed'),
    accessTokenSealed: text('access_token_sealed'),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: ts('token_expires_at'),
    refreshLeaseUntil: ts('refresh_lease_until'),
    connectedBy: bigint('connected_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('plugin_connections_business_idx').on(t.businessId, t.id)],
);

export const oauthConnectStates = pgTable('oauth_connect_states', {
  stateHash: text('state_hash').primaryKey(),
  businessId: bigint('business_id', { mode: 'number' })
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  kind: text('kind', { enum: ['mcp', 'plugin'] }).notNull(),
  targetId: bigint('target_id', { mode: 'number' }).notNull(),
  codeVerifierSealed: text('code_verifier_sealed').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  issuer: text('issuer'),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
