// A campaign's status as a badge: sending and scheduled wait, sent is good, cancelled is bad.
import type { TCampaignStatus } from '@titan/contracts';

import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { CAMPAIGNS_STRINGS as S } from '../strings';

const TONE: Record<TCampaignStatus, TStatusTone> = {
  draft: 'neutral',
  scheduled: 'waiting',
  sending: 'waiting',
  paused: 'waiting',
  sent: 'good',
  cancelled: 'bad',
};

export function CampaignStatus({ status }: { status: TCampaignStatus }) {
  return <StatusBadge tone={TONE[status]}>{S.statuses[status]}</StatusBadge>;
}
