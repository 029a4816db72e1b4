// /engage/event-logs/agents/{agentId}: an agent's runs, a tab per channel it uses (?channel=), each
// run with why it ran, its status and its counts; a run opens its page.
import { AGENT_CHANNELS, type TAgent, type TAgentChannel } from '@titan/contracts';
import { ArrowLeftIcon, FileQuestionIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { tabClass } from '../../../components/ui/tab-nav';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { agentPath, agentRunPath } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format';
import { useAgent } from '../api/get-agent';
import { RUNS_PAGE_SIZE, useAgentRuns, type TRunKind } from '../api/get-agent-runs';
import { RunStatusBadge } from '../components/agent-status';
import { AGENT_STRINGS } from '../strings';
import { idFrom } from '../utils/ids';
import { PageLayout } from '../../../components/layout/page-layout';

const G = AGENT_STRINGS.logs;
const C = G.columns;

export function RunLogPage({
  agentId,
  title,
  back,
  children,
}: {
  agentId: number;
  title: string;
  back?: { to: string; label: string };
  children: ReactNode;
}) {
  const link = back ?? { to: agentPath(agentId), label: G.back };
  return (
    <PageLayout>
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to={link.to}>
            <ArrowLeftIcon aria-hidden="true" />
            {link.label}
          </Link>
        </Button>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
      {children}
    </PageLayout>
  );
}

function channelsOf(agent: TAgent): TAgentChannel[] {
  const configured = agent.config?.channels.map((c) => c.channel) ?? [];
  return configured.length > 0 ? AGENT_CHANNELS.filter((c) => configured.includes(c)) : ['email'];
}

function RunsTable({ agent, channel, kind }: { agent: TAgent; channel: TAgentChannel; kind: TRunKind }) {
  const [page, setPage] = useState(1);
  const runs = useAgentRuns(agent.id, channel, page, kind);
  if (runs.isPending) return <SectionLoading />;
  if (runs.isError)
    return <SectionError error={runs.error} onRetry={() => void runs.refetch()} fallback={G.loadFailed} />;
  if (runs.data.count === 0)
    return (
      <p className="p-4 text-sm text-muted-foreground">{kind === 'preview' ? G.noPreviews : G.noRuns}</p>
    );
  return (
    <div className="grid gap-3">
      <Table aria-label={G.tableLabel(AGENT_STRINGS.channels[channel])}>
        <TableHeader>
          <TableRow>
            <TableHead>{C.started}</TableHead>
            <TableHead>{C.trigger}</TableHead>
            <TableHead>{C.status}</TableHead>
            <TableHead className="text-right">{C.considered}</TableHead>
            <TableHead className="text-right">{C.sent}</TableHead>
            <TableHead className="text-right">{C.waiting}</TableHead>
            <TableHead className="text-right">{C.stopped}</TableHead>
            <TableHead className="text-right">{C.skipped}</TableHead>
            <TableHead className="text-right">{C.failed}</TableHead>
            <TableHead className="text-right">{C.version}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {runs.data.results.map((run) => {
            const when = formatDateTime(run.started_at);
            return (
              <TableRow key={run.id}>
                <TableCell>
                  <Link
                    className="font-medium hover:underline"
                    to={agentRunPath(agent.id, channel, run.id)}
                    aria-label={G.openRun(when)}
                  >
                    {when}
                  </Link>
                </TableCell>
                <TableCell>{AGENT_STRINGS.trigger[run.trigger]}</TableCell>
                <TableCell>
                  <RunStatusBadge status={run.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.considered}</TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.sent}</TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.pending_approval}</TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.suppressed}</TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.skipped}</TableCell>
                <TableCell className="text-right tabular-nums">{run.counts.failed}</TableCell>
                <TableCell className="text-right tabular-nums">{run.config_version}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Pager
        page={page}
        pageSize={RUNS_PAGE_SIZE}
        count={runs.data.count}
        shown={runs.data.results.length}
        onPage={setPage}
      />
    </div>
  );
}

function AgentRuns({ agentId }: { agentId: number }) {
  const agent = useAgent(agentId);
  const [params, setParams] = useSearchParams();
  if (agent.isError && apiErrorStatus(agent.error) === 404)
    return (
      <RunLogPage agentId={agentId} title={AGENT_STRINGS.editor.notFoundTitle}>
        <EmptyState
          icon={FileQuestionIcon}
          title={AGENT_STRINGS.editor.notFoundTitle}
          text={AGENT_STRINGS.editor.notFoundText}
        />
      </RunLogPage>
    );
  if (agent.isPending)
    return (
      <RunLogPage agentId={agentId} title={G.agentTitle('')}>
        <SectionLoading />
      </RunLogPage>
    );
  if (agent.isError)
    return (
      <RunLogPage agentId={agentId} title={G.agentTitle('')}>
        <SectionError error={agent.error} onRetry={() => void agent.refetch()} fallback={G.loadFailed} />
      </RunLogPage>
    );
  const channels = channelsOf(agent.data);
  const asked = params.get('channel') as TAgentChannel | null;
  const channel = asked && (AGENT_CHANNELS as readonly string[]).includes(asked) ? asked : channels[0]!;
  const tabs = [...new Set([...channels, channel])];
  const kind: TRunKind = params.get('kind') === 'preview' ? 'preview' : 'real';
  return (
    <RunLogPage agentId={agentId} title={G.agentTitle(agent.data.name)}>
      <nav aria-label={G.channelTabs} className="flex flex-wrap gap-x-1 border-b">
        {tabs.map((c) => (
          <Link
            key={c}
            to={`?channel=${c}`}
            replace
            aria-current={c === channel ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              setParams({ channel: c }, { replace: true });
            }}
            className={tabClass(c === channel)}
          >
            {AGENT_STRINGS.channels[c]}
          </Link>
        ))}
      </nav>
      <div role="group" aria-label={G.kindLabel} className="flex flex-wrap gap-2">
        {(['real', 'preview'] as const).map((k) => (
          <Button
            key={k}
            size="sm"
            variant={k === kind ? 'secondary' : 'ghost'}
            aria-pressed={k === kind}
            onClick={() => setParams({ channel, ...(k === 'preview' ? { kind: k } : {}) }, { replace: true })}
          >
            {G.kinds[k]}
          </Button>
        ))}
      </div>
      <RunsTable key={`${channel}:${kind}`} agent={agent.data} channel={channel} kind={kind} />
    </RunLogPage>
  );
}

export function AgentRunsRoute() {
  const id = idFrom(useParams().agentId);
  if (id === null)
    return (
      <RunLogPage
        agentId={0}
        title={AGENT_STRINGS.editor.notFoundTitle}
        back={{ to: '/engage/agent', label: AGENT_STRINGS.editor.back }}
      >
        <EmptyState
          icon={FileQuestionIcon}
          title={AGENT_STRINGS.editor.notFoundTitle}
          text={AGENT_STRINGS.editor.notFoundText}
        />
      </RunLogPage>
    );
  return <AgentRuns key={id} agentId={id} />;
}
