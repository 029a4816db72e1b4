// /engage/templates/email (the Email tab): the business's email templates, newest save first; those
// with engage.write create, open and delete them. Everyone in the engage area may read them.
import type { TEmailTemplateSummary } from '@titan/contracts';
import { MailIcon, PaletteIcon, PlusIcon } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import {
  EMAIL_BRAND_PATH,
  NEW_EMAIL_TEMPLATE_FROM_BRAND_PATH,
  NEW_EMAIL_TEMPLATE_PATH,
} from '../../../config/paths';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useDeleteEmailTemplate } from '../api/delete-email-template';
import { useEmailTemplates } from '../../../lib/email-templates';
import { EmailTemplatesTable } from '../components/email-templates-table';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';

export function EmailTemplatesRoute() {
  const templates = useEmailTemplates();
  const { can } = usePermissions();
  const canWrite = can('engage.write');
  const remove = useDeleteEmailTemplate();

  const onDelete = (t: TEmailTemplateSummary) =>
    remove.mutate(t.id, {
      onSuccess: () => toast.success(S.deleted(t.name)),
      onError: (error) => reportApiError(error, { toast: true }),
    });

  const content = () => {
    if (templates.isPending) return <SectionLoading />;
    if (templates.isError)
      return (
        <SectionError
          error={templates.error}
          onRetry={() => void templates.refetch()}
          fallback={S.loadFailed}
        />
      );
    if (templates.data.length === 0)
      return <EmptyState icon={MailIcon} title={S.emptyTitle} text={S.emptyText} />;
    return (
      <EmailTemplatesTable
        templates={templates.data}
        canDelete={canWrite}
        deleting={remove.isPending}
        onDelete={onDelete}
      />
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap justify-end gap-2">
        <Button asChild variant="outline">
          <Link to={EMAIL_BRAND_PATH}>
            <PaletteIcon aria-hidden="true" />
            {S.brand.open}
          </Link>
        </Button>
        {canWrite ? (
          <>
            <Button asChild variant="outline">
              <Link to={NEW_EMAIL_TEMPLATE_FROM_BRAND_PATH}>
                <PlusIcon aria-hidden="true" />
                {S.brand.fromBrand}
              </Link>
            </Button>
            <Button asChild>
              <Link to={NEW_EMAIL_TEMPLATE_PATH}>
                <PlusIcon aria-hidden="true" />
                {S.create}
              </Link>
            </Button>
          </>
        ) : null}
      </div>
      {content()}
    </div>
  );
}
