// /engage/settings/mcp-servers/callback: where an MCP server's authorization server sends the person back.
import { settingsPath } from '../../../config/paths';
import { completeMcpOAuth } from '../api/complete-mcp-oauth';
import { OAuthCallback } from '../components/oauth-callback';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

export function McpCallbackRoute() {
  return (
    <OAuthCallback
      title={S.mcp.title}
      backTo={settingsPath('mcp-servers')}
      backLabel={S.backToMcp}
      complete={completeMcpOAuth}
    />
  );
}
