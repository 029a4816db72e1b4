// The dashboard root (/engage, engage.md §7): what a business cares about over the chosen days —
// conversations opened, waiting for a reply and the median first response; messages sent per
// channel and what became of them; email open and click rates; what agents sent and their runs —
// each with a chart, and empty states that say how to start.
import type { TEmailMetrics, TEngageMetrics, TSendOutcomes, TServiceLevelRow } from '@titan/contracts';
import { LayoutDashboardIcon } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';

import { LineChart } from '../../../components/charts/line-chart';
import { RateBars } from '../../../components/charts/rate-bars';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { AGENTS_PATH, EMBED_SETTINGS_PATH, settingsPath } from '../../../config/paths';
import { useBusinessTimeZone } from '../../../lib/business/business';
import { dayRange, daysBefore, lastDays, todayIn } from '../../../lib/day-ranges';
import { useEmailMetrics } from '../../../lib/email-metrics';
import { useEngageMetrics, type TRange } from '../api/get-engage-metrics';
import { DASHBOARD_STRINGS as S } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';
import { ScrollContainer } from '../../../components/ui/scroll-container';

const RANGES = ['7', '30', '90', 'custom'] as const;
type TRangeKey = (typeof RANGES)[number];
const MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** Whole days in the business's zone from `from` to `to` (YYYY-MM-DD), at most a year, or null. */
function customRange(from: string, to: string, timeZone: string): TRange | null {
  const range = dayRange(from, to, timeZone);
  if (!range || (Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS) return null;
  return range;
}

const COLORS = {
  opened: 'var(--color-sky-500, #0ea5e9)',
  unanswered: 'var(--color-amber-500, #f59e0b)',
  email: 'var(--color-violet-500, #8b5cf6)',
  sms: 'var(--color-emerald-500, #10b981)',
  whatsapp: 'var(--color-green-600, #16a34a)',
  titan_message: 'var(--color-slate-500, #64748b)',
} as const;

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="grid gap-0.5 rounded-md border p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function Conversations({ m }: { m: TEngageMetrics }) {
  const c = m.conversations;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.conversations.title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-3 gap-3">
          <Figure
            label={S.conversations.opened}
            value={c.opened.toLocaleString()}
            testId="conversations-opened"
          />
          <Figure
            label={S.conversations.unanswered}
            value={c.unanswered.toLocaleString()}
            testId="conversations-unanswered"
          />
          <Figure
            label={S.conversations.median}
            value={
              c.median_first_response_seconds === null
                ? S.conversations.noMedian
                : S.duration(c.median_first_response_seconds)
            }
            testId="conversations-median"
          />
        </dl>
        {c.opened === 0 ? (
          <p className="text-sm text-muted-foreground">{S.conversations.empty}</p>
        ) : (
          <LineChart
            label={S.conversations.chart}
            xLabels={m.series.map((d) => d.date.slice(5))}
            series={[
              {
                key: 'opened',
                label: S.conversations.seriesOpened,
                color: COLORS.opened,
                values: m.series.map((d) => d.conversations_opened),
              },
              {
                key: 'unanswered',
                label: S.conversations.seriesUnanswered,
                color: COLORS.unanswered,
                values: m.series.map((d) => d.conversations_unanswered),
              },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}

function LevelTable({
  label,
  rows,
}: {
  label: string;
  rows: (TServiceLevelRow & { key: number; name: string })[];
}) {
  const T = S.team;
  const duration = (v: number | null) => (v === null ? T.none : S.duration(v));
  return (
    <ScrollContainer>
      <table className="w-full text-sm" aria-label={label}>
        <caption className="mb-1 text-left text-sm font-medium">{label}</caption>
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th scope="col" className="py-1 pr-3 font-normal">
              {T.name}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-normal">
              {T.conversations}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-normal">
              {T.firstResponse}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-normal">
              {T.resolution}
            </th>
            <th scope="col" className="py-1 text-right font-normal">
              {T.csat}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t">
              <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                {r.name}
              </th>
              <td className="py-1.5 pr-3 text-right tabular-nums">{r.conversations.toLocaleString()}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{duration(r.first_response_seconds)}</td>
              <td className="py-1.5 pr-3 text-right tabular-nums">{duration(r.resolution_seconds)}</td>
              <td className="py-1.5 text-right tabular-nums">
                {r.csat_average === null ? T.none : T.csatValue(r.csat_average, r.csat_responses)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollContainer>
  );
}

function Team({ m }: { m: TEngageMetrics }) {
  const { members, groups } = m.team;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.team.title}</CardTitle>
        <CardDescription>{S.team.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {members.length === 0 && groups.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.team.empty}</p>
        ) : (
          <>
            <LevelTable label={S.team.members} rows={members.map((r) => ({ ...r, key: r.user_id }))} />
            <LevelTable label={S.team.groups} rows={groups.map((r) => ({ ...r, key: r.chat_group_id }))} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

const OUTCOME_KEYS = ['total', 'delivered', 'sent', 'pending', 'failed', 'not_sent'] as const;

function OutcomeTable({
  rows,
  label,
}: {
  rows: { key: string; label: string; o: TSendOutcomes }[];
  label: string;
}) {
  return (
    <ScrollContainer>
      <table className="w-full text-sm" aria-label={label}>
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th className="py-1 pr-3 font-normal" />
            {OUTCOME_KEYS.map((k) => (
              <th key={k} scope="col" className="py-1 pr-3 text-right font-normal">
                {S.sends.outcomes[k]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t" data-row={r.key}>
              <th scope="row" className="py-1 pr-3 text-left font-medium">
                {r.label}
              </th>
              {OUTCOME_KEYS.map((k) => (
                <td key={k} className="py-1 pr-3 text-right tabular-nums">
                  {r.o[k].toLocaleString()}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollContainer>
  );
}

function Sends({ m }: { m: TEngageMetrics }) {
  const total = m.sends.channels.reduce((n, c) => n + c.total, 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.sends.title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {total === 0 ? (
          <p className="text-sm text-muted-foreground">{S.sends.empty}</p>
        ) : (
          <>
            <OutcomeTable
              label={S.sends.title}
              rows={m.sends.channels.map((c) => ({
                key: c.channel,
                label: S.sends.channels[c.channel],
                o: c,
              }))}
            />
            <LineChart
              label={S.sends.chart}
              xLabels={m.series.map((d) => d.date.slice(5))}
              series={(['email', 'sms', 'whatsapp', 'titan_message'] as const).map((channel) => ({
                key: channel,
                label: S.sends.channels[channel],
                color: COLORS[channel],
                values: m.series.map((d) => d[channel]),
              }))}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function EmailEngagement({ email }: { email: TEmailMetrics | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.email.title}</CardTitle>
        <CardDescription>{S.email.hint}</CardDescription>
      </CardHeader>
      <CardContent>
        {!email || email.totals.delivered === 0 ? (
          <p className="text-sm text-muted-foreground">{S.email.empty}</p>
        ) : (
          <RateBars
            none={S.email.none}
            primaryLabel={S.email.people}
            secondaryLabel={S.email.all}
            rows={[
              {
                key: 'open',
                label: S.email.open,
                value: email.rates.open_human,
                secondary: email.rates.open,
              },
              {
                key: 'click',
                label: S.email.click,
                value: email.rates.click_human,
                secondary: email.rates.click,
              },
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}

function Agents({ m }: { m: TEngageMetrics }) {
  const { deliveries, runs } = m.agents;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.agents.title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {deliveries.total === 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-muted-foreground">{S.agents.empty}</p>
            <Button asChild size="sm" variant="outline">
              <Link to={`${AGENTS_PATH}/create`}>{S.startAgent}</Link>
            </Button>
          </div>
        ) : (
          <OutcomeTable
            label={S.agents.deliveries}
            rows={[{ key: 'agents', label: S.agents.deliveries, o: deliveries }]}
          />
        )}
        <section aria-label={S.agents.runsTitle} className="grid gap-2">
          <h3 className="text-sm font-medium">{S.agents.runsTitle}</h3>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(['total', 'completed', 'failed', 'awaiting_approval'] as const).map((k) => (
              <Figure key={k} label={S.agents.runs[k]} value={runs[k].toLocaleString()} />
            ))}
          </dl>
        </section>
      </CardContent>
    </Card>
  );
}

function NothingYet() {
  return (
    <EmptyState icon={LayoutDashboardIcon} title={S.emptyTitle} text={S.emptyText}>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button asChild size="sm">
          <Link to={EMBED_SETTINGS_PATH}>{S.startWidget}</Link>
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link to={settingsPath('whatsapp')}>{S.startChannels}</Link>
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link to={`${AGENTS_PATH}/create`}>{S.startAgent}</Link>
        </Button>
      </div>
    </EmptyState>
  );
}

export function DashboardRoute() {
  // Days are the business's days (the server buckets its series by them too): wait for its zone.
  const timeZone = useBusinessTimeZone();
  if (!timeZone) {
    return (
      <PageLayout>
        <SectionLoading />
      </PageLayout>
    );
  }
  return <Dashboard timeZone={timeZone} />;
}

function Dashboard({ timeZone }: { timeZone: string }) {
  const [rangeKey, setRangeKey] = useState<TRangeKey>('30');
  const [custom, setCustom] = useState(() => {
    const today = todayIn(timeZone);
    return { from: daysBefore(today, 29), to: today };
  });
  const customValid = customRange(custom.from, custom.to, timeZone);
  const [lastCustom, setLastCustom] = useState<TRange | null>(customValid);
  if (customValid && JSON.stringify(customValid) !== JSON.stringify(lastCustom)) setLastCustom(customValid);
  const range = useMemo(
    () =>
      rangeKey === 'custom' ? (lastCustom ?? lastDays(30, timeZone)) : lastDays(Number(rangeKey), timeZone),
    [rangeKey, lastCustom, timeZone],
  );
  const metrics = useEngageMetrics(range);
  const email = useEmailMetrics(range);
  const m = metrics.data;
  const quiet =
    m !== undefined && m.conversations.opened === 0 && m.sends.channels.every((c) => c.total === 0);
  return (
    <PageLayout>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{S.heading}</h1>
        <ToggleGroup
          type="single"
          variant="outline"
          size="sm"
          aria-label={S.rangeLabel}
          value={rangeKey}
          onValueChange={(v) => {
            if ((RANGES as readonly string[]).includes(v)) setRangeKey(v as TRangeKey);
          }}
        >
          {RANGES.map((r) => (
            <ToggleGroupItem key={r} value={r}>
              {S.ranges[r]}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
      </div>
      {rangeKey === 'custom' ? (
        <div className="flex flex-wrap items-end gap-3">
          <label className="grid gap-1 text-sm">
            {S.from}
            <Input
              type="date"
              value={custom.from}
              max={custom.to}
              onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))}
            />
          </label>
          <label className="grid gap-1 text-sm">
            {S.to}
            <Input
              type="date"
              value={custom.to}
              min={custom.from}
              onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))}
            />
          </label>
          {customValid ? null : <p className="text-sm text-destructive">{S.badRange}</p>}
        </div>
      ) : null}
      {metrics.isPending ? (
        <SectionLoading />
      ) : metrics.isError ? (
        <SectionError error={metrics.error} onRetry={() => void metrics.refetch()} fallback={S.loadFailed} />
      ) : quiet ? (
        <NothingYet />
      ) : (
        <div className="grid gap-4">
          <Conversations m={m!} />
          <Team m={m!} />
          <Sends m={m!} />
          <div className="grid gap-4 lg:grid-cols-2">
            <EmailEngagement email={email.data} />
            <Agents m={m!} />
          </div>
        </div>
      )}
    </PageLayout>
  );
}
