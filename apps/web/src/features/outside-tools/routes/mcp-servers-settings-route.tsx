// /engage/settings/mcp-servers: the business's MCP servers — status with the last error in words,
// connect or reconnect through OAuth, the tools with their descriptions, refresh, remove — and the
// form to add one (owners and admins; others read).
import type { TMcpServer } from '@titan/contracts';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useConnectMcpServer } from '../api/connect-mcp-server';
import { useDeleteMcpServer } from '../api/delete-mcp-server';
import { useMcpServers } from '../api/get-mcp-servers';
import { useRefreshMcpTools } from '../api/refresh-mcp-tools';
import { AddMcpServerForm } from '../components/add-mcp-server-form';
import { LastError, StatusBadge, ToolList } from '../components/connection-parts';
import { startOAuth } from '../redirect';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

function useConnect() {
  const connect = useConnectMcpServer();
  return {
    pending: connect.isPending,
    start: (id: number) => startOAuth(connect, id, (error) => reportApiError(error, { toast: true })),
  };
}

function ServerCard({ server, canManage }: { server: TMcpServer; canManage: boolean }) {
  const connect = useConnect();
  const remove = useDeleteMcpServer();
  const refresh = useRefreshMcpTools();
  return (
    <li aria-label={server.name} className="grid gap-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-1">
          <p className="font-medium">{server.name}</p>
          <p className="font-mono text-xs break-all text-muted-foreground">{server.url}</p>
        </div>
        <StatusBadge status={server.status} />
      </div>
      <LastError message={server.last_error} />
      <ToolList tools={server.tools} label={`${server.name} tools`} />
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {server.auth === 'oauth' ? (
            <Button
              size="sm"
              variant={server.status === 'connected' ? 'outline' : 'default'}
              disabled={connect.pending}
              onClick={() => connect.start(server.id)}
            >
              {connect.pending ? S.connecting : server.status === 'connected' ? S.reconnect : S.connect}
            </Button>
          ) : null}
          {server.auth !== 'oauth' || server.has_token ? (
            <Button
              size="sm"
              variant="outline"
              disabled={refresh.isPending}
              onClick={() =>
                refresh.mutate(server.id, { onError: (error) => reportApiError(error, { toast: true }) })
              }
            >
              {S.mcp.refreshTools}
            </Button>
          ) : null}
          <ConfirmAction
            trigger={S.remove}
            triggerLabel={`${S.remove} ${server.name}`}
            title={S.mcp.removeTitle(server.name)}
            description={S.mcp.removeDescription}
            confirmLabel={S.remove}
            variant="outline"
            onConfirm={() =>
              remove.mutate(server.id, {
                onSuccess: () => toast.success(S.mcp.removed(server.name)),
                onError: (error) => reportApiError(error, { toast: true }),
              })
            }
          />
        </div>
      ) : null}
    </li>
  );
}

export function McpServersSettingsRoute() {
  const servers = useMcpServers();
  const { can, ready } = usePermissions();
  const connect = useConnect();
  if (servers.isPending || !ready) return <SectionLoading />;
  if (servers.isError)
    return (
      <SectionError error={servers.error} onRetry={() => void servers.refetch()} fallback={S.loadFailed} />
    );
  const canManage = can('business.update');
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{S.mcp.title}</CardTitle>
          <CardDescription>{S.mcp.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {servers.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{S.mcp.empty}</p>
          ) : (
            <ul aria-label={S.mcp.title} className="grid gap-3">
              {servers.data.map((server) => (
                <ServerCard key={server.id} server={server} canManage={canManage} />
              ))}
            </ul>
          )}
          {!canManage ? <p className="mt-4 text-sm text-muted-foreground">{S.readOnly}</p> : null}
        </CardContent>
      </Card>
      {canManage ? (
        <Card>
          <CardHeader>
            <CardTitle>{S.mcp.addTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            <AddMcpServerForm onAdded={(server) => server.auth === 'oauth' && connect.start(server.id)} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
