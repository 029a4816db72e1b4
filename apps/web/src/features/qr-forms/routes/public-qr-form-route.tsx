// /v/{businessCode}/{slug}: the public visitor form a QR code opens (no sign-in). Mobile first: one
// column, large controls; an unknown or switched-off form says so.
import { useEffect } from 'react';
import { useParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorStatus } from '../../../lib/api-errors';
import { usePublicQrForm } from '../api/get-public-qr-form';
import { useSubmitQrForm } from '../api/submit-qr-form';
import { QrFormView } from '../components/qr-form-view';
import { QR_PUBLIC_STRINGS as S } from '../strings';

export function PublicQrFormRoute() {
  const { businessCode = '', slug = '' } = useParams();
  const form = usePublicQrForm(businessCode, slug);
  const submit = useSubmitQrForm(businessCode, slug);
  const title = form.data?.title;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);

  if (form.isPending)
    return (
      <CenteredCard title={S.loading}>
        <Spinner />
      </CenteredCard>
    );
  if (form.isError) {
    if (apiErrorStatus(form.error) === 404)
      return <CenteredCard title={S.unavailableTitle} description={S.unavailable} />;
    return (
      <CenteredCard title={S.failed}>
        <Button variant="outline" onClick={() => void form.refetch()}>
          {S.retry}
        </Button>
      </CenteredCard>
    );
  }
  return (
    <main className="min-h-dvh bg-muted/40 px-4 py-6 sm:py-12">
      <Card className="mx-auto w-full max-w-md">
        <CardContent className="pt-6">
          <QrFormView form={form.data} onSubmit={(body) => submit.mutateAsync(body)} />
        </CardContent>
      </Card>
    </main>
  );
}
