// An agent's own actions on its screen: activate or pause, run now, its run log, delete. Actions that
// act on the saved agent wait while changes are unsaved.
import type { TAgent } from '@titan/contracts';
import { ListChecksIcon, PauseIcon, PlayIcon, TrashIcon, ZapIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { Button } from '../../../components/ui/button';
import { AGENTS_PATH, agentRunsPath } from '../../../config/paths';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useDeleteAgent } from '../api/delete-agent';
import { useUpdateAgent } from '../api/update-agent';
import { useRunAgentNow } from '../api/run-agent-now';
import { AGENT_STRINGS } from '../strings';
import { AgentStatusBadge } from './agent-status';

const E = AGENT_STRINGS.editor;

const showError = (error: unknown) => {
  if (!isHandledApiError(error)) toast.error(apiErrorMessage(error));
};

export function AgentActions({
  agent,
  canWrite,
  dirty,
}: {
  agent: TAgent;
  canWrite: boolean;
  dirty: boolean;
}) {
  const update = useUpdateAgent();
  const runNow = useRunAgentNow();
  const remove = useDeleteAgent();
  const navigate = useNavigate();
  const busy = update.isPending || runNow.isPending || remove.isPending;
  const active = agent.status === 'active';

  const setStatus = (status: 'active' | 'paused') =>
    update.mutate(
      { id: agent.id, status },
      { onSuccess: () => toast.success(status === 'active' ? E.activated : E.paused), onError: showError },
    );

  return (
    <div className="flex flex-wrap items-center gap-2">
      <AgentStatusBadge status={agent.status} />
      {agent.status_reason ? (
        <span role="status" className="text-sm text-amber-700 dark:text-amber-300">
          {agent.status_reason}
        </span>
      ) : null}
      {agent.config ? (
        <span className="text-xs text-muted-foreground">{E.version(agent.config.version)}</span>
      ) : (
        <span className="text-xs text-muted-foreground">{E.noConfigYet}</span>
      )}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {dirty && canWrite ? <span className="text-xs text-muted-foreground">{E.saveFirst}</span> : null}
        <Button asChild variant="outline" size="sm">
          <Link to={agentRunsPath(agent.id)}>
            <ListChecksIcon aria-hidden="true" />
            {E.runLog}
          </Link>
        </Button>
        {canWrite ? (
          <>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={busy || dirty || !agent.config}
              onClick={() =>
                runNow.mutate(
                  { agentId: agent.id },
                  {
                    onSuccess: (result) => toast.success(E.runStarted(result.runs.length)),
                    onError: showError,
                  },
                )
              }
            >
              <ZapIcon aria-hidden="true" />
              {E.runNow}
            </Button>
            {active ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={busy}
                onClick={() => setStatus('paused')}
              >
                <PauseIcon aria-hidden="true" />
                {E.pause}
              </Button>
            ) : (
              <Button
                type="button"
                size="sm"
                disabled={busy || dirty || !agent.config}
                onClick={() => setStatus('active')}
              >
                <PlayIcon aria-hidden="true" />
                {E.activate}
              </Button>
            )}
            <ConfirmAction
              variant="outline"
              trigger={
                <>
                  <TrashIcon aria-hidden="true" />
                  {E.delete}
                </>
              }
              title={E.deleteTitle(agent.name)}
              description={E.deleteText}
              confirmLabel={E.delete}
              disabled={busy}
              onConfirm={() =>
                remove.mutate(agent.id, {
                  onSuccess: () => {
                    toast.success(E.deleted(agent.name));
                    void navigate(AGENTS_PATH, { replace: true });
                  },
                  onError: showError,
                })
              }
            />
          </>
        ) : null}
      </div>
    </div>
  );
}
