// /engage/settings/plugins: the catalogue (each plugin with its tools) and the business's
// connections — status with the last error in words, connect or reconnect OAuth plugins, remove. A
// signing secret Titan makes is shown once, right after connecting.
import type { TPlugin, TUserPlugin } from '@titan/contracts';
import { useState } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useConnectUserPlugin } from '../api/connect-user-plugin';
import { useDeleteUserPlugin } from '../api/delete-user-plugin';
import { usePluginCatalogue } from '../api/get-plugin-catalogue';
import { useUserPlugins } from '../api/get-user-plugins';
import { ConnectPluginForm } from '../components/connect-plugin-form';
import { LastError, StatusBadge, ToolList } from '../components/connection-parts';
import { startOAuth } from '../redirect';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

function useConnect() {
  const connect = useConnectUserPlugin();
  return {
    pending: connect.isPending,
    start: (id: number) => startOAuth(connect, id, (error) => reportApiError(error, { toast: true })),
  };
}

function ConnectionCard({
  connection,
  plugin,
  canManage,
}: {
  connection: TUserPlugin;
  plugin?: TPlugin;
  canManage: boolean;
}) {
  const connect = useConnect();
  const remove = useDeleteUserPlugin();
  return (
    <li aria-label={connection.name} className="grid gap-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-1">
          <p className="font-medium">{connection.name}</p>
          <p className="text-xs text-muted-foreground">{connection.plugin_name}</p>
        </div>
        <StatusBadge status={connection.status} />
      </div>
      <LastError message={connection.last_error} />
      <ToolList tools={connection.tools} label={`${connection.name} tools`} />
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {plugin?.auth_type === 'oauth2' ? (
            <Button size="sm" disabled={connect.pending} onClick={() => connect.start(connection.id)}>
              {connection.status === 'connected' ? S.reconnect : S.connect}
            </Button>
          ) : null}
          <ConfirmAction
            trigger={S.remove}
            triggerLabel={`${S.remove} ${connection.name}`}
            title={S.plugins.removeTitle(connection.name)}
            description={S.plugins.removeDescription}
            confirmLabel={S.remove}
            variant="outline"
            onConfirm={() =>
              remove.mutate(connection.id, {
                onSuccess: () => toast.success(S.plugins.removed(connection.name)),
                onError: (error) => reportApiError(error, { toast: true }),
              })
            }
          />
        </div>
      ) : null}
    </li>
  );
}

export function PluginsSettingsRoute() {
  const catalogue = usePluginCatalogue();
  const connections = useUserPlugins();
  const { can, ready } = usePermissions();
  const connect = useConnect();
  const [open, setOpen] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  if (catalogue.isPending || connections.isPending || !ready) return <SectionLoading />;
  if (catalogue.isError || connections.isError) {
    const failed = catalogue.isError ? catalogue : connections;
    return (
      <SectionError error={failed.error} onRetry={() => void failed.refetch()} fallback={S.loadFailed} />
    );
  }
  const canManage = can('business.update');
  const onConnected = (connection: TUserPlugin, plugin: TPlugin) => {
    setOpen(null);
    toast.success(S.connectedToast(connection.name));
    if (connection.signing_secret) setSecret(connection.signing_secret);
    if (plugin.auth_type === 'oauth2') connect.start(connection.id);
  };
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{S.plugins.title}</CardTitle>
          <CardDescription>{S.plugins.description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {secret ? (
            <Alert role="status">
              <AlertDescription className="grid gap-2">
                <p className="font-medium">{S.plugins.secretTitle}</p>
                <code data-testid="signing-secret" className="font-mono text-xs break-all">
                  {secret}
                </code>
                <p>{S.plugins.secretHint}</p>
              </AlertDescription>
            </Alert>
          ) : null}
          <h2 className="text-sm font-semibold">{S.plugins.connections}</h2>
          {connections.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{S.plugins.empty}</p>
          ) : (
            <ul aria-label={S.plugins.connections} className="grid gap-3">
              {connections.data.map((c) => (
                <ConnectionCard
                  key={c.id}
                  connection={c}
                  plugin={catalogue.data.find((p) => p.id === c.plugin)}
                  canManage={canManage}
                />
              ))}
            </ul>
          )}
          {!canManage ? <p className="text-sm text-muted-foreground">{S.readOnly}</p> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{S.plugins.catalogue}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul aria-label={S.plugins.catalogue} className="grid gap-3">
            {catalogue.data.map((plugin) => (
              <li key={plugin.id} aria-label={plugin.name} className="grid gap-3 rounded-md border p-4">
                <div className="grid gap-1">
                  <p className="font-medium">{plugin.name}</p>
                  <p className="text-sm text-muted-foreground">{plugin.description}</p>
                </div>
                <ToolList tools={plugin.tools} label={`${plugin.name} tools`} />
                {!plugin.available ? (
                  <p className="text-sm text-muted-foreground">
                    {plugin.unavailable_reason ?? S.plugins.unavailable}
                  </p>
                ) : canManage && open === plugin.id ? (
                  <ConnectPluginForm
                    plugin={plugin}
                    onConnected={(c) => onConnected(c, plugin)}
                    onCancel={() => setOpen(null)}
                  />
                ) : canManage ? (
                  <div>
                    <Button size="sm" onClick={() => setOpen(plugin.id)}>
                      {S.plugins.connectTitle(plugin.name)}
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
