// The texts a visitor sent to the business's SMS number, newest first: what they wrote, when, and
// whether it was a STOP (unsubscribed) or START (resubscribed).
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';
import { useVisitorTexts } from '../api/get-visitor-texts';
import { DIRECTORY_STRINGS as S } from '../strings';

export function TextsCard({ visitorId }: { visitorId: number }) {
  const texts = useVisitorTexts(visitorId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.textsTitle}</CardTitle>
        <CardDescription>{S.textsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {texts.isPending ? (
          <SectionLoading />
        ) : texts.isError ? (
          <SectionError
            error={texts.error}
            onRetry={() => void texts.refetch()}
            fallback={S.textsLoadFailed}
          />
        ) : texts.data.results.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.noTexts}</p>
        ) : (
          <ol aria-label={S.textsTitle} className="grid gap-3">
            {texts.data.results.map((text) => (
              <li key={text.id} className="grid gap-1">
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <time dateTime={text.received_at}>{formatDateTime(text.received_at)}</time>
                  {text.keyword ? <Badge variant="outline">{S.keywords[text.keyword]}</Badge> : null}
                </div>
                <p className="rounded-2xl bg-muted px-3 py-2 text-sm break-words whitespace-pre-wrap">
                  {text.body}
                </p>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
