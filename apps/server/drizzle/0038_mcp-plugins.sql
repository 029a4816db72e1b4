-- MCP servers and plugin connections (engage.md §6): outside tools for agents. Tokens are sealed with
-- APP_SECRET; `refresh_lease_until` lets one process at a time refresh a connection's OAuth tokens
-- (concurrent refreshes would revoke the grant at strict servers); OAuth connect states are
-- single-use and bound to the business and user who started them.
CREATE TABLE "mcp_servers" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "url" text NOT NULL,
  "auth" text NOT NULL CHECK ("auth" IN ('none', 'bearer', 'oauth')),
  "status" text NOT NULL CHECK ("status" IN ('pending_oauth', 'connected', 'expired', 'error')),
  "last_error" text,
  "bearer_token_sealed" text,
  "oauth" jsonb,
  "client_secret_sealed" text,
  "access_token_sealed" text,
  "refresh_token_sealed" text,
  "token_expires_at" timestamptz,
  "refresh_lease_until" timestamptz,
  "tools" jsonb NOT NULL DEFAULT '[]',
  "tools_listed_at" timestamptz,
  "created_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_servers_business_name_key" ON "mcp_servers" ("business_id", lower("name"));
--> statement-breakpoint
CREATE TABLE "plugin_connections" (
  "id" bigserial PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "plugin" text NOT NULL,
  "name" text NOT NULL,
  "settings" jsonb NOT NULL DEFAULT '{}',
  "status" text NOT NULL CHECK ("status" IN ('pending_oauth', 'connected', 'expired', 'error')),
  "last_error" text,
  "key_sealed" text,
  "access_token_sealed" text,
  "refresh_token_sealed" text,
  "token_expires_at" timestamptz,
  "refresh_lease_until" timestamptz,
  "connected_by" bigint,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "plugin_connections_business_idx" ON "plugin_connections" ("business_id", "id");
--> statement-breakpoint
CREATE TABLE "oauth_connect_states" (
  "state_hash" text PRIMARY KEY,
  "business_id" bigint NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "user_id" bigint NOT NULL,
  "kind" text NOT NULL CHECK ("kind" IN ('mcp', 'plugin')),
  "target_id" bigint NOT NULL,
  "code_verifier_sealed" text NOT NULL,
  "redirect_uri" text NOT NULL,
  "issuer" text,
  "expires_at" timestamptz NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
