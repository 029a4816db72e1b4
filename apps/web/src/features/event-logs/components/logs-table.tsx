// A channel's log: one row per send with the channel's columns (recipient, delivery status with the
// error when it failed, when; WhatsApp adds the kind and who sent it, email the subject). Each row
// opens the send's page.
import type { TEventLog, TEventLogChannel } from '@titan/contracts';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { eventLogPath } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { EVENT_LOGS_STRINGS } from '../strings';
import { LOG_COLUMNS, logKind, segmentsLabel, type TLogColumn } from '../utils/display';
import { SentBy } from './sent-by';
import { LogStatusBadge } from './status-badge';

const S = EVENT_LOGS_STRINGS.logs;

function Cell({
  column,
  log,
  to,
  channel,
}: {
  column: TLogColumn;
  log: TEventLog;
  to: string;
  channel: TEventLogChannel;
}): ReactNode {
  switch (column) {
    case 'recipient':
      return (
        <TableCell className="font-medium">
          <Link to={to} className="tabular-nums hover:underline">
            {log.to}
          </Link>
        </TableCell>
      );
    case 'subject':
      return <TableCell className="max-w-xs truncate">{log.subject || S.none}</TableCell>;
    case 'type':
      return <TableCell>{logKind(log)}</TableCell>;
    case 'segments':
      return <TableCell className="whitespace-nowrap tabular-nums">{segmentsLabel(log)}</TableCell>;
    case 'status':
      return (
        <TableCell>
          <div className="flex flex-col items-start gap-1">
            <LogStatusBadge status={log.status} />
            {log.error_message ? (
              <span className="max-w-xs text-xs whitespace-normal break-words text-destructive">
                {log.error_message}
              </span>
            ) : null}
          </div>
        </TableCell>
      );
    case 'sentBy':
      return (
        <TableCell>
          <SentBy log={log} channel={channel} />
        </TableCell>
      );
    case 'created':
      return <TableCell className="whitespace-nowrap">{formatDateTime(log.created_at)}</TableCell>;
    default: {
      const unknown: never = column;
      throw new Error(`Unknown log column ${String(unknown)}`);
    }
  }
}

export function LogsTable({
  channel,
  logs,
  stale,
}: {
  channel: TEventLogChannel;
  logs: TEventLog[];
  stale: boolean;
}) {
  const navigate = useNavigate();
  const columns = LOG_COLUMNS[channel];
  return (
    <Table
      aria-label={EVENT_LOGS_STRINGS.channels[channel].tableLabel}
      aria-busy={stale || undefined}
      className={cn(stale && 'opacity-60')}
    >
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHead key={column}>{S.columns[column]}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {logs.map((log) => {
          const to = eventLogPath(channel, log.tracking_id);
          return (
            <TableRow
              key={log.tracking_id}
              className="cursor-pointer"
              onClick={(event) => {
                // The recipient link navigates by itself (and opens new tabs); other cells follow it.
                if ((event.target as HTMLElement).closest('a')) return;
                void navigate(to);
              }}
            >
              {columns.map((column) => (
                <Cell key={column} column={column} log={log} to={to} channel={channel} />
              ))}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
