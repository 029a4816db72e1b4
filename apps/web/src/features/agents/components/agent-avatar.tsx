// An agent's picture (a signed URL from the server), or its initials.
import { BotIcon } from 'lucide-react';

import { cn } from '../../../lib/utils';
import { AGENT_STRINGS } from '../strings';

export function AgentAvatar({
  name,
  url,
  className,
}: {
  name: string;
  url: string | null;
  className?: string;
}) {
  return url ? (
    <img
      src={url}
      alt={AGENT_STRINGS.editor.avatarAlt(name)}
      className={cn('size-10 shrink-0 rounded-full object-cover', className)}
    />
  ) : (
    <span
      aria-hidden="true"
      className={cn('flex size-10 shrink-0 items-center justify-center rounded-full bg-muted', className)}
    >
      <BotIcon className="size-5 text-muted-foreground" />
    </span>
  );
}
