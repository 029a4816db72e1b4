// /engage/templates/email/new and /engage/templates/email/{id}: the template editor, with a way back
// to the Email tab. An id that is not a template of the business shows "Template not found".
import { ArrowLeftIcon, FileQuestionIcon, SendIcon } from 'lucide-react';
import { emailBrandStarter } from '@titan/contracts';
import { Link, useParams, useSearchParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { EMAIL_TEMPLATES_PATH, newCampaignPath } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useEmailBrand } from '../api/get-email-brand';
import { useEmailTemplate } from '../api/get-email-template';
import { TemplateEditor } from '../components/template-editor';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

function templateIdFrom(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function Page({
  title,
  sendToId,
  children,
}: {
  title: string;
  /** The saved template a campaign can be opened with ("Send to…"). */
  sendToId?: number;
  children: React.ReactNode;
}) {
  return (
    <PageLayout width="wide">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to={EMAIL_TEMPLATES_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {S.back}
          </Link>
        </Button>
        {sendToId ? (
          <Button asChild variant="outline" size="sm">
            <Link to={newCampaignPath({ templateId: sendToId, channel: 'email' })}>
              <SendIcon aria-hidden="true" />
              {S.sendTo}
            </Link>
          </Button>
        ) : null}
      </div>
      <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
      {children}
    </PageLayout>
  );
}

function NotFound() {
  return (
    <Page title={S.editTitle}>
      <EmptyState icon={FileQuestionIcon} title={S.notFoundTitle} text={S.notFoundText} />
    </Page>
  );
}

function ExistingTemplate({ id }: { id: number }) {
  const template = useEmailTemplate(id);
  const { can, ready } = usePermissions();
  if (template.isError && apiErrorStatus(template.error) === 404) return <NotFound />;
  return (
    <Page title={S.editTitle} sendToId={can('engage.write') ? id : undefined}>
      {template.isPending || !ready ? (
        <SectionLoading />
      ) : template.isError ? (
        <SectionError
          error={template.error}
          onRetry={() => void template.refetch()}
          fallback={S.templateLoadFailed}
        />
      ) : (
        <TemplateEditor key={template.data.id} template={template.data} canWrite={can('engage.write')} />
      )}
    </Page>
  );
}

/** ?from=brand: the new template starts from the brand's header, button and footer. */
function FromBrand({ canWrite }: { canWrite: boolean }) {
  const brand = useEmailBrand();
  if (brand.isPending) return <SectionLoading />;
  if (brand.isError)
    return (
      <SectionError error={brand.error} onRetry={() => void brand.refetch()} fallback={S.brand.loadFailed} />
    );
  return <TemplateEditor template={null} starter={emailBrandStarter(brand.data)} canWrite={canWrite} />;
}

export function NewEmailTemplateRoute() {
  const { can, ready } = usePermissions();
  const fromBrand = useSearchParams()[0].get('from') === 'brand';
  return (
    <Page title={S.newTitle}>
      {!ready ? (
        <SectionLoading />
      ) : fromBrand ? (
        <FromBrand canWrite={can('engage.write')} />
      ) : (
        <TemplateEditor template={null} canWrite={can('engage.write')} />
      )}
    </Page>
  );
}

export function EmailTemplateEditorRoute() {
  const id = templateIdFrom(useParams().templateId);
  if (id === null) return <NotFound />;
  return <ExistingTemplate key={id} id={id} />;
}
