// /engage/directory: everyone who chatted or filled a visitor form, searchable and paged, with their
// consent, exportable as CSV (the search shown). The search and the page live in the URL
// (?search=&page=), so Back from a visitor returns to the same rows.
import { UsersIcon } from 'lucide-react';
import { useSearchParams } from 'react-router';

import { AudienceExportButton } from '../../../components/audience-export-button';
import { AudienceNav } from '../../../components/audience-nav';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { DIRECTORY_PAGE_SIZE, useVisitors } from '../api/get-visitors';
import { VisitorSearch } from '../components/visitor-search';
import { VisitorsTable } from '../components/visitors-table';
import { DirectoryLabelFilter } from '../components/visitor-labels';
import { DIRECTORY_STRINGS as S } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

export function DirectoryRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.get('search')?.trim() ?? '';
  const page = pageFrom(searchParams.get('page'));
  const labelParam = pageFrom(searchParams.get('label'));
  const label = searchParams.get('label') ? labelParam : null;
  const visitors = useVisitors({ search, page, label });

  const show = (next: { search?: string; page?: number; label?: number | null }) => {
    const params = new URLSearchParams();
    const nextSearch = next.search ?? search;
    const nextPage = next.page ?? 1;
    const nextLabel = next.label === undefined ? label : next.label;
    if (nextSearch) params.set('search', nextSearch);
    if (nextLabel) params.set('label', String(nextLabel));
    if (nextPage > 1) params.set('page', String(nextPage));
    // Typing must not flood the history; paging is a step Back can undo.
    setSearchParams(params, { replace: next.page === undefined });
  };

  const content = () => {
    if (visitors.isPending) return <SectionLoading />;
    if (visitors.isError)
      return (
        <SectionError
          error={visitors.error}
          onRetry={() => void visitors.refetch()}
          fallback={S.loadFailed}
        />
      );
    const { results, count, page: shownPage } = visitors.data;
    if (results.length === 0) {
      if (search)
        return (
          <EmptyState icon={UsersIcon} title={S.noMatchesTitle} text={S.noMatchesText(search)}>
            <Button variant="outline" size="sm" onClick={() => show({ search: '' })}>
              {S.clearSearch}
            </Button>
          </EmptyState>
        );
      if (count > 0)
        return (
          <EmptyState icon={UsersIcon} title={S.noMatchesTitle} text={S.pageEmptyText}>
            <Button variant="outline" size="sm" onClick={() => show({ page: 1 })}>
              {S.firstPage}
            </Button>
          </EmptyState>
        );
      return <EmptyState icon={UsersIcon} title={S.emptyTitle} text={S.emptyText} />;
    }
    return (
      <div className="grid gap-4">
        <VisitorsTable visitors={results} stale={visitors.isPlaceholderData} />
        <Pager
          page={shownPage}
          pageSize={DIRECTORY_PAGE_SIZE}
          count={count}
          countCapped={visitors.data.count_capped}
          hasNext={visitors.data.next !== null}
          shown={results.length}
          onPage={(next) => show({ page: next })}
        />
      </div>
    );
  };

  return (
    <PageLayout>
      <AudienceNav />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
          <p className="text-sm text-muted-foreground">{S.description}</p>
        </div>
        <AudienceExportButton query={search ? { search } : {}} />
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <VisitorSearch
            value={search}
            onSearch={(next) => (next === search ? undefined : show({ search: next }))}
          />
        </div>
        <DirectoryLabelFilter value={label} onChange={(next) => show({ label: next })} />
      </div>
      {content()}
    </PageLayout>
  );
}
