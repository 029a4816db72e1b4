// /engage/confirm?token=…: the page behind the link of the double opt-in mail. It confirms only on
// a button press — mail scanners that open every link must not subscribe anyone — then says what
// was confirmed. A forged or expired link says so.
import { CheckCircle2Icon, MailCheckIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { QR_FORM_ERRORS } from '@titan/contracts';

import { CenteredCard } from '../../../components/centered-card';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorStatus } from '../../../lib/api-errors';
import { useConfirmSubscription } from '../api/confirm-subscription';
import { QR_CONFIRM_STRINGS as S } from '../strings';

export function ConfirmSubscriptionRoute() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirm = useConfirmSubscription(token);
  const status = confirm.isError ? apiErrorStatus(confirm.error) : null;
  if (!token || (status !== null && status >= 400 && status < 500))
    return <CenteredCard title={S.invalidTitle} description={QR_FORM_ERRORS.confirmInvalid} />;
  if (confirm.isSuccess)
    return (
      <CenteredCard title={S.doneTitle} description={S.done(confirm.data.business_name, confirm.data.email)}>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2Icon aria-hidden="true" className="size-4 text-emerald-600" />
          {S.unsubscribeLater}
        </p>
      </CenteredCard>
    );
  return (
    <CenteredCard title={S.title} description={S.explain}>
      {confirm.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{S.failed}</AlertDescription>
        </Alert>
      ) : null}
      <Button disabled={confirm.isPending} onClick={() => confirm.mutate()}>
        {confirm.isPending ? <Spinner /> : <MailCheckIcon aria-hidden="true" />}
        {confirm.isPending ? S.working : S.button}
      </Button>
    </CenteredCard>
  );
}
