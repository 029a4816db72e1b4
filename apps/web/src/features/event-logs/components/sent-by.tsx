// Who sent a send: the member, or the AI agent whose run sent it (linked to that run); "—" else.
import type { TEventLog, TEventLogChannel } from '@titan/contracts';
import { BotIcon } from 'lucide-react';
import { Link } from 'react-router';

import { agentRunPath } from '../../../config/paths';
import { EVENT_LOGS_STRINGS } from '../strings';

export function SentBy({ log, channel }: { log: TEventLog; channel: TEventLogChannel }) {
  if (log.agent)
    return (
      <Link
        to={agentRunPath(log.agent.id, channel, log.agent.run_id)}
        className="inline-flex items-center gap-1 hover:underline"
      >
        <BotIcon aria-hidden="true" className="size-3.5 shrink-0" />
        {EVENT_LOGS_STRINGS.logs.agentSender(log.agent.name)}
      </Link>
    );
  return <>{log.sent_by?.name ?? EVENT_LOGS_STRINGS.logs.none}</>;
}
