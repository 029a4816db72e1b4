// Previous / next under a paged list, with where the shown rows sit in the total.
import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';

import { PAGER_STRINGS as S } from '../lib/strings';
import { Button } from './ui/button';

export function Pager({
  page,
  pageSize,
  count,
  countCapped = false,
  hasNext,
  shown,
  onPage,
}: {
  page: number;
  pageSize: number;
  count: number;
  /** `count` is a cap: there are more (shown as "1000+", paged on by `hasNext`). */
  countCapped?: boolean;
  /** Whether a page follows (else: from `count`). */
  hasNext?: boolean;
  shown: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  const from = (page - 1) * pageSize + 1;
  const last = !(hasNext ?? page < pages);
  return (
    <nav aria-label={S.pagination} className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-muted-foreground">
        {countCapped ? S.rangeOfMore(from, from + shown - 1, count) : S.range(from, from + shown - 1, count)}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeftIcon aria-hidden="true" />
          {S.previous}
        </Button>
        <span className="tabular-nums">{countCapped ? S.page(page) : S.pageOf(page, pages)}</span>
        <Button variant="outline" size="sm" disabled={last} onClick={() => onPage(page + 1)}>
          {S.next}
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
