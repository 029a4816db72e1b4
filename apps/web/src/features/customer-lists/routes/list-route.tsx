// /engage/directory/lists/{id}: a list's customers (a static list's members, or who matches a
// segment now), with adding and removing members, editing, and deleting the list.
import type { TDirectoryVisitor } from '@titan/contracts';
import { ArrowLeftIcon, SendIcon, UserPlusIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { AudienceExportButton } from '../../../components/audience-export-button';
import { AudienceNav } from '../../../components/audience-nav';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { LISTS_PATH, newCampaignPath, visitorPath } from '../../../config/paths';
import { apiErrorStatus, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useChangeMembers } from '../api/change-list-members';
import { useDeleteList } from '../api/delete-list';
import { useList } from '../api/get-list';
import { MEMBERS_PAGE_SIZE, useListMembers } from '../api/get-list-members';
import { AddMembers } from '../components/add-members';
import { ListForm } from '../components/list-form';
import { LISTS_STRINGS as S } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

const nameOf = (v: TDirectoryVisitor) => v.name?.trim() || S.anonymous;

export function ListRoute() {
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useList(id);
  const members = useListMembers(id, page);
  const remove = useChangeMembers(id, 'remove');
  const del = useDeleteList(id);
  const navigate = useNavigate();
  const canWrite = usePermissions().can('engage.write');
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);

  const back = (
    <Link
      to={LISTS_PATH}
      className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeftIcon className="size-4" aria-hidden="true" />
      {S.back}
    </Link>
  );
  const frame = (children: React.ReactNode) => (
    <PageLayout>
      <AudienceNav />
      {back}
      {children}
    </PageLayout>
  );

  if (list.isPending) return frame(<SectionLoading />);
  if (list.isError) {
    if (apiErrorStatus(list.error) === 404)
      return frame(<EmptyState icon={UsersIcon} title={S.notFoundTitle} text={S.notFoundText} />);
    return frame(
      <SectionError error={list.error} onRetry={() => void list.refetch()} fallback={S.listLoadFailed} />,
    );
  }
  const current = list.data;
  const isStatic = current.kind === 'static';

  const memberTable = () => {
    if (members.isPending) return <SectionLoading />;
    if (members.isError)
      return (
        <SectionError
          error={members.error}
          onRetry={() => void members.refetch()}
          fallback={S.listLoadFailed}
        />
      );
    const { results, count } = members.data;
    if (results.length === 0)
      return (
        <EmptyState
          icon={UsersIcon}
          title={S.memberCount(0)}
          text={isStatic ? S.noMembersStatic : S.noMembersSegment}
        />
      );
    return (
      <div className="grid gap-4">
        <Table aria-label={S.membersLabel}>
          <TableHeader>
            <TableRow>
              <TableHead>{S.columns.name}</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>Phone</TableHead>
              {isStatic && canWrite ? <TableHead className="w-24" /> : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {results.map((v) => (
              <TableRow key={v.id}>
                <TableCell className="font-medium">
                  <Link to={visitorPath(v.id)} className="hover:underline">
                    {nameOf(v)}
                  </Link>
                </TableCell>
                <TableCell>{v.email ?? S.none}</TableCell>
                <TableCell>{v.phone ?? S.none}</TableCell>
                {isStatic && canWrite ? (
                  <TableCell className="text-right">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={S.removeLabel(nameOf(v))}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate([v.id], {
                          onSuccess: () => toast.success(S.removed),
                          onError: (error) => reportApiError(error, { toast: true }),
                        })
                      }
                    >
                      {S.remove}
                    </Button>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Pager
          page={page}
          pageSize={MEMBERS_PAGE_SIZE}
          count={count}
          shown={results.length}
          onPage={(next) => setParams(next > 1 ? { page: String(next) } : {})}
        />
      </div>
    );
  };

  return frame(
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight break-words">{current.name}</h1>
            <Badge variant={isStatic ? 'outline' : 'secondary'}>{S.kinds[current.kind]}</Badge>
          </div>
          {current.description ? (
            <p className="text-sm text-muted-foreground">{current.description}</p>
          ) : null}
          <p className="text-sm tabular-nums">{S.memberCount(current.member_count)}</p>
        </div>
        {canWrite ? (
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={newCampaignPath({ listId: current.id })}>
                <SendIcon aria-hidden="true" />
                {S.sendTo}
              </Link>
            </Button>
            <AudienceExportButton query={{ list_id: current.id }} />
            {isStatic ? (
              <Button onClick={() => setAdding(true)}>
                <UserPlusIcon aria-hidden="true" />
                {S.add.open}
              </Button>
            ) : null}
            <Button variant="outline" onClick={() => setEditing(true)}>
              {S.edit}
            </Button>
            <ConfirmAction
              variant="outline"
              size="default"
              trigger={S.delete}
              title={S.deleteTitle}
              description={S.deleteText}
              confirmLabel={S.deleteConfirm}
              disabled={del.isPending}
              onConfirm={() =>
                del.mutate(undefined, {
                  onSuccess: () => {
                    toast.success(S.deleted);
                    void navigate(LISTS_PATH);
                  },
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          </div>
        ) : null}
      </div>
      <h2 className="text-lg font-semibold">{S.membersTitle}</h2>
      {memberTable()}
      <Dialog open={editing} onOpenChange={setEditing}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{S.form.editTitle}</DialogTitle>
          </DialogHeader>
          <ListForm list={current} onCancel={() => setEditing(false)} onSaved={() => setEditing(false)} />
        </DialogContent>
      </Dialog>
      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent className="sm:max-w-xl">
          <DialogHeader>
            <DialogTitle>{S.add.title}</DialogTitle>
            <DialogDescription>{S.add.text}</DialogDescription>
          </DialogHeader>
          <AddMembers listId={current.id} onDone={() => setAdding(false)} />
        </DialogContent>
      </Dialog>
    </>,
  );
}
