// A conversation's SLA in the list and the header (issue 29): the time left to the nearest pending
// target ("Reply in 12 min", "Resolve in 3 h"), amber in its last fifth, and "SLA missed" once a
// target was missed. Nothing for a conversation whose group sets no target. Re-rendered every minute.
import type { TConversation } from '@titan/contracts';
import { useEffect, useState } from 'react';

import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.sla;

/** Minutes as people read a countdown: "45 min", "3 h", "2 d". */
export function shortDuration(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** What the badge says at `now` (null: nothing to show). */
export function slaState(
  sla: TConversation['sla'],
  now: number,
): { text: string; tone: 'breached' | 'soon' | 'ok' } | null {
  const pending = [
    sla.first_response_due_at ? { kind: 'reply' as const, at: Date.parse(sla.first_response_due_at) } : null,
    sla.resolution_due_at ? { kind: 'resolve' as const, at: Date.parse(sla.resolution_due_at) } : null,
  ].filter((p): p is { kind: 'reply' | 'resolve'; at: number } => p !== null);
  if (sla.breached || pending.some((p) => p.at <= now)) return { text: S.breached, tone: 'breached' };
  const next = pending.sort((a, b) => a.at - b.at)[0];
  if (!next) return null;
  const left = next.at - now;
  return {
    text: next.kind === 'reply' ? S.replyIn(shortDuration(left)) : S.resolveIn(shortDuration(left)),
    tone: left < 15 * 60_000 ? 'soon' : 'ok',
  };
}

function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function SlaBadge({ sla }: { sla: TConversation['sla'] }) {
  const now = useMinuteClock();
  const state = slaState(sla, now);
  if (!state) return null;
  return (
    <Badge
      variant="outline"
      data-testid="sla-badge"
      className={cn(
        state.tone === 'breached' && 'border-red-600/50 text-red-700 dark:text-red-300',
        state.tone === 'soon' && 'border-amber-600/50 text-amber-800 dark:text-amber-300',
      )}
    >
      {state.text}
    </Badge>
  );
}
