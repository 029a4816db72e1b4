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
        <div
          key={row.key}
          className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-2 gap-y-1 text-sm"
          data-rate={row.key}
        >
          <dt>{row.label}</dt>
          {/* The value and its bar are one dd (a dl's groups hold only dt and dd). */}
          <dd className="contents">
            <span className="text-right tabular-nums">
              {row.value === null ? none : percent(row.value)}
              {row.secondary !== undefined && secondaryLabel ? (
                <span className="ml-2 text-xs text-muted-foreground">
                  {secondaryLabel} {row.secondary === null ? none : percent(row.secondary)}
                </span>
              ) : null}
            </span>
            <span
              aria-hidden="true"
              className="relative col-span-2 block h-2 overflow-hidden rounded-full bg-muted"
              title={primaryLabel}
            >
              {row.secondary !== undefined && row.secondary !== null ? (
                <span
                  className="absolute inset-y-0 left-0 rounded-full bg-primary/30"
                  style={{ width: percent(row.secondary) }}
                />
              ) : null}
              {row.value !== null ? (
                <span
                  className="absolute inset-y-0 left-0 rounded-full bg-primary"
                  style={{ width: percent(row.value) }}
                />
              ) : null}
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
