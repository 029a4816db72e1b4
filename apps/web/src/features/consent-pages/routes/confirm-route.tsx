// /confirm/{token}: the page behind the link of a list's double opt-in mail. Opening it confirms
// nothing (mail scanners open every link); it says which business, list and address, and confirms
// on a button press — then says so. A forged or expired link says so. The business's look, never Titan's.
import { CheckCircle2Icon, MailCheckIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useParams } from 'react-router';

import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorStatus } from '../../../lib/api-errors';
import { useConfirm } from '../api/confirm';
import { useConfirmation } from '../api/get-confirmation';
import { BusinessCard } from '../components/business-card';
import { consentLocale, consentStrings } from '../strings';

const INVALID = new Set([400, 401, 403, 404, 410]);

export function OptInConfirmRoute() {
  const token = useParams().token?.trim() ?? '';
  const about = useConfirmation(token);
  const confirm = useConfirm(token);
  const lang = consentLocale();
  const S = consentStrings(lang);
  const status = about.isError ? apiErrorStatus(about.error) : null;
  const invalid =
    !token ||
    (status !== null && INVALID.has(status)) ||
    (confirm.isError && INVALID.has(apiErrorStatus(confirm.error) ?? 0));
  const business = about.data?.business ?? null;
  useEffect(() => {
    document.title = invalid ? S.invalidTitle : business ? S.confirmTitle(business.name) : S.loading;
  }, [S, invalid, business]);

  if (invalid)
    return <BusinessCard business={null} lang={lang} title={S.invalidTitle} description={S.invalid} />;
  if (about.isPending)
    return (
      <BusinessCard business={null} lang={lang} title={S.loading}>
        <Spinner />
      </BusinessCard>
    );
  if (about.isError)
    return (
      <BusinessCard business={null} lang={lang} title={S.failed}>
        <Button variant="outline" onClick={() => void about.refetch()}>
          {S.retry}
        </Button>
      </BusinessCard>
    );
  const data = about.data;
  if (data.confirmed)
    return (
      <BusinessCard
        business={data.business}
        lang={lang}
        title={S.confirmedTitle}
        description={S.confirmed(data.address, data.business.name)}
      >
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2Icon aria-hidden="true" className="size-4 text-emerald-600" />
          {S.unsubscribeLater}
        </p>
      </BusinessCard>
    );
  return (
    <BusinessCard
      business={data.business}
      lang={lang}
      title={S.confirmTitle(data.business.name)}
      description={S.confirmExplain(data.address, data.list_name, data.business.name)}
    >
      {confirm.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{S.failed}</AlertDescription>
        </Alert>
      ) : null}
      <Button disabled={confirm.isPending} onClick={() => confirm.mutate()}>
        {confirm.isPending ? <Spinner /> : <MailCheckIcon aria-hidden="true" />}
        {confirm.isPending ? S.confirming : S.confirmButton}
      </Button>
    </BusinessCard>
  );
}
