// Team → Join requests: people who asked to join with the business code; approve with a role, or reject.
import { ROLES, type TJoinRequest, type TRoleInfo, type TRoleRef } from '@titan/contracts';
import { useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format';
import { useDecideJoinRequest } from '../api/decide-join-request';
import { useJoinRequests } from '../api/get-join-requests';
import { SETTINGS_STRINGS } from '../strings';
import { memberName, roleOptions, toRoleRef } from '../utils/display';
import { SectionError, SectionLoading } from '../../../components/load-state';

const STRINGS = SETTINGS_STRINGS.team;

function JoinRequestRow({ request, roles }: { request: TJoinRequest; roles: TRoleInfo[] | undefined }) {
  const [role, setRole] = useState<TRoleRef>('agent');
  const decide = useDecideJoinRequest();
  const name = memberName(request.user);
  const send = (approve: boolean) =>
    decide.mutate(approve ? { id: request.id, approve, role } : { id: request.id, approve }, {
      onSuccess: () => toast.success(approve ? STRINGS.approved(name) : STRINGS.rejected(name)),
      onError: (error) => reportApiError(error, { toast: true }),
    });
  return (
    <TableRow>
      <TableCell className="font-medium">{name}</TableCell>
      <TableCell>{request.user.email}</TableCell>
      <TableCell>{formatDate(request.created_at)}</TableCell>
      <TableCell>
        <NativeSelect
          aria-label={STRINGS.approveAs(name)}
          className="w-32"
          value={String(role)}
          onChange={(event) => setRole(toRoleRef(event.target.value))}
        >
          {roleOptions(roles, ROLES).map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </TableCell>
      <TableCell className="space-x-2 text-right">
        <Button
          size="sm"
          aria-label={STRINGS.approveLabel(name)}
          disabled={decide.isPending}
          onClick={() => send(true)}
        >
          {STRINGS.approve}
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-label={STRINGS.rejectLabel(name)}
          disabled={decide.isPending}
          onClick={() => send(false)}
        >
          {STRINGS.reject}
        </Button>
      </TableCell>
    </TableRow>
  );
}

export function JoinRequestsCard({ roles }: { roles: TRoleInfo[] | undefined }) {
  const requests = useJoinRequests();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.requestsTitle}</CardTitle>
        <CardDescription>{STRINGS.requestsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {requests.isPending ? (
          <SectionLoading />
        ) : requests.isError ? (
          <SectionError error={requests.error} onRetry={() => void requests.refetch()} />
        ) : requests.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{STRINGS.requestsEmpty}</p>
        ) : (
          <Table aria-label={STRINGS.requestsTitle}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.name}</TableHead>
                <TableHead>{STRINGS.email}</TableHead>
                <TableHead>{STRINGS.requested}</TableHead>
                <TableHead>{STRINGS.role}</TableHead>
                <TableHead className="text-right">{STRINGS.actions}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {requests.data.map((request) => (
                <JoinRequestRow key={request.id} request={request} roles={roles} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
