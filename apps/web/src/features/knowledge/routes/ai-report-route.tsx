// /engage/knowledge/ai-report: how the AI first responder did over whole days of the business's
// zone (the last 30 by default; the range kept in the address): what it took up, answered and
// handed to a person, why it handed off, how staff rated its answers, the tokens it used, and the
// newest answers rated bad with what was wrong — each a link to its conversation.
import type { TAiReport } from '@titan/contracts';
import { ArrowLeftIcon, BotIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { ScrollContainer } from '../../../components/ui/scroll-container';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { conversationPath, KNOWLEDGE_PATH } from '../../../config/paths';
import { useBusinessTimeZone } from '../../../lib/business/business';
import { dayRange, daysBefore, todayIn } from '../../../lib/day-ranges';
import { formatDateTime } from '../../../lib/format';
import { useAiReport } from '../api/ai-report';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.aiReport;
const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

/** The API's period [from, to) for whole days `from`..`to` in `timeZone`, or null when no range. */
function reportPeriod(from: string, to: string, timeZone: string) {
  const range = dayRange(from, to, timeZone);
  if (!range || (Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS) return null;
  return {
    from: range.created_at__gte,
    to: new Date(Date.parse(range.created_at__lte) + 1).toISOString(),
  };
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums break-words">{value}</dd>
    </div>
  );
}

function Report({ report }: { report: TAiReport }) {
  if (report.runs === 0) return <EmptyState icon={BotIcon} title={S.emptyTitle} text={S.emptyText} />;
  return (
    <div className="grid gap-6">
      <dl aria-label={S.figuresLabel} className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure label={S.runs} value={report.runs.toLocaleString()} />
        <Figure label={S.answered} value={report.answered.toLocaleString()} />
        <Figure label={S.handedOff} value={report.handed_off.toLocaleString()} />
        <Figure
          label={S.goodRate}
          value={
            report.good_rate === null
              ? S.notRated
              : S.goodRateValue(report.good_rate, report.rated_good, report.rated_bad)
          }
        />
        <Figure label={S.tokens} value={report.tokens.toLocaleString()} />
      </dl>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>{S.reasonsTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            {report.handoff_reasons.length === 0 ? (
              <p className="text-sm text-muted-foreground">{S.noHandoffs}</p>
            ) : (
              <ScrollContainer>
                <Table aria-label={S.reasonsLabel}>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{S.reasonColumn}</TableHead>
                      <TableHead className="text-right">{S.countColumn}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {report.handoff_reasons.map((r) => (
                      <TableRow key={r.reason}>
                        <TableCell className="break-words whitespace-normal">
                          {S.reasons[r.reason] ?? r.reason}
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{r.count.toLocaleString()}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollContainer>
            )}
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>{S.badTitle}</CardTitle>
            <CardDescription>{S.badDescription}</CardDescription>
          </CardHeader>
          <CardContent>
            {report.recent_bad.length === 0 ? (
              <p className="text-sm text-muted-foreground">{S.noBad}</p>
            ) : (
              <ScrollContainer>
                <Table aria-label={S.badLabel}>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{S.whatWasWrong}</TableHead>
                      <TableHead>{S.ratedAt}</TableHead>
                      <TableHead>{S.conversation}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {report.recent_bad.map((b) => (
                      <TableRow key={b.run_id}>
                        <TableCell className="max-w-72 break-words whitespace-normal">
                          {b.reason ? b.reason : <span className="text-muted-foreground">{S.noReason}</span>}
                        </TableCell>
                        <TableCell>{formatDateTime(b.rated_at)}</TableCell>
                        <TableCell>
                          {b.conversation_id === null ? null : (
                            <Link
                              to={conversationPath(b.conversation_id)}
                              className="underline-offset-4 hover:underline"
                              aria-label={S.openConversation(b.conversation_id)}
                            >
                              #{b.conversation_id}
                            </Link>
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollContainer>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

export function AiReportRoute() {
  const timeZone = useBusinessTimeZone();
  const [params, setParams] = useSearchParams();
  const today = timeZone ? todayIn(timeZone) : '';
  const from = params.get('from') ?? (today ? daysBefore(today, 29) : '');
  const to = params.get('to') ?? today;
  const period = timeZone ? reportPeriod(from, to, timeZone) : null;
  const report = useAiReport(period);

  const setDay = (key: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(params);
    next.set('from', from);
    next.set('to', to);
    next.set(key, value);
    setParams(next, { replace: true });
  };

  const content = () => {
    if (!timeZone) return <SectionLoading />;
    if (!period) return <p className="text-sm text-destructive">{S.badRange}</p>;
    if (report.isPending) return <SectionLoading />;
    if (report.isError)
      return (
        <SectionError error={report.error} onRetry={() => void report.refetch()} fallback={S.loadFailed} />
      );
    return <Report report={report.data} />;
  };

  return (
    <PageLayout
      title={S.title}
      description={S.description}
      actions={
        <Button asChild variant="outline">
          <Link to={KNOWLEDGE_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {S.back}
          </Link>
        </Button>
      }
    >
      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className="sr-only">{S.periodLabel}</legend>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">{S.from}</span>
          <Input type="date" value={from} max={to} onChange={(e) => setDay('from', e.target.value)} />
        </label>
        <label className="grid gap-1 text-sm">
          <span className="font-medium">{S.to}</span>
          <Input type="date" value={to} min={from} onChange={(e) => setDay('to', e.target.value)} />
        </label>
      </fieldset>
      {content()}
    </PageLayout>
  );
}
