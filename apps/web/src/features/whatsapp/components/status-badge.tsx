// A status as a coloured badge: WhatsApp delivery statuses of a log entry, and template review
// statuses (APPROVED, PENDING, REJECTED, PAUSED, DISABLED).
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { WHATSAPP_STRINGS } from '../strings';
import type { TLogStatus } from '../utils/log-filters';

const TONES = {
  good: 'border-transparent bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  waiting: 'border-transparent bg-amber-500/15 text-amber-700 dark:text-amber-300',
  bad: 'border-transparent bg-destructive/15 text-destructive',
  neutral: '',
} as const;

const LOG_TONES: Record<TLogStatus, keyof typeof TONES> = {
  queued: 'waiting',
  sending: 'waiting',
  accepted: 'neutral',
  sent: 'neutral',
  delivered: 'good',
  read: 'good',
  failed: 'bad',
  error: 'bad',
};

export function LogStatusBadge({ status }: { status: TLogStatus }) {
  return (
    <Badge variant="outline" className={cn(TONES[LOG_TONES[status]])}>
      {WHATSAPP_STRINGS.statusLabels[status]}
    </Badge>
  );
}

function templateTone(status: string): keyof typeof TONES {
  switch (status.toUpperCase()) {
    case 'APPROVED':
      return 'good';
    case 'PENDING':
    case 'PAUSED':
      return 'waiting';
    case 'REJECTED':
    case 'DISABLED':
      return 'bad';
    default:
      return 'neutral';
  }
}

export function TemplateStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="outline" className={cn(TONES[templateTone(status)])}>
      {status}
    </Badge>
  );
}
