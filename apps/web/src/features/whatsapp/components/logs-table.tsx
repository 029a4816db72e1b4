// The WhatsApp log: one row per message sent, its recipient, kind, delivery status (with the error
// when it failed), who sent it and when; each row opens the message's log entry.
import type { TWhatsappLog } from '@titan/contracts';
import { Link, useNavigate } from 'react-router';

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { whatsappLogPath } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { WHATSAPP_STRINGS } from '../strings';
import { logKind } from '../utils/display';
import { LogStatusBadge } from './status-badge';

const S = WHATSAPP_STRINGS.logs;

export function LogsTable({ logs, stale }: { logs: TWhatsappLog[]; stale: boolean }) {
  const navigate = useNavigate();
  return (
    <Table aria-label={S.tableLabel} aria-busy={stale || undefined} className={cn(stale && 'opacity-60')}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.columns.recipient}</TableHead>
          <TableHead>{S.columns.type}</TableHead>
          <TableHead>{S.columns.status}</TableHead>
          <TableHead>{S.columns.sentBy}</TableHead>
          <TableHead>{S.columns.created}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {logs.map((log) => (
          <TableRow
            key={log.tracking_id}
            className="cursor-pointer"
            onClick={(event) => {
              // The recipient link navigates by itself (and opens new tabs); other cells follow it.
              if ((event.target as HTMLElement).closest('a')) return;
              void navigate(whatsappLogPath(log.tracking_id));
            }}
          >
            <TableCell className="font-medium">
              <Link to={whatsappLogPath(log.tracking_id)} className="tabular-nums hover:underline">
                {log.to}
              </Link>
            </TableCell>
            <TableCell>{logKind(log)}</TableCell>
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
            <TableCell>{log.sent_by?.name ?? S.none}</TableCell>
            <TableCell className="whitespace-nowrap">{formatDateTime(log.created_at)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
