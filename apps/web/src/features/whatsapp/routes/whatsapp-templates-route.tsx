// /engage/templates (WhatsApp tab): the WhatsApp Business Account's message templates as last synced
// from Meta (name, language, category, review status, body), searchable; "Sync from WhatsApp" fetches
// them again. Syncing needs engage.write; everyone in the engage area may read them.
import { FileTextIcon, RefreshCwIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { SearchBox } from '../../../components/search-box';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useWhatsappTemplates } from '../../../lib/whatsapp/templates';
import { useSyncWhatsappTemplates } from '../api/sync-whatsapp-templates';
import { TemplatesTable } from '../components/templates-table';
import { WHATSAPP_STRINGS } from '../strings';

const S = WHATSAPP_STRINGS.templates;

function SyncButton() {
  const sync = useSyncWhatsappTemplates();
  return (
    <Button
      variant="outline"
      disabled={sync.isPending}
      onClick={() =>
        sync.mutate(undefined, {
          onSuccess: ({ synced, removed }) =>
            toast.success(S.synced, { description: S.syncedCounts(synced, removed) }),
          onError: (error) => reportApiError(error, { toast: true }),
        })
      }
    >
      {sync.isPending ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
      {sync.isPending ? S.syncing : S.sync}
    </Button>
  );
}

export function WhatsappTemplatesRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.get('search')?.trim() ?? '';
  const templates = useWhatsappTemplates(search ? { search } : {});
  const { can } = usePermissions();

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
      return search ? (
        <EmptyState icon={FileTextIcon} title={S.noMatchesTitle} text={S.noMatchesText(search)} />
      ) : (
        <EmptyState icon={FileTextIcon} title={S.emptyTitle} text={S.emptyText} />
      );
    return <TemplatesTable templates={templates.data} canSend={can('engage.write')} />;
  };

  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted-foreground">{S.description}</p>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="w-full max-w-sm">
          <SearchBox
            value={search}
            onSearch={(next) =>
              next === search ? undefined : setSearchParams(next ? { search: next } : {}, { replace: true })
            }
            label={S.search}
            placeholder={S.searchPlaceholder}
            clearLabel={S.clearSearch}
          />
        </div>
        {can('engage.write') ? <SyncButton /> : null}
      </div>
      {content()}
    </div>
  );
}
