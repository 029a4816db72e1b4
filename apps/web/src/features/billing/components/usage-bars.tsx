// Usage against the plan's allowance per channel: one labelled bar each (a progressbar for screen
// readers), amber past 80 %, red when used up.
import type { TBillingUsage } from '@titan/contracts';

import { cn } from '../../../lib/utils';
import { BILLING_STRINGS as S } from '../strings';

export function UsageBars({ usage }: { usage: TBillingUsage[] }) {
  return (
    <ul className="grid gap-4">
      {usage.map((u) => {
        const allowance = u.quota === null ? null : u.quota + u.extra;
        const ratio = allowance === null ? 0 : allowance === 0 ? 1 : Math.min(1, u.reserved / allowance);
        return (
          <li key={u.channel} className="grid gap-1" data-channel={u.channel}>
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="font-medium">{S.channels[u.channel]}</span>
              <span className="tabular-nums text-muted-foreground">
                {allowance === null ? S.unlimited(u.reserved) : S.usage(u.reserved, allowance)}
                {u.extra > 0 ? ` (${S.includesTopUp(u.extra)})` : ''}
              </span>
            </div>
            {allowance === null ? null : (
              <div
                role="progressbar"
                aria-label={S.channels[u.channel]}
                aria-valuemin={0}
                aria-valuemax={allowance}
                aria-valuenow={u.reserved}
                className="h-2 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className={cn(
                    'h-full rounded-full',
                    ratio >= 1 ? 'bg-destructive' : ratio >= 0.8 ? 'bg-amber-500' : 'bg-primary',
                  )}
                  style={{ width: `${Math.round(ratio * 100)}%` }}
                />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
