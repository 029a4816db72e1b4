// Delivery status of an outgoing WhatsApp message (spec section 2): accepted, sent, delivered, read,
// failed, each with its own mark and an accessible name.
import type { TMessage } from '@titan/contracts';
import { CheckCheckIcon, CheckIcon, CircleAlertIcon, ClockIcon } from 'lucide-react';

import { cn } from '../../../lib/utils';
import { DELIVERY_STATUS_LABELS } from '../strings';

const ICONS = {
  accepted: ClockIcon,
  sent: CheckIcon,
  delivered: CheckCheckIcon,
  read: CheckCheckIcon,
  failed: CircleAlertIcon,
} as const;

export function StatusTicks({ status }: { status: NonNullable<TMessage['status']> }) {
  const Icon = ICONS[status];
  return (
    <span
      role="img"
      aria-label={DELIVERY_STATUS_LABELS[status]}
      title={DELIVERY_STATUS_LABELS[status]}
      data-status={status}
      className={cn(
        'inline-flex',
        status === 'read' && 'text-sky-500',
        status === 'failed' && 'text-destructive',
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
    </span>
  );
}
