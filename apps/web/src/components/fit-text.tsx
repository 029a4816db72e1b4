// A title that must fit its place (spec section 9's text-fit helper): up to `lines` lines, the font
// stepping down from 16 to 12 px, and clamped with an ellipsis when even 12 px is not enough.
import type { CSSProperties } from 'react';

import { TEXT_FIT_DEFAULT_LINES } from '../config/ui';
import { useTextFit, type TTextFitOptions } from '../lib/text-fit';
import { cn } from '../lib/utils';

const CLAMP: Record<number, string> = { 1: 'line-clamp-1', 2: 'line-clamp-2', 3: 'line-clamp-3' };

export function FitText({
  text,
  as: Tag = 'p',
  className,
  lines = TEXT_FIT_DEFAULT_LINES,
  ...options
}: TTextFitOptions & { text: string; as?: 'p' | 'span' | 'h2' | 'h3'; className?: string }) {
  const { ref, fontPx, lineHeight } = useTextFit<HTMLElement>(text, { ...options, lines });
  const style: CSSProperties = { fontSize: `${fontPx}px`, lineHeight };
  return (
    <Tag
      ref={ref as never}
      data-font-px={fontPx}
      style={style}
      className={cn('break-words', CLAMP[lines] ?? 'line-clamp-2', className)}
    >
      {text}
    </Tag>
  );
}
