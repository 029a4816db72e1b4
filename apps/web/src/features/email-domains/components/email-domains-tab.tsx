// Settings → Email domains: add a domain, publish its records (copy buttons), verify, and see per
// record what the domain's name servers answered. Changing needs engage.write; reading engage.read.
import type { TEmailDomain, TEmailDomainStatus } from '@titan/contracts';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { DNS_HELP_PATH } from '../../../config/paths';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDateTime } from '../../../lib/format';
import { useDeleteEmailDomain } from '../api/delete-email-domain';
import { useEmailDomains } from '../../../lib/email-domains';
import { useVerifyEmailDomain } from '../api/verify-email-domain';
import { EMAIL_DOMAINS_STRINGS as S } from '../strings';
import { AddDomainForm } from './add-domain-form';
import { RecordsTable } from './records-table';
import { Hostname } from '../../../components/hostname';

const TONE: Record<TEmailDomainStatus, TStatusTone> = { pending: 'neutral', verified: 'good', failed: 'bad' };

function DomainCard({ domain, canWrite }: { domain: TEmailDomain; canWrite: boolean }) {
  const verify = useVerifyEmailDomain();
  const remove = useDeleteEmailDomain();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Hostname value={domain.domain} className="min-w-0" />
          <StatusBadge tone={TONE[domain.status]}>{S.domainStatus[domain.status]}</StatusBadge>
        </CardTitle>
        <CardDescription>
          {domain.last_checked_at ? S.lastChecked(formatDateTime(domain.last_checked_at)) : S.neverChecked}
        </CardDescription>
        {canWrite ? (
          <CardAction className="flex flex-wrap gap-2">
            <Button
              aria-label={S.verifyLabel(domain.domain)}
              disabled={verify.isPending}
              onClick={() =>
                verify.mutate(domain.id, {
                  onSuccess: (checked) => {
                    const open = checked.records.filter((r) => r.status !== 'ok').length;
                    if (checked.status === 'verified') toast.success(S.verified(checked.domain));
                    else toast.warning(S.notVerified(checked.domain, open));
                  },
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            >
              {verify.isPending ? S.verifying : S.verify}
            </Button>
            <ConfirmAction
              trigger={S.delete}
              triggerLabel={S.deleteLabel(domain.domain)}
              title={S.deleteTitle(domain.domain)}
              description={S.deleteText}
              confirmLabel={S.delete}
              variant="outline"
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate(domain.id, {
                  onSuccess: () => toast.success(S.deleted(domain.domain)),
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        <RecordsTable domain={domain} />
      </CardContent>
    </Card>
  );
}

function DomainList({ canWrite }: { canWrite: boolean }) {
  const domains = useEmailDomains();
  if (domains.isPending) return <SectionLoading />;
  if (domains.isError) return <SectionError error={domains.error} onRetry={() => void domains.refetch()} />;
  if (domains.data.length === 0) return <p className="text-sm text-muted-foreground">{S.empty}</p>;
  return (
    <div className="grid gap-4">
      {domains.data.map((domain) => (
        <DomainCard key={domain.id} domain={domain} canWrite={canWrite} />
      ))}
    </div>
  );
}

export function EmailDomainsTab() {
  const { can, ready } = usePermissions();
  const canWrite = can('engage.write');
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
          <CardAction>
            <Button asChild variant="link">
              <Link to={DNS_HELP_PATH}>{S.help}</Link>
            </Button>
          </CardAction>
        </CardHeader>
        <CardContent>
          {!ready ? (
            <SectionLoading />
          ) : canWrite ? (
            <AddDomainForm />
          ) : (
            <p className="text-sm">{S.notAllowed}</p>
          )}
        </CardContent>
      </Card>
      {ready ? <DomainList canWrite={canWrite} /> : null}
    </div>
  );
}
