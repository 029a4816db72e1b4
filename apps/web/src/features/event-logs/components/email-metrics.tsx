// The email logs' charts: what happened to the business's email over the filtered days (the last
// 30 without a range) — totals with the part made by people, rates for people and for all hits, and
// a line per measure per day.
import type { TEmailMetrics } from '@titan/contracts';

import { LineChart } from '../../../components/charts/line-chart';
import { RateBars } from '../../../components/charts/rate-bars';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDate } from '../../../lib/format';
import { useEmailMetrics, type TEmailMetricsRange } from '../api/get-email-metrics';
import { EVENT_LOGS_STRINGS } from '../strings';

const S = EVENT_LOGS_STRINGS.metrics;

const SERIES_COLORS = {
  sent: 'var(--color-slate-500, #64748b)',
  delivered: 'var(--color-sky-500, #0ea5e9)',
  opened: 'var(--color-emerald-500, #10b981)',
  clicked: 'var(--color-violet-500, #8b5cf6)',
  bounced: 'var(--color-red-500, #ef4444)',
} as const;

function Totals({ totals }: { totals: TEmailMetrics['totals'] }) {
  const items: { key: keyof typeof S.totals; value: number; human?: number }[] = [
    { key: 'sent', value: totals.sent },
    { key: 'delivered', value: totals.delivered },
    { key: 'opened', value: totals.opened, human: totals.opened_human },
    { key: 'clicked', value: totals.clicked, human: totals.clicked_human },
    { key: 'bounced', value: totals.bounced },
    { key: 'complained', value: totals.complained },
    { key: 'unsubscribed', value: totals.unsubscribed },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
      {items.map((item) => (
        <div key={item.key} className="grid gap-0.5 rounded-md border p-3" data-total={item.key}>
          <dt className="text-xs text-muted-foreground">{S.totals[item.key]}</dt>
          <dd className="text-xl font-semibold tabular-nums">{item.value.toLocaleString()}</dd>
          {item.human !== undefined ? (
            <dd className="text-xs text-muted-foreground">{S.humanOf(item.human)}</dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

export function EmailMetricsView({ metrics }: { metrics: TEmailMetrics }) {
  const { rates, series } = metrics;
  const days = series.map((d) => d.date.slice(5));
  return (
    <section aria-label={S.title} className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>
            {S.range(formatDate(metrics.created_at__gte), formatDate(metrics.created_at__lte))}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Totals totals={metrics.totals} />
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-[minmax(16rem,1fr)_2fr]">
        <Card>
          <CardHeader>
            <CardTitle>{S.ratesTitle}</CardTitle>
            <CardDescription>{S.ratesHint}</CardDescription>
          </CardHeader>
          <CardContent>
            <RateBars
              none={S.noRate}
              primaryLabel={S.people}
              secondaryLabel={S.all}
              rows={[
                { key: 'open', label: S.rates.open, value: rates.open_human, secondary: rates.open },
                { key: 'click', label: S.rates.click, value: rates.click_human, secondary: rates.click },
                {
                  key: 'click_to_open',
                  label: S.rates.click_to_open,
                  value: rates.click_to_open_human,
                  secondary: rates.click_to_open,
                },
                { key: 'delivery', label: S.rates.delivery, value: rates.delivery },
                { key: 'bounce', label: S.rates.bounce, value: rates.bounce },
                { key: 'unsubscribe', label: S.rates.unsubscribe, value: rates.unsubscribe },
              ]}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{S.seriesTitle}</CardTitle>
          </CardHeader>
          <CardContent>
            <LineChart
              label={S.seriesLabel}
              xLabels={days}
              series={(Object.keys(SERIES_COLORS) as (keyof typeof SERIES_COLORS)[]).map((key) => ({
                key,
                label: S.series[key],
                color: SERIES_COLORS[key],
                values: series.map((d) => d[key]),
              }))}
            />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

export function EmailMetrics({ range }: { range: TEmailMetricsRange }) {
  const metrics = useEmailMetrics(range);
  if (metrics.isPending) return <SectionLoading />;
  if (metrics.isError)
    return (
      <SectionError error={metrics.error} onRetry={() => void metrics.refetch()} fallback={S.loadFailed} />
    );
  return <EmailMetricsView metrics={metrics.data} />;
}
