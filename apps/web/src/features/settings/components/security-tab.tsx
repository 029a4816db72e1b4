// Settings → Security: the signed-in person's second factors and passkeys, their signed-in
// devices, and (owners) whether the business requires two-factor authentication.
import { useId } from 'react';
import { toast } from 'sonner';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { useBusiness } from '../../../lib/business/business';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { useUpdateBusiness } from '../api/update-business';
import { SETTINGS_STRINGS } from '../strings';
import { PasskeysCard, TwoFactorCard } from './two-factor-cards';

const STRINGS = SETTINGS_STRINGS.security;

function RequireTwoFactorCard() {
  const business = useBusiness();
  const update = useUpdateBusiness();
  const id = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.requireTitle}</CardTitle>
        <CardDescription>{STRINGS.requireDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {business.isPending ? (
          <SectionLoading />
        ) : business.isError ? (
          <SectionError error={business.error} onRetry={() => void business.refetch()} />
        ) : (
          <div className="flex items-center gap-3">
            <input
              id={id}
              type="checkbox"
              className="size-4 accent-primary"
              checked={business.data.require_2fa}
              disabled={update.isPending}
              onChange={(event) => {
                const require_2fa = event.target.checked;
                update.mutate(
                  { require_2fa },
                  {
                    onSuccess: () => toast.success(require_2fa ? STRINGS.requireOn : STRINGS.requireOff),
                    onError: (error) => reportApiError(error, { toast: true }),
                  },
                );
              }}
            />
            <label htmlFor={id} className="text-sm">
              {STRINGS.requireLabel}
            </label>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function SessionsCard() {
  const sessions = useSessions();
  const end = useEndSession();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.sessionsTitle}</CardTitle>
        <CardDescription>{STRINGS.sessionsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <SectionLoading />
        ) : sessions.isError ? (
          <SectionError error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <Table aria-label={STRINGS.sessionsTitle}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.device}</TableHead>
                <TableHead className="hidden sm:table-cell">{STRINGS.signedIn}</TableHead>
                <TableHead>{STRINGS.lastSeen}</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">{STRINGS.signOut}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {sessions.data.map((session) => {
                const device = [session.browser, session.os].filter(Boolean).join(' · ');
                return (
                  <TableRow key={session.id}>
                    <TableCell className="max-w-40 truncate font-medium whitespace-normal sm:max-w-none">
                      {device}
                      {session.current ? (
                        <span className="ml-2 text-xs text-muted-foreground">({STRINGS.thisDevice})</span>
                      ) : null}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      {formatDateTime(session.created_at)}
                    </TableCell>
                    <TableCell className="whitespace-normal">{formatDateTime(session.last_seen)}</TableCell>
                    <TableCell className="text-right">
                      {session.current ? null : (
                        <Button
                          type="button"
                          size="sm"
                          variant="outline"
                          aria-label={STRINGS.signOutLabel(device)}
                          disabled={end.isPending}
                          onClick={() =>
                            end.mutate(session.id, {
                              onSuccess: () => toast.success(STRINGS.signedOut),
                              onError: (error) => reportApiError(error, { toast: true }),
                            })
                          }
                        >
                          {STRINGS.signOut}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

export function SecurityTab() {
  const membership = useCurrentMembership();
  return (
    <div className="grid gap-6">
      <TwoFactorCard />
      <PasskeysCard />
      {membership?.role === 'owner' ? <RequireTwoFactorCard /> : null}
      <SessionsCard />
    </div>
  );
}
