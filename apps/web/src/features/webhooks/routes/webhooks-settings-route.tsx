// /engage/settings/webhooks: the business's webhook endpoints — their events, state, the secret
// shown once after adding (or a new URL), a test send, turning on and off, remove — and each
// endpoint's delivery log with replay (owners and admins; the API answers others 403).
import type { TWebhookEndpoint, TWebhookEndpointWithSecret } from '@titan/contracts';
import { useState } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { CopyableValue } from '../../../components/copyable-value';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useDeleteWebhookEndpoint } from '../api/delete-webhook-endpoint';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints';
import { useReplayFailed } from '../api/replay-failed';
import { useTestWebhookEndpoint } from '../api/test-webhook-endpoint';
import { useUpdateWebhookEndpoint } from '../api/update-webhook-endpoint';
import { AddEndpointForm } from '../components/add-endpoint-form';
import { DeliveriesLog } from '../components/deliveries-log';
import { WEBHOOKS_STRINGS as S } from '../strings';

function SecretOnce({ endpoint, onDone }: { endpoint: TWebhookEndpointWithSecret; onDone: () => void }) {
  if (!endpoint.secret) return null;
  return (
    <div role="status" className="grid gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-4">
      <p className="text-sm">{S.secretOnce}</p>
      <CopyableValue label={S.secretTitle} value={endpoint.secret} copyLabel={S.copySecret} />
      <div>
        <Button size="sm" onClick={onDone}>
          {S.done}
        </Button>
      </div>
    </div>
  );
}

function EndpointCard({ endpoint, canManage }: { endpoint: TWebhookEndpoint; canManage: boolean }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const test = useTestWebhookEndpoint();
  const replayFailed = useReplayFailed();
  const onError = (error: unknown) => reportApiError(error, { toast: true });
  return (
    <li aria-label={endpoint.url} className="grid gap-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description ? (
            <p className="text-sm text-muted-foreground">{endpoint.description}</p>
          ) : null}
        </div>
        <StatusBadge tone={!endpoint.enabled ? 'bad' : endpoint.failing_since ? 'waiting' : 'good'}>
          {!endpoint.enabled ? S.disabled : endpoint.failing_since ? S.failing : S.enabled}
        </StatusBadge>
      </div>
      {endpoint.disabled_reason ? (
        <p className="text-sm text-destructive">{endpoint.disabled_reason}</p>
      ) : null}
      <p className="font-mono text-xs break-all text-muted-foreground">{endpoint.event_types.join(', ')}</p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? S.hideDeliveries : S.deliveries}
        </Button>
        {canManage ? (
          <>
            <Button
              size="sm"
              variant="outline"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(endpoint.id, {
                  onSuccess: (d) =>
                    d.status === 'delivered'
                      ? toast.success(S.testSent(d.response_status))
                      : toast.error(d.error ?? S.testSent(d.response_status)),
                  onError,
                })
              }
            >
              {test.isPending ? S.testing : S.test}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={replayFailed.isPending}
              onClick={() =>
                replayFailed.mutate(endpoint.id, {
                  onSuccess: (r) => toast.success(S.replayed(r.replayed)),
                  onError,
                })
              }
            >
              {S.replayFailed}
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={update.isPending}
              onClick={() => update.mutate({ id: endpoint.id, enabled: !endpoint.enabled }, { onError })}
            >
              {endpoint.enabled ? S.turnOff : S.turnOn}
            </Button>
            <ConfirmAction
              trigger={S.remove}
              triggerLabel={`${S.remove} ${endpoint.url}`}
              title={S.removeTitle(endpoint.url)}
              description={S.removeDescription}
              confirmLabel={S.remove}
              variant="outline"
              onConfirm={() =>
                remove.mutate(endpoint.id, { onSuccess: () => toast.success(S.removed), onError })
              }
            />
          </>
        ) : null}
      </div>
      {open ? <DeliveriesLog endpointId={endpoint.id} canManage={canManage} /> : null}
    </li>
  );
}

export function WebhooksSettingsRoute() {
  const { can, ready } = usePermissions();
  const canManage = can('business.update');
  const endpoints = useWebhookEndpoints();
  const [justAdded, setJustAdded] = useState<TWebhookEndpointWithSecret | null>(null);
  if (!ready) return <SectionLoading />;
  if (!canManage) return <p className="text-sm text-muted-foreground">{S.readOnly}</p>;
  if (endpoints.isPending) return <SectionLoading />;
  if (endpoints.isError)
    return (
      <SectionError
        error={endpoints.error}
        onRetry={() => void endpoints.refetch()}
        fallback={S.loadFailed}
      />
    );
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {justAdded ? <SecretOnce endpoint={justAdded} onDone={() => setJustAdded(null)} /> : null}
          {endpoints.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{S.empty}</p>
          ) : (
            <ul aria-label={S.title} className="grid gap-3">
              {endpoints.data.map((endpoint) => (
                <EndpointCard key={endpoint.id} endpoint={endpoint} canManage={canManage} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{S.addTitle}</CardTitle>
        </CardHeader>
        <CardContent>
          <AddEndpointForm onAdded={setJustAdded} />
        </CardContent>
      </Card>
    </div>
  );
}
