// /engage/knowledge/articles/new and /engage/knowledge/articles/{id}: an article's title, category,
// language and status, its Markdown beside a live preview (the help centre's rendering), saved as
// one; deleting asks first. Readers without engage.write see it read-only.
import { ZKbArticleRequest, type TKbArticle, type TKbArticleRequest } from '@titan/contracts';
import { ArrowLeftIcon, BookOpenIcon, ExternalLinkIcon } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState } from '../../../components/empty-state';
import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Markdown } from '../../../components/markdown';
import { Button } from '../../../components/ui/button';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { helpCentreArticlePath, KNOWLEDGE_PATH, knowledgeArticlePath } from '../../../config/paths';
import { applyApiErrorToForm, describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { useCreateArticle } from '../api/create-article';
import { useDeleteArticle } from '../api/delete-article';
import { useArticle } from '../api/get-article';
import { useCategories } from '../api/get-categories';
import { useUpdateArticle } from '../api/update-article';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.editor;
const FIELDS = ['title', 'body_markdown', 'category_id', 'locale', 'status'] as const;

type TValues = {
  title: string;
  body_markdown: string;
  category_id: string;
  locale: string;
  status: 'draft' | 'published';
};

const valuesOf = (article: TKbArticle | null): TValues => ({
  title: article?.title ?? '',
  body_markdown: article?.body_markdown ?? '',
  category_id: article?.category_id ? String(article.category_id) : '',
  locale: article?.locale ?? 'en',
  status: article?.status ?? 'draft',
});

const requestOf = (values: TValues): TKbArticleRequest => ({
  title: values.title,
  body_markdown: values.body_markdown,
  category_id: values.category_id ? Number(values.category_id) : null,
  locale: values.locale,
  status: values.status,
});

function ArticleEditor({ article }: { article: TKbArticle | null }) {
  const canWrite = usePermissions().can('engage.write');
  const categories = useCategories();
  const membership = useCurrentMembership();
  const navigate = useNavigate();
  const create = useCreateArticle();
  const update = useUpdateArticle(article?.id ?? 0);
  const remove = useDeleteArticle();
  const form = useForm<TValues>({ defaultValues: valuesOf(article) });
  const { errors, isSubmitting, isDirty } = form.formState;
  const unsaved = useUnsavedChanges(isDirty && !isSubmitting);
  const body = useWatch({ control: form.control, name: 'body_markdown' });

  // Checked with the contract's rules first (field errors at once), then by the server.
  const save = form.handleSubmit(async (values) => {
    const parsed = ZKbArticleRequest.safeParse(requestOf(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as (typeof FIELDS)[number];
        if (FIELDS.includes(field)) form.setError(field, { message: issue.message });
      }
      return;
    }
    try {
      if (article) {
        const saved = await update.mutateAsync(requestOf(values));
        form.reset(valuesOf(saved));
        toast.success(S.saved);
      } else {
        const saved = await create.mutateAsync(requestOf(values));
        unsaved.release();
        toast.success(S.created);
        void navigate(knowledgeArticlePath(saved.id), { replace: true });
      }
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  const categoryOptions = [
    { value: '', label: KNOWLEDGE_STRINGS.noCategory },
    ...(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
  ];
  const statusOptions = [
    { value: 'draft', label: KNOWLEDGE_STRINGS.statuses.draft },
    { value: 'published', label: KNOWLEDGE_STRINGS.statuses.published },
  ];

  return (
    <PageLayout
      width="wide"
      title={article ? article.title : S.newTitle}
      description={
        article ? (
          <>
            {article.source_url ? (
              <span className="block break-all">{S.source(article.source_url)}</span>
            ) : null}
            <span>{S.feedback(article.helpful_count, article.not_helpful_count)}</span>
          </>
        ) : undefined
      }
      actions={
        <>
          <Button asChild variant="ghost">
            <Link to={KNOWLEDGE_PATH}>
              <ArrowLeftIcon aria-hidden="true" />
              {S.back}
            </Link>
          </Button>
          {article?.status === 'published' && membership ? (
            <Button asChild variant="outline">
              <a
                href={helpCentreArticlePath(membership.unique_code, article.id, article.slug)}
                target="_blank"
                rel="noreferrer"
              >
                <ExternalLinkIcon aria-hidden="true" />
                {S.viewPublic}
              </a>
            </Button>
          ) : null}
        </>
      }
    >
      {unsaved.dialog}
      {!canWrite ? <p className="text-sm text-muted-foreground">{S.readOnly}</p> : null}
      <form noValidate onSubmit={save} aria-label={S.newTitle} className="grid gap-6 xl:grid-cols-2">
        <fieldset disabled={!canWrite} className="grid min-w-0 content-start gap-4">
          <FormAlert message={errors.root?.server?.message} />
          <TextField label={S.title} registration={form.register('title')} error={errors.title?.message} />
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              label={S.category}
              options={categoryOptions}
              registration={form.register('category_id')}
              error={errors.category_id?.message}
            />
            <TextField
              label={S.locale}
              hint={S.localeHint}
              registration={form.register('locale')}
              error={errors.locale?.message}
            />
            <SelectField
              label={S.status}
              options={statusOptions}
              registration={form.register('status')}
              error={errors.status?.message}
            />
          </div>
          <TextareaField
            label={S.body}
            hint={S.bodyHint}
            rows={18}
            className="font-mono text-sm"
            registration={form.register('body_markdown')}
            error={errors.body_markdown?.message}
          />
          {canWrite ? (
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? S.saving : S.save}
              </Button>
              {article ? (
                <ConfirmAction
                  trigger={S.delete}
                  variant="outline"
                  size="default"
                  title={S.deleteTitle}
                  description={S.deleteText}
                  confirmLabel={S.delete}
                  onConfirm={() =>
                    remove.mutate(article.id, {
                      onSuccess: () => {
                        unsaved.release();
                        toast.success(S.deleted);
                        void navigate(KNOWLEDGE_PATH);
                      },
                      onError: (error) => reportApiError(error, { toast: true }),
                    })
                  }
                />
              ) : null}
            </div>
          ) : null}
        </fieldset>
        <section aria-label={S.preview} className="grid min-w-0 content-start gap-2">
          <h2 className="text-base font-semibold">{S.preview}</h2>
          <div className="min-w-0 rounded-md border p-4">
            {body.trim() ? (
              <Markdown source={body} />
            ) : (
              <p className="text-sm text-muted-foreground">{S.emptyPreview}</p>
            )}
          </div>
        </section>
      </form>
    </PageLayout>
  );
}

export function NewArticleRoute() {
  return <ArticleEditor article={null} />;
}

export function ArticleRoute() {
  const id = Number(useParams().id);
  const article = useArticle(Number.isSafeInteger(id) && id > 0 ? id : 0);
  if (article.isPending) return <SectionLoading />;
  if (article.isError) {
    const failure = describeApiFailure(article.error);
    if (failure.kind === 'response' && failure.status === 404)
      return (
        <PageLayout>
          <EmptyState icon={BookOpenIcon} title={S.notFoundTitle} text={S.notFoundText} />
        </PageLayout>
      );
    return <SectionError error={article.error} onRetry={() => void article.refetch()} />;
  }
  // A fresh editor per article, so its form starts from what was loaded.
  return <ArticleEditor key={article.data.id} article={article.data} />;
}
