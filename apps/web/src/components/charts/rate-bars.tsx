// Rates as horizontal bars: each row a label, a bar for the main figure and, when given, a lighter
// bar behind it for a second one (e.g. people only in front of everything), with the percentages
// written out.
export type TRateRow = { key: string; label: string; value: number | null; secondary?: number | null };

const percent = (v: number) => `${(v * 100).toFixed(v > 0 && v < 0.1 ? 1 : 0)}%`;

export function RateBars({
  rows,
  none,
  primaryLabel,
  secondaryLabel,
}: {
  rows: TRateRow[];
  none: string;
  primaryLabel: string;
  secondaryLabel?: string;
}) {
  return (
    <dl className="grid gap-3">
      {rows.map((row) => (
        <div key={row.key} className="grid gap-1" data-rate={row.key}>
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <dt>{row.label}</dt>
            <dd className="tabular-nums">
              {row.value === null ? none : percent(row.value)}
              {row.secondary !== undefined && secondaryLabel ? (
                <span className="ml-2 text-xs text-muted-foreground">
                  {secondaryLabel} {row.secondary === null ? none : percent(row.secondary)}
                </span>
              ) : null}
            </dd>
          </div>
          <div
            aria-hidden="true"
            className="relative h-2 overflow-hidden rounded-full bg-muted"
            title={primaryLabel}
          >
            {row.secondary !== undefined && row.secondary !== null ? (
              <div
                className="absolute inset-y-0 left-0 rounded-full bg-primary/30"
                style={{ width: percent(row.secondary) }}
              />
            ) : null}
            {row.value !== null ? (
              <div
                className="absolute inset-y-0 left-0 rounded-full bg-primary"
                style={{ width: percent(row.value) }}
              />
            ) : null}
          </div>
        </div>
      ))}
    </dl>
  );
}
