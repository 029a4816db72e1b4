// Team → Members: everyone in the business; with team.manage, change roles and remove people.
import { ROLES, type TMember, type TRoleInfo } from '@titan/contracts';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format';
import { useLivePresence, useMembers } from '../../../lib/business/members';
import { PresenceDot } from '../../../components/presence-dot';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { readBusinessCode } from '../../../lib/session/tokens';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMember } from '../api/update-member';
import { SETTINGS_STRINGS } from '../strings';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { memberName, roleLabel, roleOptions, toRoleRef } from '../utils/display';

const STRINGS = SETTINGS_STRINGS.team;

function MemberRow({
  member,
  roles,
  isSelf,
  canManage,
}: {
  member: TMember;
  roles: TRoleInfo[] | undefined;
  isSelf: boolean;
  canManage: boolean;
}) {
  const update = useUpdateMember();
  const remove = useRemoveMember();
  const name = memberName(member.user);
  return (
    <TableRow>
      <TableCell className="font-medium">
        {member.presence ? (
          <PresenceDot status={member.presence} labelled className="mr-2 align-middle" />
        ) : null}
        {name} {isSelf ? <span className="text-muted-foreground">{STRINGS.you}</span> : null}
      </TableCell>
      <TableCell>{member.user.email}</TableCell>
      <TableCell>
        {canManage ? (
          <NativeSelect
            aria-label={STRINGS.roleFor(name)}
            className="w-32"
            value={String(member.role)}
            disabled={update.isPending}
            onChange={(event) => {
              const role = toRoleRef(event.target.value);
              update.mutate(
                { id: member.id, role },
                {
                  onSuccess: () => toast.success(STRINGS.roleChanged(name, roleLabel(roles, role))),
                  onError: (error) => reportApiError(error, { toast: true }),
                },
              );
            }}
          >
            {roleOptions(roles, ROLES).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        ) : (
          roleLabel(roles, member.role)
        )}
      </TableCell>
      <TableCell>{formatDate(member.joined_at)}</TableCell>
      {canManage ? (
        <TableCell className="text-right">
          {isSelf ? null : (
            <ConfirmAction
              trigger={STRINGS.remove}
              triggerLabel={STRINGS.removeLabel(name)}
              title={STRINGS.removeTitle(name)}
              description={STRINGS.removeText}
              confirmLabel={STRINGS.remove}
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate(member.id, {
                  onSuccess: () => toast.success(STRINGS.removed(name)),
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          )}
        </TableCell>
      ) : null}
    </TableRow>
  );
}

export function MembersCard({
  roles,
  currentUserId,
  canManage,
}: {
  roles: TRoleInfo[] | undefined;
  currentUserId: number;
  canManage: boolean;
}) {
  const members = useMembers();
  useLivePresence(useCurrentMembership()?.unique_code ?? readBusinessCode());
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.membersTitle}</CardTitle>
        <CardDescription>{STRINGS.membersDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {members.isPending ? (
          <SectionLoading />
        ) : members.isError ? (
          <SectionError error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          <Table aria-label={STRINGS.membersTitle}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.name}</TableHead>
                <TableHead>{STRINGS.email}</TableHead>
                <TableHead>{STRINGS.role}</TableHead>
                <TableHead>{STRINGS.joined}</TableHead>
                {canManage ? <TableHead className="text-right">{STRINGS.actions}</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {members.data.map((member) => (
                <MemberRow
                  key={member.id}
                  member={member}
                  roles={roles}
                  isSelf={member.user.pk === currentUserId}
                  canManage={canManage}
                />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
