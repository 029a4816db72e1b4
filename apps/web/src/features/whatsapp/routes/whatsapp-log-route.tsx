// /engage/event-logs/whatsapp/{trackingId}: one WhatsApp message's log entry: who it went to, what
// it was, its status (with the error when it failed), who sent it and when, the statuses WhatsApp
// reported since, and the request sent to Meta with its answer.
import { ArrowLeftIcon, SearchXIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { conversationPath, EVENT_LOGS_PATH } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useWhatsappLog } from '../api/get-whatsapp-log';
import { JsonBlock } from '../components/json-block';
import { LogTimeline } from '../components/log-timeline';
import { LogStatusBadge } from '../components/status-badge';
import { WHATSAPP_STRINGS } from '../strings';

const S = WHATSAPP_STRINGS.log;
/** An unknown id (404) or one that cannot be an id at all (400). */
const NOT_FOUND = new Set([400, 404]);

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

function LogEntry({ trackingId }: { trackingId: string }) {
  const log = useWhatsappLog(trackingId);
  if (log.isPending) return <SectionLoading />;
  if (log.isError) {
    const status = apiErrorStatus(log.error);
    return status !== null && NOT_FOUND.has(status) ? (
      <EmptyState icon={SearchXIcon} title={S.notFoundTitle} text={S.notFoundText} />
    ) : (
      <SectionError error={log.error} onRetry={() => void log.refetch()} fallback={S.loadFailed} />
    );
  }
  const entry = log.data;
  const error = entry.error_message
    ? entry.error_code !== null
      ? S.errorWithCode(entry.error_code, entry.error_message)
      : entry.error_message
    : null;
  return (
    <div className="grid gap-6">
      <Card>
        <CardContent>
          <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-6 gap-y-2 text-sm">
            <Row label={S.recipient}>
              <span className="tabular-nums">{entry.to}</span>
            </Row>
            <Row label={entry.template_name ? S.template : S.type}>{entry.template_name ?? entry.type}</Row>
            <Row label={S.status}>
              <LogStatusBadge status={entry.status} />
            </Row>
            {error ? (
              <Row label={S.error}>
                <span className="text-destructive">{error}</span>
              </Row>
            ) : null}
            <Row label={S.sentBy}>{entry.sent_by?.name ?? WHATSAPP_STRINGS.logs.none}</Row>
            <Row label={S.created}>{formatDateTime(entry.created_at)}</Row>
            <Row label={S.updated}>{formatDateTime(entry.updated_at)}</Row>
            {entry.wamid ? (
              <Row label={S.messageId}>
                <code className="font-mono text-xs">{entry.wamid}</code>
              </Row>
            ) : null}
            {entry.pricing_category ? <Row label={S.pricing}>{entry.pricing_category}</Row> : null}
            {entry.billable !== null ? <Row label={S.billable}>{entry.billable ? S.yes : S.no}</Row> : null}
            {entry.conversation_id !== null ? (
              <Row label={S.conversation}>
                <Link
                  to={conversationPath(entry.conversation_id)}
                  className="font-medium underline underline-offset-4"
                >
                  {S.openConversation}
                </Link>
              </Row>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{S.timeline}</CardTitle>
        </CardHeader>
        <CardContent>
          <LogTimeline events={entry.events} />
        </CardContent>
      </Card>
      <div className="grid gap-3">
        <JsonBlock title={S.request} value={entry.request} empty={S.noResponse} />
        <JsonBlock title={S.response} value={entry.response} empty={S.noResponse} />
      </div>
    </div>
  );
}

export function WhatsappLogRoute() {
  const { trackingId = '' } = useParams();
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 md:p-6">
      <div className="grid gap-2">
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <Link to={EVENT_LOGS_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {S.back}
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold tracking-tight">{S.title}</h1>
      </div>
      <LogEntry key={trackingId} trackingId={trackingId} />
    </section>
  );
}
