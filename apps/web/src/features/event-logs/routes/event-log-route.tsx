// /engage/event-logs/{emails|whatsapp|sms}/{trackingId}: one send on a channel: who it went to, what
// it was, its status (with the error when it failed), who sent it and when, the statuses reported
// since, and the request made to the provider with its answer. An email shows the message as sent
// (rendered in a sandboxed frame, and its text part) and opens and clicks marked person or machine;
// a text shows its body, segments and encoding, and what Twilio charged.
import type { TEventLogChannel } from '@titan/contracts';
import { ArrowLeftIcon, SearchXIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { conversationPath, eventLogsPath } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useEventLog } from '../api/get-event-log';
import { EmailMessage } from '../components/email-message';
import { JsonBlock } from '../components/json-block';
import { LogTimeline } from '../components/log-timeline';
import { SmsMessage } from '../components/sms-message';
import { LogStatusBadge } from '../components/status-badge';
import { SentBy } from '../components/sent-by';
import { EVENT_LOGS_STRINGS } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

const S = EVENT_LOGS_STRINGS.log;
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

function LogEntry({ channel, trackingId }: { channel: TEventLogChannel; trackingId: string }) {
  const C = EVENT_LOGS_STRINGS.channels[channel];
  const log = useEventLog(channel, trackingId);
  if (log.isPending) return <SectionLoading />;
  if (log.isError) {
    const status = apiErrorStatus(log.error);
    return status !== null && NOT_FOUND.has(status) ? (
      <EmptyState icon={SearchXIcon} title={S.notFoundTitle} text={C.notFoundText} />
    ) : (
      <SectionError error={log.error} onRetry={() => void log.refetch()} fallback={C.loadFailed} />
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
            {channel === 'email' ? (
              <Row label={S.subject}>{entry.subject || EVENT_LOGS_STRINGS.logs.none}</Row>
            ) : null}
            {channel === 'whatsapp' ? (
              <Row label={entry.template_name ? S.template : S.type}>{entry.template_name ?? entry.type}</Row>
            ) : entry.template_name ? (
              <Row label={S.template}>{entry.template_name}</Row>
            ) : null}
            <Row label={S.status}>
              <LogStatusBadge status={entry.status} />
            </Row>
            {error ? (
              <Row label={S.error}>
                <span className="text-destructive">{error}</span>
              </Row>
            ) : null}
            <Row label={S.sentBy}>
              <SentBy log={entry} channel={channel} />
            </Row>
            <Row label={S.created}>{formatDateTime(entry.created_at)}</Row>
            <Row label={S.updated}>{formatDateTime(entry.updated_at)}</Row>
            {entry.wamid ? (
              <Row label={S.messageId}>
                <code className="font-mono text-xs">{entry.wamid}</code>
              </Row>
            ) : null}
            {entry.pricing_category ? <Row label={S.pricing}>{entry.pricing_category}</Row> : null}
            {entry.price ? (
              <Row label={S.price}>{S.priceValue(entry.price, entry.price_unit ?? null)}</Row>
            ) : null}
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
          <LogTimeline events={entry.events} empty={C.noEvents} />
        </CardContent>
      </Card>
      {entry.message ? <EmailMessage message={entry.message} /> : null}
      {entry.sms ? <SmsMessage message={entry.sms} /> : null}
      <div className="grid gap-3">
        {/* An email's request is the message shown above; its answer is the mail server's. */}
        {entry.message ? null : <JsonBlock title={S.request} value={entry.request} empty={S.noResponse} />}
        <JsonBlock title={S.response} value={entry.response} empty={S.noResponse} />
      </div>
    </div>
  );
}

export function EventLogRoute({ channel }: { channel: TEventLogChannel }) {
  const { trackingId = '' } = useParams();
  return (
    <PageLayout>
      <div className="grid gap-2">
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <Link to={eventLogsPath(channel)}>
            <ArrowLeftIcon aria-hidden="true" />
            {S.back}
          </Link>
        </Button>
        <h1 className="text-2xl font-semibold tracking-tight break-words">
          {EVENT_LOGS_STRINGS.channels[channel].title}
        </h1>
      </div>
      <LogEntry key={`${channel}/${trackingId}`} channel={channel} trackingId={trackingId} />
    </PageLayout>
  );
}
