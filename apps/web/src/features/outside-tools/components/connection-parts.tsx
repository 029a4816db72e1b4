// What MCP servers and plugin connections show alike: their status, the last error in words, their tools.
import type { TConnectionStatus, TExternalToolInfo } from '@titan/contracts';

import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/utils';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

export function StatusBadge({ status }: { status: TConnectionStatus }) {
  return (
    <Badge
      data-testid="connection-status"
      variant={status === 'connected' ? 'default' : 'outline'}
      className={cn(status === 'expired' || status === 'error' ? 'border-destructive text-destructive' : '')}
    >
      {S.status[status]}
    </Badge>
  );
}

export function LastError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="note" data-testid="connection-error" className="text-sm text-destructive">
      {message}
    </p>
  );
}

export function ToolList({
  tools,
  label,
}: {
  tools: TExternalToolInfo[] | { name: string; description: string }[];
  label: string;
}) {
  if (tools.length === 0) return <p className="text-sm text-muted-foreground">{S.noTools}</p>;
  return (
    <div className="grid gap-1">
      <p className="text-xs font-medium text-muted-foreground">{S.tools(tools.length)}</p>
      <ul aria-label={label} className="grid gap-1">
        {tools.map((t) => (
          <li key={t.name} className="text-sm">
            <code className="font-mono text-xs">{t.name}</code>
            {t.description ? <span className="text-muted-foreground"> — {t.description}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
