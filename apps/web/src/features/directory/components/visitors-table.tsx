// The directory's table: one row per visitor, the name linking to their page (the whole row clicks).
import type { TDirectoryVisitor } from '@titan/contracts';
import { Link, useNavigate } from 'react-router';

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { visitorPath } from '../../../config/paths';
import { formatDate, formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { DIRECTORY_STRINGS as S } from '../strings';
import { ConsentBadges } from './consent-badges';
import { visitorName } from '../utils/display';
import { LabelChips } from '../../../components/labels/label-chips';

export function VisitorsTable({ visitors, stale }: { visitors: TDirectoryVisitor[]; stale: boolean }) {
  const navigate = useNavigate();
  return (
    <Table aria-label={S.tableLabel} aria-busy={stale || undefined} className={cn(stale && 'opacity-60')}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.columns.name}</TableHead>
          <TableHead>{S.columns.email}</TableHead>
          <TableHead>{S.columns.phone}</TableHead>
          <TableHead>{S.columns.consent}</TableHead>
          <TableHead className="text-right">{S.columns.conversations}</TableHead>
          <TableHead>{S.columns.lastSeen}</TableHead>
          <TableHead>{S.columns.created}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {visitors.map((visitor) => (
          <TableRow
            key={visitor.id}
            className="cursor-pointer"
            onClick={(event) => {
              // The name link navigates by itself (and opens new tabs); other cells follow it.
              if ((event.target as HTMLElement).closest('a')) return;
              void navigate(visitorPath(visitor.id));
            }}
          >
            <TableCell className="font-medium">
              <Link
                to={visitorPath(visitor.id)}
                className={cn('hover:underline', !visitor.name?.trim() && 'text-muted-foreground italic')}
              >
                {visitorName(visitor)}
              </Link>
              <LabelChips labels={visitor.labels} max={3} className="mt-1" />
            </TableCell>
            <TableCell>{visitor.email ?? S.none}</TableCell>
            <TableCell>{visitor.phone ?? S.none}</TableCell>
            <TableCell>
              <ConsentBadges visitor={visitor} className="max-w-72" />
            </TableCell>
            <TableCell className="text-right tabular-nums">{visitor.conversation_count}</TableCell>
            <TableCell>{visitor.last_seen_at ? formatDateTime(visitor.last_seen_at) : S.never}</TableCell>
            <TableCell>{formatDate(visitor.created_at)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
