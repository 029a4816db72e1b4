// /engage/knowledge/import: bring articles in from web pages (addresses, or a sitemap) or files
// (Markdown, HTML, PDF). The import runs in the background; its progress and each page's or file's
// outcome show here as it goes — a page that failed says why, the others are imported.
import { zodResolver } from '@hookform/resolvers/zod';
import type { TKbImport } from '@titan/contracts';
import { ArrowLeftIcon, UploadIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ScrollContainer } from '../../../components/ui/scroll-container';
import { Spinner } from '../../../components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { KNOWLEDGE_PATH, knowledgeArticlePath } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDate } from '../../../lib/format';
import { KB_KEY } from '../api/get-articles';
import { useCategories } from '../api/get-categories';
import { isImportRunning, useImport } from '../api/get-import';
import { useImports } from '../api/get-imports';
import { useStartImport } from '../api/start-import';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.imports;
const SOURCES = ['pages', 'sitemap', 'files'] as const;
type TSource = (typeof SOURCES)[number];
const FIELDS = ['urls', 'sitemap_url', 'files', 'locale', 'status', 'category_id'] as const;

const ZForm = z.object({
  urls: z.string(),
  sitemap_url: z.string().trim(),
  files: z.string(),
  locale: z.string().trim().min(1, { message: KNOWLEDGE_STRINGS.editor.localeHint }),
  status: z.enum(['draft', 'published']),
  category_id: z.string(),
});
type TForm = z.infer<typeof ZForm>;

const ACCEPT = '.md,.markdown,.txt,.html,.htm,.pdf,text/markdown,text/html,application/pdf';

function ImportProgress({ id }: { id: number }) {
  const imp = useImport(id);
  const queryClient = useQueryClient();
  const running = isImportRunning(imp.data);
  useEffect(() => {
    // The articles list refreshes once the job is done.
    if (imp.data && !running) void queryClient.invalidateQueries({ queryKey: [...KB_KEY, 'articles'] });
  }, [imp.data, running, queryClient]);
  if (imp.isPending) return <SectionLoading />;
  if (imp.isError)
    return <SectionError error={imp.error} onRetry={() => void imp.refetch()} fallback={S.loadFailed} />;
  const data: TKbImport = imp.data;
  return (
    <Card aria-label={S.progressLabel}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          {running ? <Spinner aria-hidden="true" /> : null}
          {S.statusLine[data.status]}
        </CardTitle>
        <CardDescription role="status">
          {data.error ?? S.counts(data.processed, data.total, data.imported, data.failed)}
        </CardDescription>
      </CardHeader>
      {data.items.length > 0 ? (
        <CardContent>
          <ScrollContainer>
            <Table aria-label={S.itemsLabel}>
              <TableHeader>
                <TableRow>
                  <TableHead>{S.columns.source}</TableHead>
                  <TableHead>{S.columns.outcome}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.items.map((item) => (
                  <TableRow key={item.id}>
                    <TableCell className="max-w-96 break-all whitespace-normal">{item.source}</TableCell>
                    <TableCell className="min-w-48 whitespace-normal">
                      <div className="grid gap-1">
                        <Badge variant={item.status === 'failed' ? 'outline' : 'secondary'} className="w-fit">
                          {S.itemStatus[item.status]}
                        </Badge>
                        {item.article_id ? (
                          <Link
                            to={knowledgeArticlePath(item.article_id)}
                            className="break-words hover:underline"
                          >
                            {item.title ?? S.openArticle}
                          </Link>
                        ) : null}
                        {item.error ? <span className="text-sm text-destructive">{item.error}</span> : null}
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollContainer>
        </CardContent>
      ) : null}
    </Card>
  );
}

function RecentImports({ onOpen }: { onOpen: (id: number) => void }) {
  const imports = useImports();
  if (imports.isPending) return <SectionLoading />;
  if (imports.isError)
    return (
      <SectionError error={imports.error} onRetry={() => void imports.refetch()} fallback={S.loadFailed} />
    );
  if (imports.data.length === 0) return <p className="text-sm text-muted-foreground">{S.noneYet}</p>;
  return (
    <ul className="grid gap-2">
      {imports.data.map((imp) => (
        <li key={imp.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span>
            {formatDate(imp.created_at)} · {S.statusLine[imp.status]} ·{' '}
            {S.counts(imp.processed, imp.total, imp.imported, imp.failed)}
          </span>
          <Button variant="outline" size="sm" onClick={() => onOpen(imp.id)}>
            {S.show}
          </Button>
        </li>
      ))}
    </ul>
  );
}

export function KnowledgeImportRoute() {
  const [params, setParams] = useSearchParams();
  const shown = Number(params.get('import')) || null;
  const [source, setSource] = useState<TSource>('pages');
  const [files, setFiles] = useState<File[]>([]);
  const categories = useCategories();
  const canWrite = usePermissions().can('engage.write');
  const start = useStartImport();
  const fileInputId = useId();
  const form = useForm<TForm>({
    resolver: zodResolver(ZForm),
    defaultValues: { urls: '', sitemap_url: '', files: '', locale: 'en', status: 'draft', category_id: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const open = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('import', String(id));
    setParams(next, { replace: true });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const target = {
      locale: values.locale,
      status: values.status,
      category_id: values.category_id ? Number(values.category_id) : null,
    };
    try {
      const started =
        source === 'files'
          ? await start.mutateAsync({ kind: 'files', files, ...target })
          : await start.mutateAsync({
              kind: 'pages',
              ...target,
              ...(source === 'sitemap'
                ? { sitemap_url: values.sitemap_url }
                : {
                    urls: values.urls
                      .split(/\s+/)
                      .map((u) => u.trim())
                      .filter(Boolean),
                  }),
            });
      open(started.id);
      setFiles([]);
      form.reset({ ...values, urls: '', sitemap_url: '', files: '' });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <PageLayout
      title={S.title}
      description={S.description}
      actions={
        <Button asChild variant="outline">
          <Link to={KNOWLEDGE_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {KNOWLEDGE_STRINGS.editor.back}
          </Link>
        </Button>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {canWrite ? (
          <form
            noValidate
            aria-label={S.formLabel}
            onSubmit={(e) => void onSubmit(e)}
            className="grid content-start gap-4"
          >
            <FormAlert message={errors.root?.server?.message} />
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">{S.sourceLegend}</legend>
              <div className="flex flex-wrap gap-4">
                {SOURCES.map((s) => (
                  <label key={s} className="flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name="source"
                      className="size-4"
                      checked={source === s}
                      onChange={() => {
                        setSource(s);
                        form.clearErrors();
                      }}
                    />
                    {S.sources[s]}
                  </label>
                ))}
              </div>
            </fieldset>
            {source === 'pages' ? (
              <TextareaField
                label={S.urls}
                hint={S.urlsHint}
                rows={6}
                placeholder="https://example.com/help/shipping"
                registration={form.register('urls')}
                error={errors.urls?.message}
              />
            ) : null}
            {source === 'sitemap' ? (
              <TextField
                label={S.sitemap}
                hint={S.sitemapHint}
                type="url"
                placeholder="https://example.com/sitemap.xml"
                registration={form.register('sitemap_url')}
                error={errors.sitemap_url?.message}
              />
            ) : null}
            {source === 'files' ? (
              <div className="grid gap-2">
                <label htmlFor={fileInputId} className="text-sm font-medium">
                  {S.files}
                </label>
                <input
                  id={fileInputId}
                  type="file"
                  multiple
                  accept={ACCEPT}
                  aria-describedby={`${fileInputId}-hint`}
                  aria-invalid={errors.files ? true : undefined}
                  className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5"
                  onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
                />
                <p id={`${fileInputId}-hint`} className="text-sm text-muted-foreground">
                  {S.filesHint}
                </p>
                {errors.files?.message ? (
                  <p className="text-sm text-destructive">{errors.files.message}</p>
                ) : null}
              </div>
            ) : null}
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField
                label={KNOWLEDGE_STRINGS.editor.locale}
                registration={form.register('locale')}
                error={errors.locale?.message}
              />
              <SelectField
                label={KNOWLEDGE_STRINGS.editor.status}
                registration={form.register('status')}
                options={[
                  { value: 'draft', label: KNOWLEDGE_STRINGS.statuses.draft },
                  { value: 'published', label: KNOWLEDGE_STRINGS.statuses.published },
                ]}
                error={errors.status?.message}
              />
              <SelectField
                label={KNOWLEDGE_STRINGS.editor.category}
                registration={form.register('category_id')}
                options={[
                  { value: '', label: KNOWLEDGE_STRINGS.noCategory },
                  ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
                ]}
                error={errors.category_id?.message}
              />
            </div>
            <div>
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? <Spinner aria-hidden="true" /> : <UploadIcon aria-hidden="true" />}
                {S.start}
              </Button>
            </div>
          </form>
        ) : (
          <p className="text-sm text-muted-foreground">{KNOWLEDGE_STRINGS.editor.readOnly}</p>
        )}
        <div className="grid content-start gap-4">
          {shown ? <ImportProgress id={shown} /> : null}
          <section aria-labelledby="recent-imports" className="grid gap-2">
            <h2 id="recent-imports" className="text-lg font-semibold">
              {S.recent}
            </h2>
            <RecentImports onOpen={open} />
          </section>
        </div>
      </div>
    </PageLayout>
  );
}
