// A small dependency-free line chart: one SVG, a line per series over evenly spaced points, a y axis
// from zero to a rounded maximum, and a legend. The numbers behind it are also in a table that
// screen readers read (the picture itself is `role="img"` with a label).
import { useEffect, useId, useRef, useState } from 'react';

import { cn } from '../../lib/utils';

export type TLineSeries = { key: string; label: string; color: string; values: number[] };

/** The drawing's width before it is measured; then one unit of the SVG is one CSS pixel, so the
 * axis labels keep their 12 px on a phone instead of shrinking with the picture. */
const DEFAULT_W = 640;
const H = 200;
const PAD = { top: 8, right: 12, bottom: 24, left: 40 };
/** Room one day label needs under the axis. */
const LABEL_SPACE = 64;

/** 1, 2, 5 × 10ⁿ at or above `value`. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * step >= value) ?? 10) * step;
}

export function LineChart({
  label,
  xLabels,
  series,
  className,
}: {
  label: string;
  xLabels: string[];
  series: TLineSeries[];
  className?: string;
}) {
  const id = useId();
  const figure = useRef<HTMLElement>(null);
  const [W, setW] = useState(DEFAULT_W);
  useEffect(() => {
    const el = figure.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const width = Math.round(el.getBoundingClientRect().width);
      if (width > 0) setW(width);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const n = xLabels.length;
  const x = (i: number) =>
    PAD.left + (n <= 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const ticks = [0, max / 2, max];
  // As many day labels under the axis as fit (at most 8).
  const fit = Math.max(2, Math.min(8, Math.floor((W - PAD.left - PAD.right) / LABEL_SPACE)));
  const every = Math.max(1, Math.ceil(n / fit));
  return (
    <figure ref={figure} className={cn('relative grid min-w-0 gap-2', className)}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`} className="h-auto w-full">
        <title id={`${id}-title`}>{label}</title>
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(t)}
              y2={y(t)}
              className="stroke-border"
              strokeWidth={1}
            />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="fill-muted-foreground text-xs">
              {Number.isInteger(t) ? t.toLocaleString() : t.toFixed(1)}
            </text>
          </g>
        ))}
        {xLabels.map((l, i) =>
          i % every === 0 ? (
            <text key={l} x={x(i)} y={H - 6} textAnchor="middle" className="fill-muted-foreground text-xs">
              {l}
            </text>
          ) : null,
        )}
        {series.map((s) => (
          <g key={s.key} data-series={s.key}>
            <polyline
              fill="none"
              stroke={s.color}
              strokeWidth={2}
              strokeLinejoin="round"
              points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
            />
            {n <= 31
              ? s.values.map((v, i) => <circle key={i} cx={x(i)} cy={y(v)} r={2.5} fill={s.color} />)
              : null}
          </g>
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        {series.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className="inline-block size-2.5 rounded-full"
              style={{ background: s.color }}
            />
            {s.label}
          </span>
        ))}
      </figcaption>
      {/* A clipping wrapper: a table never gets narrower than its content, even when visually hidden. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col" />
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {xLabels.map((l, i) => (
              <tr key={l}>
                <th scope="row">{l}</th>
                {series.map((s) => (
                  <td key={s.key}>{s.values[i] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
