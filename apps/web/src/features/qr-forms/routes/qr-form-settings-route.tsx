// /engage/settings/qr-form: the QR form tab, composed into the settings shell by the app.
import { SectionError, SectionLoading } from '../../../components/load-state';
import { usePermissions } from '../../../lib/business/roles';
import { useBusinessCard } from '../api/business-card';
import { useQrSchema } from '../api/qr-schema';
import { QrFormEditor } from '../components/qr-form-editor';

export function QrFormSettingsRoute() {
  const schema = useQrSchema();
  const business = useBusinessCard();
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
