// A template's review status (APPROVED, PENDING, REJECTED, PAUSED, DISABLED) as a coloured badge.
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';

function templateTone(status: string): TStatusTone {
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
  return <StatusBadge tone={templateTone(status)}>{status}</StatusBadge>;
}
