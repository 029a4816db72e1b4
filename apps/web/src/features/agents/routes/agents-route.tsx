// /engage/agent: the business's agents with their status, next run and last run's outcome; with none
// yet, the agents suggested from what the business has. engage.write creates and changes them.
import type { TAgent } from '@titan/contracts';
import { BotIcon, PlusIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { agentPath, agentRunPath, agentRunsPath, NEW_AGENT_PATH } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { usePermissions } from '../../../lib/business/roles';
import { useAgents } from '../api/get-agents';
import { AgentAvatar } from '../components/agent-avatar';
import { AgentStatusBadge, RunStatusBadge } from '../components/agent-status';
import { SuggestedAgents } from '../components/suggested-agents';
import { AGENT_STRINGS } from '../strings';
import { formatInZone, scheduleInWords } from '../utils/schedule';
import { PageLayout } from '../../../components/layout/page-layout';

const L = AGENT_STRINGS.list;

function NextRun({ agent }: { agent: TAgent }) {
  const schedule = agent.schedule;
  if (!schedule) return <span className="text-muted-foreground">{L.noSchedule}</span>;
  return (
    <div className="grid gap-0.5">
      {agent.status === 'active' && schedule.next_run_at ? (
        <time dateTime={schedule.next_run_at}>{formatInZone(schedule.next_run_at, schedule.timezone)}</time>
      ) : (
        <span className="text-muted-foreground">
          {agent.status === 'active' ? L.noSchedule : L.notScheduledWhilePaused}
        </span>
      )}
      <span className="text-xs text-muted-foreground">{scheduleInWords(schedule)}</span>
    </div>
  );
}

function AgentsTable({ agents }: { agents: TAgent[] }) {
  return (
    <Table aria-label={L.tableLabel}>
      <TableHeader>
        <TableRow>
          <TableHead>{L.columns.name}</TableHead>
          <TableHead>{L.columns.status}</TableHead>
          <TableHead>{L.columns.nextRun}</TableHead>
          <TableHead>{L.columns.lastRun}</TableHead>
          <TableHead className="sr-only">{L.columns.actions}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {agents.map((agent) => (
          <TableRow key={agent.id}>
            <TableCell>
              <div className="flex items-center gap-3">
                <AgentAvatar name={agent.name} url={agent.avatar_url} className="size-8" />
                <div className="grid gap-0.5">
                  <Link
                    to={agentPath(agent.id)}
                    className="font-medium hover:underline"
                    aria-label={L.open(agent.name)}
                  >
                    {agent.name}
                  </Link>
                  {agent.description ? (
                    <span className="line-clamp-1 text-xs text-muted-foreground">{agent.description}</span>
                  ) : null}
                </div>
              </div>
            </TableCell>
            <TableCell>
              <div className="grid gap-0.5">
                <AgentStatusBadge status={agent.status} />
                {agent.status_reason ? (
                  <span className="line-clamp-2 max-w-xs text-xs text-muted-foreground">
                    {agent.status_reason}
                  </span>
                ) : null}
              </div>
            </TableCell>
            <TableCell>
              <NextRun agent={agent} />
            </TableCell>
            <TableCell>
              {agent.last_run ? (
                <div className="grid gap-0.5">
                  <Link
                    to={agentRunPath(agent.id, agent.last_run.channel, agent.last_run.id)}
                    className="w-fit"
                  >
                    <span className="sr-only">{L.lastRunOf(agent.name)}: </span>
                    <RunStatusBadge status={agent.last_run.status} />
                  </Link>
                  <time dateTime={agent.last_run.started_at} className="text-xs text-muted-foreground">
                    {formatDateTime(agent.last_run.started_at)}
                  </time>
                  {agent.last_run.error ? (
                    <span className="line-clamp-2 text-xs text-destructive">{agent.last_run.error}</span>
                  ) : null}
                </div>
              ) : (
                <span className="text-muted-foreground">{L.neverRan}</span>
              )}
            </TableCell>
            <TableCell className="text-right">
              <Button asChild variant="ghost" size="sm">
                <Link to={agentRunsPath(agent.id)} aria-label={L.runLogOf(agent.name)}>
                  {L.runLog}
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function AgentsRoute() {
  const agents = useAgents();
  const { can, ready } = usePermissions();
  const canWrite = ready && can('engage.write');

  const content = () => {
    if (agents.isPending) return <SectionLoading />;
    if (agents.isError)
      return (
        <SectionError error={agents.error} onRetry={() => void agents.refetch()} fallback={L.loadFailed} />
      );
    if (agents.data.length === 0)
      return (
        <div className="grid gap-6">
          <EmptyState icon={BotIcon} title={L.emptyTitle} text={L.emptyText} />
          <SuggestedAgents canWrite={canWrite} />
        </div>
      );
    return <AgentsTable agents={agents.data} />;
  };

  return (
    <PageLayout>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{L.title}</h1>
          <p className="max-w-prose text-sm text-muted-foreground">{L.description}</p>
        </div>
        {canWrite ? (
          <Button asChild>
            <Link to={NEW_AGENT_PATH}>
              <PlusIcon aria-hidden="true" />
              {L.create}
            </Link>
          </Button>
        ) : null}
      </div>
      {ready && !canWrite ? <p className="text-sm text-muted-foreground">{L.readOnly}</p> : null}
      {content()}
    </PageLayout>
  );
}
