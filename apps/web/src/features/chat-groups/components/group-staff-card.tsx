// A group's staff: who is in it (with their business role), adding a business member, removing one.
import type { TChatGroupUser, TMember } from '@titan/contracts';
import { useId, useState } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { useMembers } from '../../../lib/business/members';
import { useRoles } from '../../../lib/business/roles';
import { formatDate } from '../../../lib/format';
import { useAddChatGroupUser } from '../api/add-chat-group-user';
import { useChatGroupUsers } from '../api/get-chat-group-users';
import { useRemoveChatGroupUser } from '../api/remove-chat-group-user';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.staff;

function personName(user: TMember['user']): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
}

function AddMember({ groupId, staff }: { groupId: number; staff: TChatGroupUser[] }) {
  const id = useId();
  const members = useMembers();
  const add = useAddChatGroupUser();
  const [userId, setUserId] = useState('');
  if (members.isPending) return <SectionLoading />;
  if (members.isError) return <SectionError error={members.error} onRetry={() => void members.refetch()} />;
  const inGroup = new Set(staff.map((entry) => entry.user.pk));
  const candidates = members.data.filter((member) => !inGroup.has(member.user.pk));
  if (candidates.length === 0) return <p className="text-sm text-muted-foreground">{S.everyoneAdded}</p>;

  return (
    <form
      aria-label={S.add}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const member = candidates.find((candidate) => String(candidate.user.pk) === userId);
        if (!member) return;
        add.mutate(
          { groupId, userId: member.user.pk },
          {
            onSuccess: () => {
              toast.success(S.addedToGroup(personName(member.user)));
              setUserId('');
            },
            onError: (error) => reportApiError(error, { toast: true }),
          },
        );
      }}
    >
      <div className="grid min-w-56 flex-1 gap-2">
        <Label htmlFor={id}>{S.member}</Label>
        <NativeSelect id={id} value={userId} onChange={(event) => setUserId(event.target.value)}>
          <option value="">{S.choose}</option>
          {candidates.map((member) => (
            <option key={member.user.pk} value={member.user.pk}>
              {personName(member.user)} ({member.user.email})
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" disabled={!userId || add.isPending}>
        {S.add}
      </Button>
    </form>
  );
}

export function GroupStaffCard({ groupId, canManage }: { groupId: number; canManage: boolean }) {
  const staff = useChatGroupUsers(groupId);
  const roles = useRoles();
  const remove = useRemoveChatGroupUser();
  const roleLabel = (role: TChatGroupUser['role']) =>
    roles.data?.find((info) => info.value === role)?.label ?? role;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.title}</CardTitle>
        <CardDescription>{S.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {staff.isPending ? (
          <SectionLoading />
        ) : staff.isError ? (
          <SectionError error={staff.error} onRetry={() => void staff.refetch()} />
        ) : (
          <>
            {staff.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">{S.empty}</p>
            ) : (
              <Table aria-label={S.tableLabel}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{S.name}</TableHead>
                    <TableHead>{S.email}</TableHead>
                    <TableHead>{S.role}</TableHead>
                    <TableHead>{S.added}</TableHead>
                    {canManage ? <TableHead className="text-right">{S.actions}</TableHead> : null}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {staff.data.map((entry) => {
                    const name = personName(entry.user);
                    return (
                      <TableRow key={entry.user.pk}>
                        <TableCell className="font-medium">{name}</TableCell>
                        <TableCell>{entry.user.email}</TableCell>
                        <TableCell>{roleLabel(entry.role)}</TableCell>
                        <TableCell>{formatDate(entry.added_at)}</TableCell>
                        {canManage ? (
                          <TableCell className="text-right">
                            <ConfirmAction
                              trigger={S.remove}
                              triggerLabel={S.removeLabel(name)}
                              title={S.removeTitle(name)}
                              description={S.removeText}
                              confirmLabel={S.remove}
                              disabled={remove.isPending}
                              onConfirm={() =>
                                remove.mutate(
                                  { groupId, userId: entry.user.pk },
                                  {
                                    onSuccess: () => toast.success(S.removed(name)),
                                    onError: (error) => reportApiError(error, { toast: true }),
                                  },
                                )
                              }
                            />
                          </TableCell>
                        ) : null}
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
            {canManage ? <AddMember groupId={groupId} staff={staff.data} /> : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
