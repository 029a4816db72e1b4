// The runs as the API answers them (engage.md §5): run logs, one run with its steps and deliveries,
// the review queue, run now and the preview.
import {
  AGENT_RUN_MESSAGES as RM,
  LLM_MESSAGES,
  type TAgentChannel,
  type TAgentDelivery,
  type TAgentDeliveryStatus,
  type TAgentRunCounts,
  type TAgentRunSummary,
  type TAgentRunStep,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { findBusinessById } from '../business';
import type { InboxScope } from '../conversations';
import { findCustomersByIds, visibleCustomerIds } from '../directory';
import { resolveLlm } from '../llm';
import { deliverRun, render } from './agents.deliveries';
import {
  audiencePage,
  decidePage,
  DELIVER_QUEUE,
  failRun,
  passed,
  prepareRun,
  RUN_QUEUE,
  RunFailure,
  writePage,
  type AgentRunDeps,
  type RunContext,
  type StepDraft,
} from './agents.runs';
import * as agentsRepo from './agents.repository';
import * as repo from './agents.runs.repository';

// ---- The API ----

async function mustFindAgent(deps: AgentRunDeps, businessId: number, agentId: number) {
  const agent = await agentsRepo.findAgent(deps.db, businessId, agentId);
  if (!agent) throw AppError.notFound('Agent not found.');
  return agent;
}

async function currentConfig(deps: AgentRunDeps, agent: agentsRepo.AgentRow) {
  if (agent.configVersion === null) throw new AppError('conflict', RM.noConfig);
  const [current] = await agentsRepo.findConfigVersions(deps.db, agent.businessId, [agent.id], 'current');
  if (!current) throw new AppError('conflict', RM.noConfig);
  return current;
}

/** 409 saying so when no model is configured: before a run or a preview starts. */
async function requireModel(deps: AgentRunDeps, businessId: number): Promise<void> {
  if (!(await resolveLlm(deps.llm, businessId))) throw new AppError('conflict', LLM_MESSAGES.notConfigured);
}

function countsOf(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunCounts {
  const n = (s: TAgentDeliveryStatus) => byStatus[s] ?? 0;
  return {
    considered: run.counts.considered ?? 0,
    planned: passed(byStatus),
    pending_approval: n('pending_approval'),
    rejected: n('rejected'),
    sent: n('sent'),
    failed: n('failed'),
    suppressed: n('suppressed'),
    skipped: n('skipped'),
    dry_run: n('dry_run'),
  };
}

function toSummary(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunSummary {
  return {
    id: run.id,
    agent_id: run.agentId,
    channel: run.channel,
    status: run.status,
    trigger: run.trigger,
    config_version: run.configVersion,
    send_mode: run.sendMode,
    slot_at: run.slot.toISOString(),
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    counts: countsOf(run, byStatus),
    tokens: run.promptTokens + run.completionTokens,
    prompt_tokens: run.promptTokens,
    completion_tokens: run.completionTokens,
    cost: run.cost,
    error: run.error,
  };
}

async function summaries(db: Db, runs: repo.RunRow[]): Promise<TAgentRunSummary[]> {
  const counts = await repo.countDeliveries(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((r) => toSummary(r, counts.get(r.id) ?? {}));
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

async function toDeliveries(db: Db, businessId: number, rows: repo.DeliveryRow[]): Promise<TAgentDelivery[]> {
  const customers = await findCustomersByIds(db, businessId, [...new Set(rows.map((r) => r.customerId))]);
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

async function mustFindRun(deps: AgentRunDeps, businessId: number, agentId: number, runId: string) {
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
  const visible: repo.CustomerFilter = (customerId) => visibleCustomerIds(scope, customerId);
  const [steps, deliveries, [summary]] = await Promise.all([
    repo.listSteps(deps.db, run.id, visible, query.page_size, offset),
    repo.listDeliveries(deps.db, run.id, { status: query.delivery_status, visible }, query.page_size, offset),
    summaries(deps.db, [run]),
  ]);
  return {
    ...summary!,
    steps: steps.rows.map(toStep),
    steps_count: steps.count,
    deliveries: await toDeliveries(deps.db, businessId, deliveries.rows),
    deliveries_count: deliveries.count,
  };
}

/** Approves or rejects deliveries waiting in a run's review queue; approved ones become sends. */
export async function reviewRun(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  runId: string,
  userId: number | null,
  action: 'approved' | 'rejected',
  body: { delivery_ids?: string[]; all?: true },
) {
  const run = await mustFindRun(deps, businessId, agentId, runId);
  let ids: string[] | 'all' = 'all';
  if (body.delivery_ids) {
    ids = [...new Set(body.delivery_ids)];
    const found = await repo.findDeliveriesOfRun(deps.db, run.id, ids);
    const waiting = new Set(found.filter((d) => d.status === 'pending_approval').map((d) => d.id));
    const wrong = ids.filter((id) => !waiting.has(id));
    if (wrong.length > 0)
      throw AppError.fields({ delivery_ids: [`${RM.unknownDeliveries} (${wrong.join(', ')})`] });
  }
  const updated = await repo.reviewDeliveries(deps.db, run.id, ids, action, userId);
  if (action === 'approved' && updated.length > 0) {
    if (updated.length <= 100) await deliverRun(deps, run.id);
    else await deps.jobs.send(DELIVER_QUEUE, { run_id: run.id });
  }
  if (run.status === 'awaiting_approval' && (await repo.countPending(deps.db, run.id)) === 0)
    await repo.updateRun(deps.db, run.id, { status: 'completed' });
  const [summary] = await summaries(deps.db, [(await repo.findRunById(deps.db, run.id))!]);
  return { updated: updated.length, run: summary! };
}

/** Starts a manual run on each channel (or one): 202 with the runs, which go on in the background. */
export async function runNow(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  userId: number | null,
  body: { channel?: TAgentChannel },
) {
  const agent = await mustFindAgent(deps, businessId, agentId);
  if (agent.status === 'archived') throw new AppError('conflict', RM.archived);
  const current = await currentConfig(deps, agent);
  const channels = current.config.channels.filter((c) => !body.channel || c.channel === body.channel);
  if (channels.length === 0) throw AppError.fields({ channel: [RM.channelNotConfigured] });
  await requireModel(deps, businessId);
  const slot = new Date();
  const runs: repo.RunRow[] = [];
  for (const c of channels) {
    const run =
      (await repo.insertRun(deps.db, {
        agentId,
        businessId,
        channel: c.channel,
        slot,
        trigger: 'manual',
        configVersion: current.version,
        sendMode: current.config.send_mode,
        createdBy: userId,
      })) ?? (await repo.findRunBySlot(deps.db, agentId, c.channel, slot))!;
    runs.push(run);
    await deps.jobs.send(RUN_QUEUE, { run_id: run.id }, { singletonKey: run.id });
  }
  return { runs: await summaries(deps.db, runs) };
}

/** What a delivery would look like to the recipient. */
export async function previewAgent(
  deps: AgentRunDeps,
  businessId: number,
  agentId: number,
  userId: number | null,
  body: { channel?: TAgentChannel; customer_ids?: number[]; sample_size: number },
) {
  const agent = await mustFindAgent(deps, businessId, agentId);
  const current = await currentConfig(deps, agent);
  const channel = body.channel ?? current.config.channels[0]!.channel;
  if (!current.config.channels.some((c) => c.channel === channel))
    throw AppError.fields({ channel: [RM.channelNotConfigured] });
  const named = body.customer_ids
    ? await findCustomersByIds(deps.db, businessId, [...new Set(body.customer_ids)])
    : null;
  if (named && body.customer_ids) {
    const found = new Set(named.map((c) => c.id));
    const unknown = body.customer_ids.filter((id) => !found.has(id));
    if (unknown.length > 0)
      throw AppError.fields({ customer_ids: [`${RM.unknownCustomers} (${unknown.join(', ')})`] });
  }
  await requireModel(deps, businessId);
  const run = (await repo.insertRun(deps.db, {
    agentId,
    businessId,
    channel,
    slot: new Date(),
    trigger: 'preview',
    configVersion: current.version,
    sendMode: 'dry_run',
    createdBy: userId,
    lockedUntil: new Date(Date.now() + 10 * 60_000),
    attempts: 1,
  }))!;
  const setup: StepDraft[] = [];
  let ctx: RunContext;
  try {
    ctx = await prepareRun(deps, run, setup, { recordUnavailable: true });
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    await failRun(deps, run, err.message, setup);
    throw new AppError('conflict', err.message);
  }
  if (named) {
    // Named recipients are the audience's only: the model reads what it is given of them, and an
    // agent is never handed a customer its audience does not hold. In the audience = the run's own
    // paging would reach them.
    const outside: number[] = [];
    for (const c of named)
      if ((await audiencePage(ctx, c.id - 1, 1)).customers[0]?.id !== c.id) outside.push(c.id);
    if (outside.length > 0) {
      const message = `${RM.notInAudience} (${outside.join(', ')})`;
      await failRun(deps, run, message, setup);
      throw AppError.fields({ customer_ids: [message] });
    }
  }
  const customers =
    named ?? (await audiencePage(ctx, 0, body.sample_size)).customers.slice(0, body.sample_size);
  const seq = { next: 1 };
  try {
    const page = await decidePage(ctx, customers);
    ctx.run = await writePage(
      ctx,
      {
        deliveries: page.deliveries,
        steps: [...setup, ...page.steps],
        cursor: null,
        considered: page.deliveries.length,
      },
      seq,
      null,
    );
  } catch (err) {
    // A preview that could not finish says why in its run; it is never left running.
    await failRun(deps, ctx.run, err instanceof Error ? err.message : String(err));
    if (!(err instanceof RunFailure)) throw err;
    throw new AppError('bad_gateway', err.message);
  }
  await repo.updateRun(deps.db, run.id, { status: 'completed', finishedAt: new Date(), lockedUntil: null });
  const { rows } = await repo.listDeliveries(deps.db, run.id, {}, 100, 0);
  const business = await findBusinessById(deps.db, businessId);
  const byId = new Map(customers.map((c) => [c.id, c]));
  const deliveries = await toDeliveries(deps.db, businessId, rows);
  const items = await Promise.all(
    rows.map(async (row, i) => ({
      ...deliveries[i]!,
      rendered: await render(deps, businessId, business?.name ?? '', byId.get(row.customerId), row),
    })),
  );
  const [summary] = await summaries(deps.db, [(await repo.findRunById(deps.db, run.id))!]);
  return { run: summary!, items };
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
