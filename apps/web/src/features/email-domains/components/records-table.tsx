// The records a domain publishes: where, what (with copy buttons) and what the last check found.
import type { TDnsRecordStatus, TEmailDomain } from '@titan/contracts';

import { CopyButton } from '../../../components/copy-button';
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { EMAIL_DOMAINS_STRINGS as S } from '../strings';
import { Hostname } from '../../../components/hostname';

const TONE: Record<TDnsRecordStatus, TStatusTone> = { ok: 'good', missing: 'waiting', invalid: 'bad' };

export function RecordsTable({ domain }: { domain: TEmailDomain }) {
  return (
    <Table aria-label={S.recordsLabel(domain.domain)}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.purpose}</TableHead>
          <TableHead>{S.type}</TableHead>
          <TableHead>{S.host}</TableHead>
          <TableHead>{S.value}</TableHead>
          <TableHead>{S.status}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {domain.records.map((record) => {
          const purpose = S.purposes[record.purpose];
          return (
            <TableRow key={`${record.purpose} ${record.host}`} className="align-top">
              <TableCell className="font-medium">{purpose}</TableCell>
              <TableCell>
                <code className="font-mono text-xs">{record.type}</code>
              </TableCell>
              <TableCell className="max-w-56 min-w-36">
                <div className="flex items-start gap-2">
                  <code className="font-mono text-xs whitespace-normal">
                    <Hostname value={record.host} />
                  </code>
                  <CopyButton value={record.host} label={S.copy} aria-label={S.copyHost(purpose)} />
                </div>
              </TableCell>
              <TableCell className="max-w-80 min-w-48">
                <div className="flex items-start gap-2">
                  <code
                    className="line-clamp-3 font-mono text-xs [overflow-wrap:anywhere] whitespace-normal"
                    title={record.value}
                  >
                    {record.value}
                  </code>
                  <CopyButton value={record.value} label={S.copy} aria-label={S.copyValue(purpose)} />
                </div>
              </TableCell>
              <TableCell className="max-w-72 whitespace-normal">
                <StatusBadge tone={TONE[record.status]}>{S.recordStatus[record.status]}</StatusBadge>
                {record.detail ? <p className="mt-1 text-xs text-muted-foreground">{record.detail}</p> : null}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
