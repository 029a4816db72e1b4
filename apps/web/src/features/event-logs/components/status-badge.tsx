// A send's delivery status as a coloured badge; a status without a label here shows as written.
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { EVENT_LOGS_STRINGS } from '../strings';
import { isLogStatus, type TLogStatus } from '../utils/log-filters';

const LOG_TONES: Record<TLogStatus, TStatusTone> = {
  queued: 'waiting',
  sending: 'waiting',
  accepted: 'neutral',
  sent: 'neutral',
  delivered: 'good',
  read: 'good',
  opened: 'good',
  clicked: 'good',
  failed: 'bad',
  error: 'bad',
  bounced: 'bad',
  complained: 'bad',
  suppressed: 'waiting',
  cancelled: 'neutral',
};

export function LogStatusBadge({ status }: { status: string }) {
  return isLogStatus(status) ? (
    <StatusBadge tone={LOG_TONES[status]}>{EVENT_LOGS_STRINGS.statusLabels[status]}</StatusBadge>
  ) : (
    <StatusBadge tone="neutral">{status}</StatusBadge>
  );
}
