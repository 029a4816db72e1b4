// The public face of the mcp-servers module: what other modules and the app's composition may use.
// Everything else in modules/mcp-servers/ is private to it (eslint: titan-server/module-faces).

export { mcpServerRoutes } from './mcp-servers.routes';
export { findMcpServerRow, listMcpServerRows } from './mcp-servers.service';
export {
  callMcpTool,
  mcpErrorWords,
  type McpServerRow,
  readyForRun,
  toolInfos,
} from './mcp-servers.connection';
