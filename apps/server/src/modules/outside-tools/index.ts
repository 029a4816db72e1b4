// The public face of the outside-tools module: the tools of a business's connected MCP servers and
// plugins as agents and the AI responder see them (engage.md §6). It reads the mcp-servers and
// plugins modules through their faces and owns no table. Everything else here is private to it
// (eslint: titan-server/module-faces).

export {
  callExternalTool,
  externalServerExists,
  type ExternalTool,
  type ExternalToolDeps,
  listExternalTools,
  prepareExternalTools,
} from './outside-tools';
