// @titan/mcp-sim: an MCP server over Streamable HTTP behind its own OAuth 2.1 authorization server.
export {
  DEFAULT_BEARER_TOKEN,
  startMcpSim,
  type McpSim,
  type McpSimOptions,
  type McpSimState,
  type McpSimSwitches,
  type ToolCall,
} from './sim';
export { BOOKINGS, ORDERS } from './data';
