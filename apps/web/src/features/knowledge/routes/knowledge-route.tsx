// /engage/knowledge: the knowledge base's articles (search by title, filter by status and category)
// beside its categories, with the way to the public help centre.
import { BookOpenIcon, BotIcon, ExternalLinkIcon, PlusIcon, UploadIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { SearchBox } from '../../../components/search-box';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { NativeSelect } from '../../../components/ui/native-select';
import { ScrollContainer } from '../../../components/ui/scroll-container';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import {
  AI_REPORT_PATH,
  helpCentrePath,
  KNOWLEDGE_IMPORT_PATH,
  knowledgeArticlePath,
  NEW_KNOWLEDGE_ARTICLE_PATH,
} from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { formatDate } from '../../../lib/format';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { KB_PAGE_SIZE, useArticles, type TArticleFilters } from '../api/get-articles';
import { useCategories } from '../api/get-categories';
import { CategoriesCard } from '../components/categories-card';
import { KNOWLEDGE_STRINGS as S } from '../strings';

export function KnowledgeRoute() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const status = params.get('status');
  const filters: TArticleFilters = {
    status: status === 'draft' || status === 'published' ? status : '',
    category_id: Number(params.get('category')) || null,
    search: params.get('search') ?? '',
  };
  const articles = useArticles(filters, page);
  const categories = useCategories();
  const canWrite = usePermissions().can('engage.write');
  const membership = useCurrentMembership();
  const categoryName = (id: number | null) =>
    id === null ? S.noCategory : (categories.data?.find((c) => c.id === id)?.name ?? S.noCategory);

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete('page');
    setParams(next, { replace: true });
  };
  const filtered = Boolean(filters.status || filters.category_id || filters.search);

  const content = () => {
    if (articles.isPending) return <SectionLoading />;
    if (articles.isError)
      return (
        <SectionError
          error={articles.error}
          onRetry={() => void articles.refetch()}
          fallback={S.loadFailed}
        />
      );
    const { results, count } = articles.data;
    if (results.length === 0)
      return filtered ? (
        <EmptyState icon={BookOpenIcon} title={S.noMatchesTitle} text={S.noMatchesText} />
      ) : (
        <EmptyState icon={BookOpenIcon} title={S.emptyTitle} text={S.emptyText} />
      );
    return (
      <div className="grid gap-4">
        <ScrollContainer>
          <Table aria-label={S.tableLabel}>
            <TableHeader>
              <TableRow>
                <TableHead>{S.columns.title}</TableHead>
                <TableHead>{S.columns.category}</TableHead>
                <TableHead>{S.columns.locale}</TableHead>
                <TableHead>{S.columns.status}</TableHead>
                <TableHead>{S.columns.updated}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {results.map((article) => (
                <TableRow key={article.id}>
                  <TableCell className="max-w-80 font-medium break-words whitespace-normal">
                    <Link to={knowledgeArticlePath(article.id)} className="hover:underline">
                      {article.title}
                    </Link>
                  </TableCell>
                  <TableCell>{categoryName(article.category_id)}</TableCell>
                  <TableCell>{article.locale}</TableCell>
                  <TableCell>
                    <Badge variant={article.status === 'published' ? 'secondary' : 'outline'}>
                      {S.statuses[article.status]}
                    </Badge>
                  </TableCell>
                  <TableCell>{formatDate(article.updated_at)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollContainer>
        <Pager
          page={page}
          pageSize={KB_PAGE_SIZE}
          count={count}
          shown={results.length}
          onPage={(next) => setFilter('page', next > 1 ? String(next) : '')}
        />
      </div>
    );
  };

  return (
    <PageLayout
      title={S.title}
      description={S.description}
      actions={
        <>
          <Button asChild variant="outline">
            <Link to={AI_REPORT_PATH}>
              <BotIcon aria-hidden="true" />
              {S.aiReportLink}
            </Link>
          </Button>
          {membership ? (
            <Button asChild variant="outline">
              <a href={helpCentrePath(membership.unique_code)} target="_blank" rel="noreferrer">
                <ExternalLinkIcon aria-hidden="true" />
                {S.openHelpCentre}
              </a>
            </Button>
          ) : null}
          {canWrite ? (
            <Button asChild variant="outline">
              <Link to={KNOWLEDGE_IMPORT_PATH}>
                <UploadIcon aria-hidden="true" />
                {S.importArticles}
              </Link>
            </Button>
          ) : null}
          {canWrite ? (
            <Button asChild>
              <Link to={NEW_KNOWLEDGE_ARTICLE_PATH}>
                <PlusIcon aria-hidden="true" />
                {S.newArticle}
              </Link>
            </Button>
          ) : null}
        </>
      }
    >
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <section className="grid min-w-0 content-start gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-56 flex-1">
              <SearchBox
                value={filters.search ?? ''}
                onSearch={(search) => setFilter('search', search)}
                label={S.searchLabel}
                placeholder={S.searchPlaceholder}
                clearLabel={S.clearSearch}
              />
            </div>
            <label className="grid gap-1 text-sm">
              <span className="font-medium">{S.statusFilter}</span>
              <NativeSelect
                value={filters.status ?? ''}
                onChange={(e) => setFilter('status', e.target.value)}
              >
                <option value="">{S.all}</option>
                <option value="published">{S.statuses.published}</option>
                <option value="draft">{S.statuses.draft}</option>
              </NativeSelect>
            </label>
            <label className="grid gap-1 text-sm">
              <span className="font-medium">{S.categoryFilter}</span>
              <NativeSelect
                value={filters.category_id ? String(filters.category_id) : ''}
                onChange={(e) => setFilter('category', e.target.value)}
              >
                <option value="">{S.all}</option>
                {categories.data?.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </NativeSelect>
            </label>
          </div>
          {content()}
        </section>
        <CategoriesCard canWrite={canWrite} />
      </div>
    </PageLayout>
  );
}
