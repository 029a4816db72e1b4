// /engage/event-logs/agents/{agentId}/{channel}/{runId}: one run of an agent on a channel — its
// summary and counts, the review queue (approve or reject waiting messages one by one or all), its
// messages, each linking to the send's page in the channel's event log, and what the agent did.
import type { TAgentChannel, TAgentDelivery, TAgentRun } from '@titan/contracts';
import { AGENT_CHANNELS } from '@titan/contracts';
import { CheckIcon, FileQuestionIcon, XIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { agentRunsPath, eventLogPath } from '../../../config/paths';
import { apiErrorMessage, apiErrorStatus, isHandledApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDateTime } from '../../../lib/format';
import { useTemplateNames } from '../api/audience-options';
import { RUN_ITEMS_PAGE_SIZE, useAgentRun } from '../api/get-agent-run';
import { useReviewDeliveries } from '../api/review-deliveries';
import { RunStatusBadge } from '../components/agent-status';
import { RunSteps } from '../components/run-steps';
import { AGENT_STRINGS } from '../strings';
import { customerLabel } from '../utils/customer-label';
import { idFrom } from '../utils/ids';
import { RunLogPage } from './agent-runs-route';

const G = AGENT_STRINGS.logs;
const R = G.review;

const DELIVERY_TONES: Record<TAgentDelivery['status'], TStatusTone> = {
  planned: 'waiting',
  pending_approval: 'waiting',
  approved: 'waiting',
  rejected: 'neutral',
  sent: 'good',
  failed: 'bad',
  suppressed: 'neutral',
  skipped: 'neutral',
  dry_run: 'neutral',
};

function RunSummary({ run }: { run: TAgentRun }) {
  const S = G.summary;
  const rows: [string, React.ReactNode][] = [
    [S.status, <RunStatusBadge key="s" status={run.status} />],
    [S.trigger, AGENT_STRINGS.trigger[run.trigger]],
    [S.version, G.versionValue(run.config_version)],
    [S.mode, G.modes[run.send_mode]],
    [S.started, formatDateTime(run.started_at)],
    [S.finished, run.finished_at ? formatDateTime(run.finished_at) : '—'],
    [S.tokens, run.tokens.toLocaleString()],
    ...(run.cost !== null ? ([[S.cost, `$${run.cost.toFixed(4)}`]] as [string, string][]) : []),
  ];
  const counts = Object.entries(run.counts) as [keyof typeof G.counts, number][];
  return (
    <div className="grid gap-4">
      {run.error ? (
        <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm text-destructive">
          <span className="font-medium">{S.error}: </span>
          {run.error}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <dl aria-label={G.deliveriesTitle} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {counts.map(([key, n]) => (
          <div key={key} className="rounded-md border p-3">
            <dt className="text-xs text-muted-foreground">{G.counts[key]}</dt>
            <dd className="text-xl font-semibold tabular-nums">{n}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Deliveries({ run, agentId, canReview }: { run: TAgentRun; agentId: number; canReview: boolean }) {
  const review = useReviewDeliveries();
  const templateNames = useTemplateNames(run.channel);
  const waitingCount = run.counts.pending_approval;

  const act = (action: 'approve' | 'reject', ids: string[] | 'all') =>
    review.mutate(
      { agentId, runId: run.id, action, body: ids === 'all' ? { all: true } : { delivery_ids: ids } },
      {
        onSuccess: (result) =>
          toast.success(action === 'approve' ? R.approved(result.updated) : R.rejected(result.updated)),
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(apiErrorMessage(error));
        },
      },
    );

  return (
    <section aria-labelledby="run-deliveries" className="grid gap-3">
      <h2 id="run-deliveries" className="text-lg font-semibold">
        {G.deliveriesTitle}
      </h2>
      {waitingCount > 0 ? (
        <div
          role="region"
          aria-label={R.title}
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
        >
          <div className="grid gap-0.5">
            <p className="font-medium">{R.title}</p>
            <p>{R.text(waitingCount)}</p>
          </div>
          {canReview ? (
            <div className="ml-auto flex gap-2">
              <ConfirmAction
                variant="default"
                tone="default"
                trigger={
                  <>
                    <CheckIcon aria-hidden="true" />
                    {R.approveAll}
                  </>
                }
                title={R.approveAllTitle(waitingCount)}
                description={R.approveAllText(waitingCount)}
                confirmLabel={R.approveAllConfirm(waitingCount)}
                disabled={review.isPending}
                onConfirm={() => act('approve', 'all')}
              />
              <ConfirmAction
                variant="outline"
                trigger={
                  <>
                    <XIcon aria-hidden="true" />
                    {R.rejectAll}
                  </>
                }
                title={R.rejectAllTitle}
                description={R.rejectAllText}
                confirmLabel={R.rejectAll}
                disabled={review.isPending}
                onConfirm={() => act('reject', 'all')}
              />
            </div>
          ) : (
            <p className="ml-auto text-muted-foreground">{R.readOnly}</p>
          )}
        </div>
      ) : null}
      {run.deliveries.length === 0 ? (
        <p className="text-sm text-muted-foreground">{G.noDeliveries}</p>
      ) : (
        <Table aria-label={G.deliveriesLabel}>
          <TableHeader>
            <TableRow>
              <TableHead>{G.deliveryColumns.customer}</TableHead>
              <TableHead>{G.deliveryColumns.status}</TableHead>
              <TableHead>{G.deliveryColumns.message}</TableHead>
              <TableHead>{G.deliveryColumns.reason}</TableHead>
              <TableHead className="sr-only">{G.deliveryColumns.actions}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {run.deliveries.map((d) => {
              const who = customerLabel(d.customer);
              return (
                <TableRow key={d.id}>
                  <TableCell className="min-w-40 whitespace-normal">
                    <div className="grid gap-0.5">
                      <span className="font-medium [overflow-wrap:anywhere]">{who}</span>
                      {d.customer ? (
                        <span className="text-xs [overflow-wrap:anywhere] text-muted-foreground">
                          {d.channel === 'email' ? d.customer.email : d.customer.phone}
                        </span>
                      ) : null}
                    </div>
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    <div className="grid justify-items-start gap-1">
                      <StatusBadge tone={DELIVERY_TONES[d.status]}>{G.deliveryStatus[d.status]}</StatusBadge>
                      {d.guardrail ? (
                        <span className="text-xs text-muted-foreground">{G.guardrails[d.guardrail]}</span>
                      ) : null}
                    </div>
                  </TableCell>
                  <TableCell className="max-w-sm min-w-56 whitespace-normal">
                    {d.subject ? <p className="text-sm font-medium">{d.subject}</p> : null}
                    {d.body ? (
                      <p className="line-clamp-3 text-xs whitespace-pre-wrap text-muted-foreground">
                        {d.body}
                      </p>
                    ) : null}
                    {d.template_id !== null ? (
                      <p className="text-xs text-muted-foreground">
                        {G.templateNamed(
                          templateNames.get(`${d.channel}:${d.template_id}`) ?? `#${d.template_id}`,
                        )}
                      </p>
                    ) : null}
                  </TableCell>
                  <TableCell className="max-w-sm min-w-48 text-sm whitespace-normal">{d.reason}</TableCell>
                  <TableCell className="text-right">
                    <div className="flex justify-end gap-2">
                      {d.status === 'pending_approval' && canReview ? (
                        <>
                          <Button
                            type="button"
                            size="sm"
                            aria-label={R.approveOne(who)}
                            disabled={review.isPending}
                            onClick={() => act('approve', [d.id])}
                          >
                            {R.approve}
                          </Button>
                          <Button
                            type="button"
                            size="sm"
                            variant="outline"
                            aria-label={R.rejectOne(who)}
                            disabled={review.isPending}
                            onClick={() => act('reject', [d.id])}
                          >
                            {R.reject}
                          </Button>
                        </>
                      ) : null}
                      {d.send_id ? (
                        <Button asChild size="sm" variant="ghost">
                          <Link to={eventLogPath(d.channel, d.send_id)} aria-label={G.openSendOf(who)}>
                            {G.openSend}
                          </Link>
                        </Button>
                      ) : null}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {run.deliveries.length < run.deliveries_count ? (
        <p className="text-xs text-muted-foreground">
          {G.morePages(run.deliveries.length, run.deliveries_count)}
        </p>
      ) : null}
    </section>
  );
}

function Run({ agentId, channel, runId }: { agentId: number; channel: TAgentChannel; runId: string }) {
  const [pageSize, setPageSize] = useState(RUN_ITEMS_PAGE_SIZE);
  const run = useAgentRun(agentId, runId, pageSize);
  const { can } = usePermissions();
  const names = useMemo(() => {
    const map = new Map<number, string>();
    for (const d of run.data?.deliveries ?? [])
      if (d.customer) map.set(d.customer.id, customerLabel(d.customer));
    return map;
  }, [run.data]);
  const back = { to: agentRunsPath(agentId, channel), label: G.backToRuns };
  const channelName = AGENT_STRINGS.channels[channel];

  if ((run.isError && apiErrorStatus(run.error) === 404) || (run.data && run.data.channel !== channel))
    return (
      <RunLogPage agentId={agentId} title={G.notFoundTitle} back={back}>
        <EmptyState icon={FileQuestionIcon} title={G.notFoundTitle} text={G.notFoundText} />
      </RunLogPage>
    );
  if (run.isPending)
    return (
      <RunLogPage agentId={agentId} title={G.runTitle(channelName, '')} back={back}>
        <SectionLoading />
      </RunLogPage>
    );
  if (run.isError)
    return (
      <RunLogPage agentId={agentId} title={G.runTitle(channelName, '')} back={back}>
        <SectionError error={run.error} onRetry={() => void run.refetch()} fallback={G.runLoadFailed} />
      </RunLogPage>
    );
  const data = run.data;
  const more = data.deliveries.length < data.deliveries_count || data.steps.length < data.steps_count;
  return (
    <RunLogPage
      agentId={agentId}
      title={G.runTitle(channelName, formatDateTime(data.started_at))}
      back={back}
    >
      <RunSummary run={data} />
      <Deliveries run={data} agentId={agentId} canReview={can('engage.write')} />
      <section aria-labelledby="run-steps" className="grid gap-3">
        <h2 id="run-steps" className="text-lg font-semibold">
          {G.stepsTitle}
        </h2>
        <RunSteps steps={data.steps} customerNames={names} />
        {data.steps.length < data.steps_count ? (
          <p className="text-xs text-muted-foreground">{G.morePages(data.steps.length, data.steps_count)}</p>
        ) : null}
      </section>
      {more && pageSize < 500 ? (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => setPageSize(500)}>
            {G.loadMore}
          </Button>
        </div>
      ) : null}
    </RunLogPage>
  );
}

export function AgentRunRoute() {
  const params = useParams();
  const agentId = idFrom(params.agentId);
  const channel = params.channel as TAgentChannel | undefined;
  const runId = params.runId ?? '';
  if (agentId === null || !channel || !(AGENT_CHANNELS as readonly string[]).includes(channel) || !runId)
    return (
      <RunLogPage agentId={agentId ?? 0} title={G.notFoundTitle}>
        <EmptyState icon={FileQuestionIcon} title={G.notFoundTitle} text={G.notFoundText} />
      </RunLogPage>
    );
  return <Run key={`${agentId}/${channel}/${runId}`} agentId={agentId} channel={channel} runId={runId} />;
}
