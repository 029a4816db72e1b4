// A visitor's conversations (each opens in the inbox) and the messages sent them (each opens its
// event log page when its channel has one), a page at a time.
import type { TEventLogChannel } from '@titan/contracts';
import { MessagesSquareIcon, SendIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { conversationPath, eventLogPath } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import {
  ACTIVITY_PAGE_SIZE,
  useVisitorConversations,
  useVisitorSends,
} from '../../../lib/customers/get-customer-activity';
import { DIRECTORY_STRINGS as S } from '../strings';

const LOGGED: readonly string[] = ['email', 'sms', 'whatsapp'] satisfies TEventLogChannel[];

export function VisitorConversationsCard({ visitorId, count }: { visitorId: number; count: number }) {
  const [page, setPage] = useState(1);
  const list = useVisitorConversations(visitorId, page);
  const body = () => {
    if (list.isPending) return <SectionLoading />;
    if (list.isError)
      return (
        <SectionError
          error={list.error}
          onRetry={() => void list.refetch()}
          fallback={S.conversationsLoadFailed}
        />
      );
    const { results, count: total } = list.data;
    if (results.length === 0) return <p className="text-sm text-muted-foreground">{S.noConversations}</p>;
    return (
      <div className="grid gap-3">
        <ul aria-label={S.visitorConversationsLabel} className="grid gap-2">
          {results.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2 text-sm">
              <MessagesSquareIcon aria-hidden="true" className="size-4 text-muted-foreground" />
              <Link to={conversationPath(c.id)} className="font-medium hover:underline">
                {c.title.trim() || S.untitled}
              </Link>
              <Badge variant="outline">{S.conversationChannels[c.channel]}</Badge>
              <Badge variant={c.status === 'active' ? 'secondary' : 'outline'}>
                {S.conversationStatuses[c.status]}
              </Badge>
              {c.is_read ? null : <Badge>{S.unread}</Badge>}
              <span className="ml-auto text-muted-foreground">
                {formatDateTime(c.last_message_at ?? c.created_at)}
              </span>
            </li>
          ))}
        </ul>
        {total > ACTIVITY_PAGE_SIZE ? (
          <Pager
            page={page}
            pageSize={ACTIVITY_PAGE_SIZE}
            count={total}
            shown={results.length}
            onPage={setPage}
          />
        ) : null}
      </div>
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.conversationsTitle}</CardTitle>
        <CardDescription>{S.conversationCount(count)}</CardDescription>
      </CardHeader>
      <CardContent>{body()}</CardContent>
    </Card>
  );
}

export function VisitorSendsCard({ visitorId }: { visitorId: number }) {
  const [page, setPage] = useState(1);
  const sends = useVisitorSends(visitorId, page);
  const body = () => {
    if (sends.isPending) return <SectionLoading />;
    if (sends.isError)
      return (
        <SectionError error={sends.error} onRetry={() => void sends.refetch()} fallback={S.sendsLoadFailed} />
      );
    const { results, count } = sends.data;
    if (results.length === 0) return <p className="text-sm text-muted-foreground">{S.noSends}</p>;
    return (
      <div className="grid gap-3">
        <Table aria-label={S.sendsLabel}>
          <TableHeader>
            <TableRow>
              <TableHead>{S.sendColumns.channel}</TableHead>
              <TableHead>{S.sendColumns.what}</TableHead>
              <TableHead>{S.sendColumns.to}</TableHead>
              <TableHead>{S.sendColumns.status}</TableHead>
              <TableHead>{S.sendColumns.at}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {results.map((s) => {
              const what = s.subject ?? s.template_name ?? S.none;
              return (
                <TableRow key={s.tracking_id}>
                  <TableCell>{S.sendChannels[s.channel]}</TableCell>
                  <TableCell className="max-w-64 truncate">
                    {LOGGED.includes(s.channel) ? (
                      <Link
                        to={eventLogPath(s.channel as TEventLogChannel, s.tracking_id)}
                        className="hover:underline"
                      >
                        {what}
                      </Link>
                    ) : (
                      what
                    )}
                  </TableCell>
                  <TableCell className="break-all">{s.to}</TableCell>
                  <TableCell title={s.error_message ?? undefined}>{s.status}</TableCell>
                  <TableCell>{formatDateTime(s.created_at)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {count > ACTIVITY_PAGE_SIZE ? (
          <Pager
            page={page}
            pageSize={ACTIVITY_PAGE_SIZE}
            count={count}
            shown={results.length}
            onPage={setPage}
          />
        ) : null}
      </div>
    );
  };
  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <SendIcon aria-hidden="true" className="size-4" />
          {S.sendsTitle}
        </CardTitle>
        <CardDescription>{S.sendsDescription}</CardDescription>
      </CardHeader>
      <CardContent>{body()}</CardContent>
    </Card>
  );
}
