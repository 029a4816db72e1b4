// The only code that touches plugin_connections.
import { connectionRows } from '../../db/connection-rows';
import { pluginConnections } from '../../db/schema';

export type PluginConnectionRow = typeof pluginConnections.$inferSelect;
export type NewPluginConnection = typeof pluginConnections.$inferInsert;

// Listed, found, added, changed, removed and refreshed under a lease as MCP servers are.
export const {
  list: listConnections,
  find: findConnection,
  insert: insertConnection,
  update: updateConnection,
  remove: deleteConnection,
  leased: leasedConnection,
} = connectionRows(pluginConnections);
