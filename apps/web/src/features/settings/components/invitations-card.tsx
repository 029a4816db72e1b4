// Team → Open invitations, each revocable.
import type { TRoleInfo } from '@titan/contracts';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format';
import { useInvitations } from '../api/get-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { SETTINGS_STRINGS } from '../strings';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { memberName, roleLabel } from '../utils/display';

const STRINGS = SETTINGS_STRINGS.team;

export function InvitationsCard({ roles }: { roles: TRoleInfo[] | undefined }) {
  const invitations = useInvitations();
  const revoke = useRevokeInvitation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.invitationsTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        {invitations.isPending ? (
          <SectionLoading />
        ) : invitations.isError ? (
          <SectionError error={invitations.error} onRetry={() => void invitations.refetch()} />
        ) : invitations.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{STRINGS.invitationsEmpty}</p>
        ) : (
          <Table aria-label={STRINGS.invitationsTitle}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.email}</TableHead>
                <TableHead>{STRINGS.role}</TableHead>
                <TableHead>{STRINGS.invitedBy}</TableHead>
                <TableHead>{STRINGS.expires}</TableHead>
                <TableHead className="text-right">{STRINGS.actions}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {invitations.data.map((invitation) => (
                <TableRow key={invitation.id}>
                  <TableCell className="font-medium">{invitation.email}</TableCell>
                  <TableCell>{roleLabel(roles, invitation.role)}</TableCell>
                  <TableCell>{invitation.invited_by ? memberName(invitation.invited_by) : '—'}</TableCell>
                  <TableCell>{formatDate(invitation.expires_at)}</TableCell>
                  <TableCell className="text-right">
                    <ConfirmAction
                      trigger={STRINGS.revoke}
                      triggerLabel={STRINGS.revokeInvitationLabel(invitation.email)}
                      title={STRINGS.revokeInvitationTitle(invitation.email)}
                      description={STRINGS.revokeInvitationText}
                      confirmLabel={STRINGS.revoke}
                      onConfirm={() =>
                        revoke.mutate(invitation.id, {
                          onSuccess: () => toast.success(STRINGS.invitationRevoked(invitation.email)),
                          onError: (error) => reportApiError(error, { toast: true }),
                        })
                      }
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
