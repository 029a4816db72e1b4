// /hc/{businessSlug} and /hc/{businessSlug}/articles/{id}-{slug}: a business's public help centre —
// search, categories and published articles, one article with "was this helpful?". No session;
// drafts and other businesses' articles never reach it (the API answers 404).
import { ArrowLeftIcon, SearchIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';

import { SectionLoading } from '../../../components/load-state';
import { Markdown } from '../../../components/markdown';
import { SearchBox } from '../../../components/search-box';
import { Button } from '../../../components/ui/button';
import { helpCentreArticlePath, helpCentrePath } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { useHelpCentre } from '../api/get-help-centre';
import { useHelpCentreArticle } from '../api/get-help-centre-article';
import { useHelpCentreSearch } from '../api/search-help-centre';
import { useArticleFeedback } from '../api/send-article-feedback';
import { HELP_CENTRE_STRINGS as S } from '../strings';

/** «match» marks from the server's snippet as <mark>, the rest as text (never HTML). */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/«|»/);
  return (
    <p className="text-sm text-muted-foreground">
      {parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : <span key={i}>{part}</span>))}
    </p>
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div className="min-h-dvh bg-background">
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6">{children}</main>
      <footer className="pb-8 text-center text-xs text-muted-foreground">{S.poweredBy}</footer>
    </div>
  );
}

function NotFound({ text }: { text: string }) {
  return (
    <Shell title={S.notFoundTitle}>
      <h1 className="text-2xl font-semibold">{S.notFoundTitle}</h1>
      <p className="text-muted-foreground">{text}</p>
    </Shell>
  );
}

export function HelpCentreRoute() {
  const slug = useParams().businessSlug ?? '';
  const centre = useHelpCentre(slug);
  const [q, setQ] = useState('');
  const search = useHelpCentreSearch(slug, q);
  if (centre.isPending) return <SectionLoading />;
  if (centre.isError) return <NotFound text={S.notFoundText} />;
  const { business, categories, articles } = centre.data;
  const groups = [
    ...categories.map((c) => ({
      key: String(c.id),
      name: c.name,
      description: c.description,
      items: articles.filter((a) => a.category_id === c.id),
    })),
    {
      key: 'other',
      name: S.other,
      description: '',
      items: articles.filter(
        (a) => a.category_id === null || !categories.some((c) => c.id === a.category_id),
      ),
    },
  ].filter((g) => g.items.length > 0);

  return (
    <Shell title={S.title(business.name)}>
      <header className="grid gap-4">
        <h1 className="text-3xl font-semibold tracking-tight break-words">{S.title(business.name)}</h1>
        <SearchBox
          value={q}
          onSearch={setQ}
          label={S.searchLabel}
          placeholder={S.searchPlaceholder}
          clearLabel={S.clearSearch}
        />
      </header>
      {q.trim() ? (
        <section aria-label={S.searchLabel} className="grid gap-3">
          {search.data ? (
            <>
              <p className="text-sm text-muted-foreground" role="status">
                {search.data.length ? S.results(search.data.length) : S.noResults}
              </p>
              <ul className="grid gap-3">
                {search.data.map((hit) => (
                  <li key={hit.article_id} className="rounded-md border p-3">
                    <Link
                      className="font-medium hover:underline"
                      to={helpCentreArticlePath(slug, hit.article_id, hit.slug)}
                    >
                      {hit.title}
                    </Link>
                    {hit.heading ? <p className="text-xs text-muted-foreground">{hit.heading}</p> : null}
                    <Snippet text={hit.snippet} />
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <SearchIcon aria-hidden="true" className="size-5 animate-pulse text-muted-foreground" />
          )}
        </section>
      ) : groups.length === 0 ? (
        <p className="text-muted-foreground">{S.empty}</p>
      ) : (
        groups.map((group) => (
          <section key={group.key} aria-label={group.name} className="grid gap-2">
            <h2 className="text-lg font-semibold">{group.name}</h2>
            {group.description ? <p className="text-sm text-muted-foreground">{group.description}</p> : null}
            <ul className="grid gap-1">
              {group.items.map((a) => (
                <li key={a.id}>
                  <Link
                    className="text-primary underline-offset-2 hover:underline"
                    to={helpCentreArticlePath(slug, a.id, a.slug)}
                  >
                    {a.title}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </Shell>
  );
}

export function HelpCentreArticleRoute() {
  const params = useParams();
  const slug = params.businessSlug ?? '';
  const id = Number.parseInt(params.article ?? '', 10);
  const centre = useHelpCentre(slug);
  const article = useHelpCentreArticle(slug, Number.isSafeInteger(id) ? id : 0);
  const feedback = useArticleFeedback(slug, id);
  if (article.isPending || centre.isPending) return <SectionLoading />;
  if (centre.isError) return <NotFound text={S.notFoundText} />;
  if (article.isError) return <NotFound text={S.articleNotFound} />;
  const a = article.data;
  return (
    <Shell title={`${a.title} · ${S.title(centre.data.business.name)}`}>
      <Button asChild variant="ghost" className="w-fit">
        <Link to={helpCentrePath(slug)}>
          <ArrowLeftIcon aria-hidden="true" />
          {S.back}
        </Link>
      </Button>
      <article lang={a.locale} className="grid gap-2">
        <h1 className="text-3xl font-semibold tracking-tight break-words">{a.title}</h1>
        <p className="text-xs text-muted-foreground">{S.updated(formatDate(a.updated_at))}</p>
        <Markdown source={a.body_markdown} className="text-base" />
      </article>
      <section aria-label={S.helpful} className="flex flex-wrap items-center gap-3 border-t pt-4">
        {feedback.isSuccess ? (
          <p role="status" className="text-sm">
            {S.thanks}
          </p>
        ) : (
          <>
            <span className="text-sm font-medium">{S.helpful}</span>
            <Button
              variant="outline"
              size="sm"
              disabled={feedback.isPending}
              onClick={() => feedback.mutate(true)}
            >
              {S.yes}
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={feedback.isPending}
              onClick={() => feedback.mutate(false)}
            >
              {S.no}
            </Button>
          </>
        )}
      </section>
    </Shell>
  );
}
