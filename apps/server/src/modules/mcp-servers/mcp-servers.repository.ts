// The only code that touches mcp_servers (OAuth connect states: modules/outside-connections).
import { connectionRows } from '../../db/connection-rows';
import { mcpServers } from '../../db/schema';

export type { CachedTool, McpOauthState } from '../../db/schema';
export type McpServerRow = typeof mcpServers.$inferSelect;
export type NewMcpServer = typeof mcpServers.$inferInsert;

// Listed, found, added, changed, removed and refreshed under a lease as plugin connections are.
export const {
  list: listServers,
  find: findServer,
  insert: insertServer,
  update: updateServer,
  remove: deleteServer,
  leased: leasedServer,
} = connectionRows(mcpServers);
