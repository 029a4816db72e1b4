// /engage/journeys: the business's journeys, newest first, with their status and versions.
import { PlusIcon, WorkflowIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { journeyPath, NEW_JOURNEY_PATH } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { formatDate } from '../../../lib/format';
import { useJourneys } from '../api/get-journeys';
import { EDITOR_STRINGS as E, JOURNEYS_STRINGS as S } from '../strings';

const TONE = { draft: 'neutral', live: 'good', paused: 'waiting' } as const;

export function JourneysRoute() {
  const journeys = useJourneys();
  const canWrite = usePermissions().can('engage.write');

  const content = () => {
    if (journeys.isPending) return <SectionLoading />;
    if (journeys.isError)
      return (
        <SectionError
          error={journeys.error}
          onRetry={() => void journeys.refetch()}
          fallback={S.loadFailed}
        />
      );
    if (journeys.data.length === 0)
      return <EmptyState icon={WorkflowIcon} title={S.emptyTitle} text={S.emptyText} />;
    return (
      <Table aria-label={S.tableLabel}>
        <TableHeader>
          <TableRow>
            <TableHead>{S.columns.name}</TableHead>
            <TableHead>{S.columns.status}</TableHead>
            <TableHead>{S.columns.version}</TableHead>
            <TableHead>{S.columns.updated}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {journeys.data.map((j) => (
            <TableRow key={j.id}>
              <TableCell className="font-medium">
                <Link to={journeyPath(j.id)} className="hover:underline">
                  {j.name}
                </Link>
              </TableCell>
              <TableCell>
                <StatusBadge tone={TONE[j.status]}>{S.statuses[j.status]}</StatusBadge>
              </TableCell>
              <TableCell>{E.version(j.version, j.live_version)}</TableCell>
              <TableCell>{formatDate(j.updated_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  };

  return (
    <PageLayout
      title={S.title}
      description={S.description}
      actions={
        canWrite ? (
          <Button asChild>
            <Link to={NEW_JOURNEY_PATH}>
              <PlusIcon aria-hidden="true" />
              {S.newJourney}
            </Link>
          </Button>
        ) : null
      }
    >
      {content()}
    </PageLayout>
  );
}
