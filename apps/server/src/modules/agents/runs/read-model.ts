// The agent runs as the API reads them (engage.md §5): run logs, one run with its steps and
// deliveries, and the dashboard's counts. Reads only; what starts or decides runs is runs/service.ts.
import {
  AGENT_RUN_ERRORS as RM,
  type TAgentChannel,
  type TAgentDelivery,
  type TAgentDeliveryStatus,
  type TAgentRunStep,
} from '@titan/contracts';
import type { Db } from '../../../db/client';
import { AppError } from '../../../platform/errors';
import type { InboxScope } from '../../../platform/inbox-scope';
import type { AgentRunDeps } from './deps';
import * as agentsRepo from '../agents.repository';
import * as repo from '../agents.runs.repository';
import { summaries } from './summary';

export async function mustFindAgent(deps: AgentRunDeps, businessId: number, agentId: number) {
  const agent = await agentsRepo.findAgent(deps.db, businessId, agentId);
  if (!agent) throw AppError.notFound('Agent not found.');
  return agent;
}

export async function listAgentRuns(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  query: {
    channel?: TAgentChannel;
    status?: repo.RunRow['status'];
    trigger?: repo.RunRow['trigger'];
    kind?: 'real' | 'preview';
    page: number;
    page_size: number;
  },
) {
  await mustFindAgent(deps, businessId, agentId);
  const { rows, count } = await repo.listRuns(
    deps.db,
    businessId,
    agentId,
    query,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: await summaries(deps.db, rows),
  };
}

export async function toDeliveries(
  deps: AgentRunDeps,
  businessId: number,
  rows: repo.DeliveryRow[],
): Promise<TAgentDelivery[]> {
  const customers = await deps.ports.findCustomersByIds(deps.db, businessId, [
    ...new Set(rows.map((r) => r.customerId)),
  ]);
  const byId = new Map(customers.map((c) => [c.id, c]));
  return rows.map((d) => {
    const c = byId.get(d.customerId);
    return {
      id: d.id,
      run_id: d.runId,
      channel: d.channel,
      customer: c ? { id: c.id, name: c.name ?? '', email: c.email, phone: c.phone } : null,
      status: d.status,
      reason: d.reason,
      guardrail: (d.guardrail as TAgentDelivery['guardrail']) ?? null,
      template_id: d.templateId,
      variables: d.variables,
      subject: d.subject,
      body: d.body,
      send_id: d.sendId,
      created_at: d.createdAt.toISOString(),
      updated_at: d.updatedAt.toISOString(),
    };
  });
}

const toStep = (s: repo.StepRow): TAgentRunStep => ({
  seq: s.seq,
  kind: s.kind,
  name: s.name,
  customer_id: s.customerId,
  input: s.input,
  output: s.output,
  duration_ms: s.durationMs,
  tokens: s.tokens,
  created_at: s.createdAt.toISOString(),
});

export async function mustFindRun(deps: AgentRunDeps, businessId: number, agentId: number, runId: string) {
  await mustFindAgent(deps, businessId, agentId);
  const run = await repo.findRun(deps.db, businessId, agentId, runId);
  if (!run) throw AppError.notFound(RM.runNotFound);
  return run;
}

/**
 * One run with a page of its steps and deliveries. Agent-role viewers see the steps and deliveries
 * of the customers the directory shows them (and the run's own steps); the counts stay the run's.
 */
export async function findAgentRun(
  deps: AgentRunDeps,
  scope: InboxScope,
  agentId: number,
  runId: string,
  query: { page: number; page_size: number; delivery_status?: TAgentDeliveryStatus },
) {
  const businessId = scope.businessId;
  const run = await mustFindRun(deps, businessId, agentId, runId);
  const offset = (query.page - 1) * query.page_size;
  const visible: repo.CustomerFilter = (customerId) => deps.ports.visibleCustomerIds(scope, customerId);
  const [steps, deliveries, [summary]] = await Promise.all([
    repo.listSteps(deps.db, run.id, visible, query.page_size, offset),
    repo.listDeliveries(deps.db, run.id, { status: query.delivery_status, visible }, query.page_size, offset),
    summaries(deps.db, [run]),
  ]);
  return {
    ...summary!,
    steps: steps.rows.map(toStep),
    steps_count: steps.count,
    deliveries: await toDeliveries(deps, businessId, deliveries.rows),
    deliveries_count: deliveries.count,
  };
}

/** How many runs (previews aside) started in the range, and how they stand: the dashboard's figures. */
export async function agentRunCounts(
  db: Db,
  businessId: number,
  range: { from: Date; to: Date },
): Promise<{ total: number; completed: number; failed: number; awaiting_approval: number }> {
  const rows = await repo.countRunsByStatus(db, businessId, range);
  const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    completed: of('completed'),
    failed: of('failed'),
    awaiting_approval: of('awaiting_approval'),
  };
}
