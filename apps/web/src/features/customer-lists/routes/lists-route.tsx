// /engage/directory/lists: the business's lists and segments with their live counts; a new list
// is made in a dialog and opened at once.
import { ListIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { AudienceNav } from '../../../components/audience-nav';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { listPath } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { useCustomerLists } from '../../../lib/customer-lists';
import { usePermissions } from '../../../lib/business/roles';
import { ListForm } from '../components/list-form';
import { LISTS_STRINGS as S } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

/** Lists per page of the screen. */
const LISTS_PAGE_SIZE = 20;

export function ListsRoute() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const lists = useCustomerLists(page, LISTS_PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const canWrite = usePermissions().can('engage.write');

  const content = () => {
    if (lists.isPending) return <SectionLoading />;
    if (lists.isError)
      return (
        <SectionError error={lists.error} onRetry={() => void lists.refetch()} fallback={S.loadFailed} />
      );
    const { results, count } = lists.data;
    if (results.length === 0) return <EmptyState icon={ListIcon} title={S.emptyTitle} text={S.emptyText} />;
    return (
      <div className="grid gap-4">
        <Table aria-label={S.tableLabel}>
          <TableHeader>
            <TableRow>
              <TableHead>{S.columns.name}</TableHead>
              <TableHead>{S.columns.kind}</TableHead>
              <TableHead className="text-right">{S.columns.members}</TableHead>
              <TableHead>{S.columns.updated}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {results.map((list) => (
              <TableRow key={list.id}>
                <TableCell className="font-medium">
                  <Link to={listPath(list.id)} className="hover:underline">
                    {list.name}
                  </Link>
                  {list.description ? (
                    <p className="text-xs text-muted-foreground">{list.description}</p>
                  ) : null}
                </TableCell>
                <TableCell>
                  <Badge variant={list.kind === 'segment' ? 'secondary' : 'outline'}>
                    {S.kinds[list.kind]}
                  </Badge>
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {list.member_count.toLocaleString('en-US')}
                </TableCell>
                <TableCell>{formatDate(list.updated_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Pager
          page={page}
          pageSize={LISTS_PAGE_SIZE}
          count={count}
          shown={results.length}
          onPage={(next) => setParams(next > 1 ? { page: String(next) } : {})}
        />
      </div>
    );
  };

  return (
    <PageLayout>
      <AudienceNav />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
          <p className="text-sm text-muted-foreground">{S.description}</p>
        </div>
        {canWrite ? (
          <Button onClick={() => setCreating(true)}>
            <PlusIcon aria-hidden="true" />
            {S.newList}
          </Button>
        ) : null}
      </div>
      {content()}
      <Dialog open={creating} onOpenChange={setCreating}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{S.form.createTitle}</DialogTitle>
          </DialogHeader>
          <ListForm
            onCancel={() => setCreating(false)}
            onSaved={(list) => {
              setCreating(false);
              void navigate(listPath(list.id));
            }}
          />
        </DialogContent>
      </Dialog>
    </PageLayout>
  );
}
