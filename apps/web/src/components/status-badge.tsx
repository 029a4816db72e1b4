// A status as a coloured outline badge: the tone says whether it is good, waiting, bad or neither.
// Features map their own statuses (delivery, template review…) to a tone.
import type { ReactNode } from 'react';

import { cn } from '../lib/utils';
import { Badge } from './ui/badge';

const TONES = {
  good: 'border-transparent bg-emerald-500/15 text-emerald-800 dark:text-emerald-200',
  waiting: 'border-transparent bg-amber-500/15 text-amber-800 dark:text-amber-200',
  bad: 'border-transparent bg-destructive/15 text-destructive',
  neutral: '',
} as const;

export type TStatusTone = keyof typeof TONES;

export function StatusBadge({ tone, children }: { tone: TStatusTone; children: ReactNode }) {
  return (
    <Badge variant="outline" className={cn(TONES[tone])}>
      {children}
    </Badge>
  );
}
