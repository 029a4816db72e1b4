// A visitor's consent on each channel as three small badges ("Email: Subscribed"), coloured by
// whether the channel may be used: subscribed (solid), unknown (muted), refused (red outline).
import type { TDirectoryVisitor } from '@titan/contracts';

import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { DIRECTORY_STRINGS as S } from '../strings';
import { CONSENT_CHANNELS_SHOWN, consentText } from '../utils/consent';

export function ConsentBadges({
  visitor,
  className,
}: {
  visitor: Pick<TDirectoryVisitor, 'email_status' | 'sms_status' | 'whatsapp_status'>;
  className?: string;
}) {
  return (
    <ul aria-label={S.consentLabel} className={cn('flex flex-wrap gap-1', className)}>
      {CONSENT_CHANNELS_SHOWN.map((channel) => {
        const status = visitor[`${channel}_status`];
        return (
          <li key={channel}>
            <Badge
              variant={status === 'subscribed' ? 'default' : status === 'unknown' ? 'secondary' : 'outline'}
              className={cn(
                status !== 'subscribed' && status !== 'unknown' && 'border-destructive/60 text-destructive',
              )}
            >
              {consentText(channel, status)}
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}
