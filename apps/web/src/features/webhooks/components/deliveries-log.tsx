// An endpoint's delivery log: event, status, the receiver's answer, attempts, when; each row opens
// to the request and response bodies, and a failed one can be sent again.
import type { TWebhookDelivery } from '@titan/contracts';
import { useState } from 'react';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { reportApiError } from '../../../lib/api-errors';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useReplayDelivery } from '../api/replay-delivery';
import { WEBHOOKS_STRINGS as S } from '../strings';

const TONE: Record<TWebhookDelivery['status'], TStatusTone> = {
  pending: 'waiting',
  delivered: 'good',
  failed: 'bad',
};

function DeliveryRow({ delivery, canManage }: { delivery: TWebhookDelivery; canManage: boolean }) {
  const replay = useReplayDelivery();
  return (
    <li className="grid gap-2 rounded-md border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={TONE[delivery.status]}>{S.statuses[delivery.status]}</StatusBadge>
        <span className="font-mono text-xs">{delivery.event_type}</span>
        <span className="text-muted-foreground">
          {delivery.response_status ?? '—'} · {S.columns.attempts}: {delivery.attempts} ·{' '}
          {new Date(delivery.last_attempt_at ?? delivery.created_at).toLocaleString()}
        </span>
        {canManage && delivery.status !== 'pending' ? (
          <Button
            size="sm"
            variant="outline"
            className="ml-auto"
            disabled={replay.isPending}
            onClick={() =>
              replay.mutate(delivery.id, { onError: (error) => reportApiError(error, { toast: true }) })
            }
          >
            {S.replay}
          </Button>
        ) : null}
      </div>
      {delivery.error ? <p className="text-destructive">{delivery.error}</p> : null}
      <details>
        <summary className="cursor-pointer text-muted-foreground">
          {S.request} / {S.response}
        </summary>
        <p className="mt-2 font-mono text-xs break-all text-muted-foreground">{delivery.event_id}</p>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 text-xs break-all whitespace-pre-wrap">
          {delivery.request_body}
        </pre>
        <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 text-xs break-all whitespace-pre-wrap">
          {delivery.response_body ?? '—'}
        </pre>
      </details>
    </li>
  );
}

export function DeliveriesLog({ endpointId, canManage }: { endpointId: number; canManage: boolean }) {
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpointId, page);
  if (deliveries.isPending) return <SectionLoading />;
  if (deliveries.isError)
    return (
      <SectionError
        error={deliveries.error}
        onRetry={() => void deliveries.refetch()}
        fallback={S.loadFailed}
      />
    );
  const { results, count } = deliveries.data;
  if (results.length === 0) return <p className="text-sm text-muted-foreground">{S.noDeliveries}</p>;
  return (
    <div className="grid gap-3">
      <ul aria-label={S.deliveries} className="grid gap-2">
        {results.map((d) => (
          <DeliveryRow key={d.id} delivery={d} canManage={canManage} />
        ))}
      </ul>
      <Pager page={page} pageSize={20} count={count} shown={results.length} onPage={setPage} />
    </div>
  );
}
