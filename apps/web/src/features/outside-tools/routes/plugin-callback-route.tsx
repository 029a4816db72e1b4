// /engage/settings/plugins/callback: where an OAuth plugin's provider sends the person back.
import { settingsPath } from '../../../config/paths';
import { completePluginOAuth } from '../api/complete-plugin-oauth';
import { OAuthCallback } from '../components/oauth-callback';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

export function PluginCallbackRoute() {
  return (
    <OAuthCallback
      title={S.plugins.title}
      backTo={settingsPath('plugins')}
      backLabel={S.backToPlugins}
      complete={completePluginOAuth}
    />
  );
}
