// Outside the group's business hours: the group's away message and when the team is back, in the
// visitor's language and time zone (issue 29).
import type { TGroupAvailability } from '@titan/contracts';
import { useT } from '../i18n';

export function ClosedNotice({ availability }: { availability: TGroupAvailability }) {
  const { t } = useT();
  return (
    <div className="away closed" role="status">
      <p className="away-title">{t('closed_title')}</p>
      {availability.away_message ? <p>{availability.away_message}</p> : null}
      <p className="muted">
        {availability.reopens_at
          ? t('closed_back_at', { at: new Date(availability.reopens_at) })
          : t('closed_back_later')}
      </p>
    </div>
  );
}
