// /engage/agent/create and /engage/agent/{id}: one screen for creating and editing an agent, with
// its actions (activate, pause, run now, run log, delete), its picture and a preview of what it would
// send. An id that is not an agent of the business shows "Agent not found".
import type { TAgent } from '@titan/contracts';
import { ArrowLeftIcon, FileQuestionIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { useBusinessTimeZone } from '../../../lib/business/business';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { AGENTS_PATH } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useAgent } from '../api/get-agent';
import { AgentActions } from '../components/agent-actions';
import { AgentEditor } from '../components/agent-editor';
import { AvatarField } from '../components/avatar-field';
import { PreviewPanel } from '../components/preview-panel';
import { AGENT_STRINGS } from '../strings';
import { idFrom } from '../utils/ids';
import { PageLayout } from '../../../components/layout/page-layout';

const E = AGENT_STRINGS.editor;

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PageLayout>
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to={AGENTS_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {E.back}
          </Link>
        </Button>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
      {children}
    </PageLayout>
  );
}

function NotFound() {
  return (
    <Page title={E.editTitle}>
      <EmptyState icon={FileQuestionIcon} title={E.notFoundTitle} text={E.notFoundText} />
    </Page>
  );
}

function ExistingAgentEditor({
  agent,
  canWrite,
  timeZone,
}: {
  agent: TAgent;
  canWrite: boolean;
  timeZone: string;
}) {
  return (
    <AgentEditor
      key={agent.id}
      agent={agent}
      canWrite={canWrite}
      defaultTimeZone={timeZone}
      renderActions={(dirty) => (
        <div className="grid gap-4">
          <AgentActions agent={agent} canWrite={canWrite} dirty={dirty} />
          <AvatarField agent={agent} canWrite={canWrite} />
          {agent.config ? <PreviewPanel agent={agent} dirty={dirty} /> : null}
        </div>
      )}
    />
  );
}

function ExistingAgent({ id }: { id: number }) {
  const agent = useAgent(id);
  const { can, ready } = usePermissions();
  // A schedule added to an agent without one starts in the business's time zone too.
  const timeZone = useBusinessTimeZone();
  if (agent.isError && apiErrorStatus(agent.error) === 404) return <NotFound />;
  const canWrite = can('engage.write');
  return (
    <Page title={agent.data?.name ?? E.editTitle}>
      {agent.isPending || !ready || !timeZone ? (
        <SectionLoading />
      ) : agent.isError ? (
        <SectionError error={agent.error} onRetry={() => void agent.refetch()} fallback={E.loadFailed} />
      ) : (
        <>
          {canWrite ? null : <p className="text-sm text-muted-foreground">{E.readOnly}</p>}
          <ExistingAgentEditor agent={agent.data} canWrite={canWrite} timeZone={timeZone} />
        </>
      )}
    </Page>
  );
}

export function NewAgentRoute() {
  const { can, ready } = usePermissions();
  // A new agent's schedule starts in the business's time zone (the browser's if it cannot be read).
  const timeZone = useBusinessTimeZone();
  return (
    <Page title={E.newTitle}>
      {ready && timeZone ? (
        <>
          {can('engage.write') ? (
            <p className="text-sm text-muted-foreground">{E.avatarAfterSave}</p>
          ) : (
            <p className="text-sm text-muted-foreground">{E.readOnly}</p>
          )}
          <AgentEditor agent={null} canWrite={can('engage.write')} defaultTimeZone={timeZone} />
        </>
      ) : (
        <SectionLoading />
      )}
    </Page>
  );
}

export function AgentRoute() {
  const id = idFrom(useParams().id);
  if (id === null) return <NotFound />;
  return <ExistingAgent key={id} id={id} />;
}
