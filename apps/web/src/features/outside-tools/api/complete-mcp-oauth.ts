// POST /api/config/mcp-servers/callback/ {code, state} → the server, authorized (the OAuth callback page).
import { ZEnvelope, ZMcpServer, type TMcpServer, type TOAuthCallbackRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { MCP_SERVERS_PATH } from './get-mcp-servers';

export async function completeMcpOAuth(body: TOAuthCallbackRequest): Promise<TMcpServer> {
  const { data } = await protectedClient.post(`${MCP_SERVERS_PATH}callback/`, body);
  return ZEnvelope(ZMcpServer).parse(data).result;
}
