// What the API does to agent runs (engage.md §5): the review queue, run now and the preview. Each
// answers with the runs as runs/read-model.ts reads them.
import { AGENT_RUN_ERRORS as RM, LLM_ERRORS, type TAgentChannel } from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import { deliverRun, render } from '../agents.deliveries';
import { audiencePage, decidePage, writePage } from './page';
import { completeReviewedRun, failRun } from './lifecycle';
import { DELIVER_QUEUE, RUN_QUEUE, type AgentRunDeps } from './deps';
import { prepareRun, RunFailure, type RunContext, type StepDraft } from './prompt';
import * as agentsRepo from '../agents.repository';
import * as repo from '../agents.runs.repository';
import { mustFindAgent, mustFindRun, toDeliveries } from './read-model';
import { summaries } from './summary';

async function currentConfig(deps: AgentRunDeps, agent: agentsRepo.AgentRow) {
  if (agent.configVersion === null) throw new AppError('conflict', RM.noConfig);
  const [current] = await agentsRepo.findConfigVersions(deps.db, agent.businessId, [agent.id], 'current');
  if (!current) throw new AppError('conflict', RM.noConfig);
  return current;
}

/** 409 saying so when no model is configured: before a run or a preview starts. */
async function requireModel(deps: AgentRunDeps, businessId: number): Promise<void> {
  if (!(await deps.ports.resolveLlm(deps.llm, businessId)))
    throw new AppError('conflict', LLM_ERRORS.notConfigured);
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
  if (run.status === 'awaiting_approval') await completeReviewedRun(deps, run.id);
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
    ? await deps.ports.findCustomersByIds(deps.db, businessId, [...new Set(body.customer_ids)])
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
  const business = await deps.ports.findBusiness(deps.db, businessId);
  const byId = new Map(customers.map((c) => [c.id, c]));
  const deliveries = await toDeliveries(deps, businessId, rows);
  const items = await Promise.all(
    rows.map(async (row, i) => ({
      ...deliveries[i]!,
      rendered: await render(deps, businessId, business?.name ?? '', byId.get(row.customerId), row),
    })),
  );
  const [summary] = await summaries(deps.db, [(await repo.findRunById(deps.db, run.id))!]);
  return { run: summary!, items };
}
