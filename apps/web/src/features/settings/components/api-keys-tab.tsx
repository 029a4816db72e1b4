// Settings → API keys (api_keys.manage): list, create (the key is shown once), revoke after confirming.
import type { TApiKey, TRoleInfo } from '@titan/contracts';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useApiKeys } from '../api/get-api-keys';
import { usePermissions, useRoles } from '../../../lib/business/roles';
import { roleLabel } from '../utils/display';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { SETTINGS_STRINGS } from '../strings';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { SectionError, SectionLoading } from '../../../components/load-state';

const STRINGS = SETTINGS_STRINGS.apiKeys;

function ApiKeyRow({ apiKey, roles }: { apiKey: TApiKey; roles: TRoleInfo[] | undefined }) {
  const revoke = useRevokeApiKey();
  return (
    <TableRow>
      <TableCell className="font-medium">{apiKey.name}</TableCell>
      <TableCell>
        <code className="font-mono text-xs">{apiKey.prefix}…</code>
      </TableCell>
      <TableCell>{apiKey.role === null ? STRINGS.defaultRole : roleLabel(roles, apiKey.role)}</TableCell>
      <TableCell>{formatDate(apiKey.created_at)}</TableCell>
      <TableCell>{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : STRINGS.never}</TableCell>
      <TableCell>{apiKey.expires_at ? formatDate(apiKey.expires_at) : STRINGS.never}</TableCell>
      <TableCell className="text-right">
        <ConfirmAction
          trigger={SETTINGS_STRINGS.team.revoke}
          triggerLabel={STRINGS.revokeLabel(apiKey.name)}
          title={STRINGS.revokeTitle(apiKey.name)}
          description={STRINGS.revokeText}
          confirmLabel={SETTINGS_STRINGS.team.revoke}
          disabled={revoke.isPending}
          onConfirm={() =>
            revoke.mutate(apiKey.id, {
              onSuccess: () => toast.success(STRINGS.revoked(apiKey.name)),
              onError: (error) => reportApiError(error, { toast: true }),
            })
          }
        />
      </TableCell>
    </TableRow>
  );
}

function ApiKeyList() {
  const keys = useApiKeys();
  const roles = useRoles();
  if (keys.isPending) return <SectionLoading />;
  if (keys.isError) return <SectionError error={keys.error} onRetry={() => void keys.refetch()} />;
  if (keys.data.length === 0) return <p className="text-sm text-muted-foreground">{STRINGS.empty}</p>;
  return (
    <Table aria-label={STRINGS.title}>
      <TableHeader>
        <TableRow>
          <TableHead>{STRINGS.name}</TableHead>
          <TableHead>{STRINGS.prefix}</TableHead>
          <TableHead>{STRINGS.role}</TableHead>
          <TableHead>{STRINGS.created}</TableHead>
          <TableHead>{STRINGS.lastUsed}</TableHead>
          <TableHead>{STRINGS.expires}</TableHead>
          <TableHead className="text-right">{SETTINGS_STRINGS.team.actions}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {keys.data.map((apiKey) => (
          <ApiKeyRow key={apiKey.id} apiKey={apiKey} roles={roles.data} />
        ))}
      </TableBody>
    </Table>
  );
}

export function ApiKeysTab() {
  const { can, ready } = usePermissions();
  const allowed = can('api_keys.manage');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
        {allowed ? (
          <CardAction>
            <CreateApiKeyDialog />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {!ready ? (
          <SectionLoading />
        ) : allowed ? (
          <ApiKeyList />
        ) : (
          <p className="text-sm">{STRINGS.notAllowed}</p>
        )}
      </CardContent>
    </Card>
  );
}
