// /engage/settings/qr-form: the QR form tab, composed into the settings shell by the app.
import { useQuery } from '@tanstack/react-query';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { usePermissions } from '../../../lib/business/roles';
import { businessQueryOptions } from '../../../lib/business/business';
import { useQrSchema } from '../api/get-qr-schema';
import { QrFormEditor } from '../components/qr-form-editor';

export function QrFormSettingsRoute() {
  const schema = useQrSchema();
  // The name and dial code the preview shows, as the public page will (the shared business fetcher).
  const business = useQuery({
    ...businessQueryOptions(),
    select: ({ name, dial_code }) => ({ name, dial_code }),
  });
  const { can } = usePermissions();
  if (schema.isPending || business.isPending) return <SectionLoading />;
  if (schema.isError) return <SectionError error={schema.error} onRetry={() => void schema.refetch()} />;
  if (business.isError)
    return <SectionError error={business.error} onRetry={() => void business.refetch()} />;
  return (
    <QrFormEditor
      key={schema.data.updated_at ?? 'new'}
      schema={schema.data}
      business={business.data}
      canEdit={can('engage.write')}
    />
  );
}
