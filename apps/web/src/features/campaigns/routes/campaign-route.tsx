// /engage/campaigns/{id}: one campaign — its progress while it sends (pause, resume, cancel), then
// its results: totals (machine opens apart), per variant, per link, over time, and each recipient
// with their send; the recipients as CSV.
import { DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { LineChart } from '../../../components/charts/line-chart';
import { ConfirmAction } from '../../../components/confirm-action';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { CAMPAIGNS_PATH, editCampaignPath } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDateTime } from '../../../lib/format';
import { useCampaignAction, useDeleteCampaign } from '../api/campaign-action';
import { downloadRecipients } from '../api/download-recipients';
import { useCampaign } from '../api/get-campaign';
import { RECIPIENTS_PAGE_SIZE, useRecipients } from '../api/get-recipients';
import { useReport } from '../api/get-report';
import { CampaignStatus } from '../components/campaign-status';
import { CAMPAIGN_STRINGS as S, CAMPAIGNS_STRINGS } from '../strings';

const COLORS = {
  sent: 'var(--color-sky-500, #0ea5e9)',
  opened: 'var(--color-violet-500, #8b5cf6)',
  clicked: 'var(--color-emerald-500, #10b981)',
};

const TOTAL_KEYS = [
  'recipients',
  'sent',
  'delivered',
  'opened',
  'opened_machine',
  'clicked',
  'bounced',
  'complained',
  'unsubscribed',
  'failed',
] as const;

/**
 * A campaign just sent: its last sends are still on their way to the mail server, so the results
 * keep refreshing for two minutes after it finished.
 */
const settling = (c: { status: string; finished_at: string | null }) =>
  c.status === 'sent' && c.finished_at !== null && Date.now() - Date.parse(c.finished_at) < 120_000;

function Results({ id, live }: { id: string; live: boolean }) {
  const report = useReport(id, live);
  const [page, setPage] = useState(1);
  const recipients = useRecipients(id, page);
  if (report.isPending) return <SectionLoading />;
  if (report.isError) return <SectionError error={report.error} onRetry={() => void report.refetch()} />;
  const r = report.data;
  return (
    <div className="grid gap-8">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {TOTAL_KEYS.map((k) => (
          <div key={k} className="rounded-md border p-3">
            <dt className="text-xs text-muted-foreground">{S.totals[k]}</dt>
            <dd className="text-xl font-semibold tabular-nums">{r.totals[k].toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {r.series.length > 0 ? (
        <section className="grid gap-3">
          <h2 className="text-lg font-semibold">{S.overTime}</h2>
          <LineChart
            label={S.chartLabel}
            xLabels={r.series.map((p) => p.at.slice(5, 13).replace('T', ' '))}
            series={(['sent', 'opened', 'clicked'] as const).map((k) => ({
              key: k,
              label: S.series[k],
              color: COLORS[k],
              values: r.series.map((p) => p[k]),
            }))}
          />
        </section>
      ) : null}
      {r.variants.length > 1 ? (
        <section className="grid gap-3">
          <h2 className="text-lg font-semibold">{S.variants}</h2>
          <Table aria-label={S.variants}>
            <TableHeader>
              <TableRow>
                <TableHead>#</TableHead>
                <TableHead className="text-right">{S.totals.recipients}</TableHead>
                <TableHead className="text-right">{S.totals.opened}</TableHead>
                <TableHead className="text-right">{S.totals.clicked}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {r.variants.map((v) => (
                <TableRow key={v.index}>
                  <TableCell>
                    {String.fromCharCode(65 + v.index)} {v.winner ? `(${S.winner})` : ''}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{v.recipients}</TableCell>
                  <TableCell className="text-right tabular-nums">{v.opened}</TableCell>
                  <TableCell className="text-right tabular-nums">{v.clicked}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </section>
      ) : null}
      <section className="grid gap-3">
        <h2 className="text-lg font-semibold">{S.links}</h2>
        {r.links.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.noLinks}</p>
        ) : (
          <Table aria-label={S.linksLabel}>
            <TableHeader>
              <TableRow>
                <TableHead>{S.linkColumns.url}</TableHead>
                <TableHead className="text-right">{S.linkColumns.clicks}</TableHead>
                <TableHead className="text-right">{S.linkColumns.unique}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {r.links.map((l) => (
                <TableRow key={l.url}>
                  <TableCell className="max-w-[16rem] break-all sm:max-w-none">{l.url}</TableCell>
                  <TableCell className="text-right tabular-nums">{l.clicks}</TableCell>
                  <TableCell className="text-right tabular-nums">{l.unique_clickers}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
      <section className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{S.recipients}</h2>
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              void downloadRecipients(id).catch((err: unknown) => toast.error(apiErrorMessage(err)))
            }
          >
            <DownloadIcon aria-hidden="true" />
            {S.download}
          </Button>
        </div>
        {recipients.data && recipients.data.count > 0 ? (
          <>
            <Table aria-label={S.recipientsLabel}>
              <TableHeader>
                <TableRow>
                  <TableHead>{S.recipientColumns.customer}</TableHead>
                  <TableHead>{S.recipientColumns.address}</TableHead>
                  <TableHead>{S.recipientColumns.state}</TableHead>
                  <TableHead>{S.recipientColumns.send}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {recipients.data.results.map((x) => (
                  <TableRow key={x.customer_id}>
                    <TableCell>{x.name ?? `#${x.customer_id}`}</TableCell>
                    <TableCell className="break-all">{x.address ?? '—'}</TableCell>
                    <TableCell>{x.state}</TableCell>
                    <TableCell>
                      {x.send_id ? (
                        <Link className="hover:underline" to={`/engage/event-logs/${x.send_id}`}>
                          {x.send_status}
                        </Link>
                      ) : (
                        (x.skip_reason ?? '—')
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Pager
              page={page}
              pageSize={RECIPIENTS_PAGE_SIZE}
              count={recipients.data.count}
              shown={recipients.data.results.length}
              onPage={setPage}
            />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{S.noRecipients}</p>
        )}
      </section>
    </div>
  );
}

export function CampaignRoute() {
  const id = useParams().id ?? '';
  const campaign = useCampaign(id);
  const action = useCampaignAction(id);
  const remove = useDeleteCampaign(id);
  const navigate = useNavigate();
  const canWrite = usePermissions().can('engage.write');
  if (campaign.isPending) return <SectionLoading />;
  if (campaign.isError)
    return (
      <SectionError
        error={campaign.error}
        onRetry={() => void campaign.refetch()}
        fallback={CAMPAIGNS_STRINGS.loadFailed}
      />
    );
  const c = campaign.data;
  const run = (a: 'pause' | 'resume' | 'cancel') =>
    action.mutate(a, { onError: (err) => toast.error(apiErrorMessage(err)) });
  const skipped = Object.entries(c.skipped_reasons).filter(([, n]) => n > 0);
  return (
    <PageLayout
      title={c.name}
      description={
        <span className="flex flex-wrap items-center gap-2">
          <CampaignStatus status={c.status} />
          <span>{CAMPAIGNS_STRINGS.channels[c.channel]}</span>
          {c.started_at ? <span>{formatDateTime(c.started_at)}</span> : null}
          {c.recipients > 0 ? <span>{S.progress(c.processed, c.recipients)}</span> : null}
        </span>
      }
      actions={
        canWrite ? (
          <div className="flex flex-wrap gap-2">
            {c.status === 'draft' ? (
              <>
                <Button asChild>
                  <Link to={editCampaignPath(c.id)}>{S.edit}</Link>
                </Button>
                <ConfirmAction
                  variant="outline"
                  size="default"
                  trigger={S.delete}
                  title={S.deleteTitle(c.name)}
                  description={S.deleteText}
                  confirmLabel={S.deleteConfirm}
                  disabled={remove.isPending}
                  onConfirm={() =>
                    remove.mutate(undefined, {
                      onSuccess: () => {
                        toast.success(S.deleted(c.name));
                        void navigate(CAMPAIGNS_PATH);
                      },
                      onError: (err) => toast.error(apiErrorMessage(err)),
                    })
                  }
                />
              </>
            ) : null}
            {c.status === 'sending' || c.status === 'scheduled' ? (
              <Button variant="outline" disabled={action.isPending} onClick={() => run('pause')}>
                {S.pause}
              </Button>
            ) : null}
            {c.status === 'paused' ? (
              <Button disabled={action.isPending} onClick={() => run('resume')}>
                {S.resume}
              </Button>
            ) : null}
            {['scheduled', 'sending', 'paused'].includes(c.status) ? (
              <ConfirmAction
                variant="outline"
                size="default"
                trigger={S.cancel}
                title={S.cancelTitle(c.name)}
                description={S.cancelText}
                disabled={action.isPending}
                confirmLabel={S.cancel}
                onConfirm={() => run('cancel')}
              />
            ) : null}
          </div>
        ) : null
      }
    >
      {skipped.length > 0 ? (
        <p className="text-sm text-muted-foreground">
          {S.skipped}: {skipped.map(([reason, n]) => `${n} ${reason}`).join(' · ')}
        </p>
      ) : null}
      <Results id={c.id} live={c.status === 'sending' || settling(c)} />
    </PageLayout>
  );
}
