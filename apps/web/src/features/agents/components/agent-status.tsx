// An agent's status and a run's, as badges toned by what they mean for the business.
import type { TAgentRunStatus, TAgentStatus } from '@titan/contracts';

import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { AGENT_STRINGS } from '../strings';

const AGENT_TONES: Record<TAgentStatus, TStatusTone> = {
  draft: 'neutral',
  active: 'good',
  paused: 'waiting',
  archived: 'neutral',
};

const RUN_TONES: Record<TAgentRunStatus, TStatusTone> = {
  running: 'waiting',
  awaiting_approval: 'waiting',
  completed: 'good',
  failed: 'bad',
};

export function AgentStatusBadge({ status }: { status: TAgentStatus }) {
  return <StatusBadge tone={AGENT_TONES[status]}>{AGENT_STRINGS.status[status]}</StatusBadge>;
}

export function RunStatusBadge({ status }: { status: string }) {
  const known = status in RUN_TONES ? (status as TAgentRunStatus) : null;
  return (
    <StatusBadge tone={known ? RUN_TONES[known] : 'neutral'}>
      {known ? AGENT_STRINGS.runStatus[known] : status}
    </StatusBadge>
  );
}
