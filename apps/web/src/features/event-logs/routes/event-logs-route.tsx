// /engage/event-logs/{emails|whatsapp|sms}: one channel's tab of the event logs. Every send on the
// channel, filtered by status, a search and a day range, paged, and downloadable as CSV with the same
// filters. Filters and page live in the URL, so Back from a send's page returns to the same rows. A
// channel-specific summary (WhatsApp's spend) is handed in by the app, which composes features; the
// email tab shows its metrics as charts over the same day range.
import type { TEventLogChannel } from '@titan/contracts';
import { DownloadIcon, ScrollTextIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useBusinessTimeZone } from '../../../lib/business/business';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useDownloadEventLogs } from '../api/download-event-logs';
import { EVENT_LOGS_PAGE_SIZE, useEventLogs } from '../api/get-event-logs';
import { EmailMetrics } from '../components/email-metrics';
import { LogsFilters } from '../components/logs-filters';
import { LogsTable } from '../components/logs-table';
import { EVENT_LOGS_STRINGS } from '../strings';
import {
  filtersFromParams,
  hasLogFilters,
  logQuery,
  NO_LOG_FILTERS,
  pageFromParams,
  paramsFromFilters,
  type TLogFilters,
} from '../utils/log-filters';

const S = EVENT_LOGS_STRINGS.logs;

export function EventLogsRoute({ channel, summary }: { channel: TEventLogChannel; summary?: ReactNode }) {
  const C = EVENT_LOGS_STRINGS.channels[channel];
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromParams(searchParams);
  const page = pageFromParams(searchParams);
  // From and To are the business's days, as the dashboard counts them.
  // With a From or To the zone decides the window, so the list waits for it (no request counting
  // the browser's days first).
  const timeZone = useBusinessTimeZone();
  const waitingForZone = timeZone === null && Boolean(filters.from || filters.to);
  const query = logQuery(filters, timeZone ?? 'UTC');
  const logs = useEventLogs(channel, query, page, { enabled: !waitingForZone });
  const download = useDownloadEventLogs();

  // Filtering (typing included) must not flood the history; paging is a step Back can undo.
  const filter = (next: TLogFilters) => setSearchParams(paramsFromFilters(next), { replace: true });
  const goTo = (nextPage: number) => setSearchParams(paramsFromFilters(filters, nextPage));

  const content = () => {
    if (logs.isPending) return <SectionLoading />;
    if (logs.isError)
      return <SectionError error={logs.error} onRetry={() => void logs.refetch()} fallback={C.loadFailed} />;
    const { results, count, page: shownPage } = logs.data;
    if (results.length === 0) {
      return hasLogFilters(filters) || count > 0 ? (
        <EmptyState icon={ScrollTextIcon} title={S.noMatchesTitle} text={S.noMatchesText}>
          <Button variant="outline" size="sm" onClick={() => filter(NO_LOG_FILTERS)}>
            {S.clearFilters}
          </Button>
        </EmptyState>
      ) : (
        <EmptyState icon={ScrollTextIcon} title={C.emptyTitle} text={C.emptyText} />
      );
    }
    return (
      <div className="grid gap-4">
        <LogsTable channel={channel} logs={results} stale={logs.isPlaceholderData} />
        <Pager
          page={shownPage}
          pageSize={EVENT_LOGS_PAGE_SIZE}
          count={count}
          shown={results.length}
          onPage={goTo}
        />
      </div>
    );
  };

  return (
    <div className="flex flex-col gap-6">
      {summary}
      {channel === 'email' && !waitingForZone ? (
        <EmailMetrics
          range={{
            ...(query.created_at__gte ? { created_at__gte: query.created_at__gte } : {}),
            ...(query.created_at__lte ? { created_at__lte: query.created_at__lte } : {}),
          }}
        />
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <LogsFilters channel={channel} filters={filters} onChange={filter} />
        <Button
          variant="outline"
          disabled={download.isPending || waitingForZone}
          onClick={() =>
            download.mutate(
              { channel, query },
              {
                onError: (error) => {
                  if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.downloadFailed));
                },
              },
            )
          }
        >
          {download.isPending ? <Spinner /> : <DownloadIcon aria-hidden="true" />}
          {download.isPending ? S.downloading : S.downloadCsv}
        </Button>
      </div>
      {content()}
    </div>
  );
}
