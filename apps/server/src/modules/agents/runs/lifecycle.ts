// The AI agents' run loop (engage.md §5). A run is one agent × channel × slot: it pages through the
// audience (lists, narrowed by a segment) in customer-id order and, for each recipient, asks the
// model for a structured decision {send, channel, template_id, variables, subject, body, reason}
// with tools at hand (built-ins and outside tools). Every send — decided, or asked for through a
// send tool — passes the guardrails and is written as a delivery whose idempotency key is
// (agent, channel, customer, slot): planned (auto), pending_approval (review) or dry_run. A page's
// deliveries, steps, tokens and the cursor are written in one transaction; then planned deliveries
// become sends through the channel services (which record before they call the provider, under the
// same idempotency key). A run killed mid-way is taken over when its lease lapses and goes on after
// its last written page: nothing is decided, nor sent, twice.
//
// A run's life (engage.md §5): claimed under a lease, paged through, finished or failed (an agent
// whose runs keep failing is paused), taken over when its worker dies; fired schedule slots
// become runs.
import { AGENT_RUN_ERRORS as RM } from '@titan/contracts';
import type { Queryable } from '../../../db/client';
import { passed, summaries } from './summary';
import { deliverPlanned, messageOf } from '../agents.deliveries';
import * as agentsRepo from '../agents.repository';
import * as repo from '../agents.runs.repository';
import {
  type AgentRunDeps,
  type AgentRunPorts,
  FAILURES_TO_PAUSE,
  MAX_RUN_ATTEMPTS,
  RUN_QUEUE,
} from './deps';
import { type RunContext, RunFailure, type StepDraft, keyOf, prepareRun } from './prompt';
import { audiencePage, decidePage, writePage } from './page';
import { errorStep } from './decide';

/**
 * Runs (or goes on with) a run: claimed for this worker (a lease renewed every page), pages of the
 * audience decided and written, planned deliveries sent, then finished — or failed with the reason
 * in words, the agent paused after repeated failures.
 */
export async function processRun(deps: AgentRunDeps, runId: string): Promise<void> {
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const lease = () => new Date(Date.now() + leaseMs);
  const run = await repo.claimRun(deps.db, runId, new Date(), lease());
  if (!run) return;
  if (run.attempts > MAX_RUN_ATTEMPTS) {
    await failRun(deps, run, `The run was interrupted ${MAX_RUN_ATTEMPTS} times; it gave up.`);
    return;
  }
  const seq = { next: (await repo.maxStepSeq(deps.db, run.id)) + 1 };
  const setup: StepDraft[] = [];
  let ctx: RunContext;
  try {
    if (run.trigger === 'schedule' || run.trigger === 'journey') {
      const agent = await agentsRepo.findAgentById(deps.db, run.agentId);
      if (agent && agent.status !== 'active')
        throw new RunFailure('The agent was no longer active when its run began.');
    }
    ctx = await prepareRun(deps, run, setup, { recordUnavailable: run.cursor === 0 && run.attempts === 1 });
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    await failRun(deps, run, err.message, setup);
    return;
  }
  // A page is written (and its sends made) while the next one is decided: the model's answers and
  // the database's work overlap. Writes stay in page order, each after the one before.
  let pending: Promise<void> = Promise.resolve();
  // The lease is renewed while a page is decided too: a slow model must not let it lapse mid-page
  // (another worker would take the run over and ask the model again).
  const heartbeat = setInterval(
    () => void repo.updateRun(deps.db, run.id, { lockedUntil: lease() }).catch(() => undefined),
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  try {
    ctx.state.planned = passed((await repo.countDeliveries(deps.db, [run.id])).get(run.id) ?? {});
    // A worker that died after writing a page may have left sends to make.
    await deliverPlanned(deps, ctx.run, ctx.channel);
    let cursor = run.cursor;
    let first = true;
    const pageSize = deps.pageSize ?? 100;
    for (;;) {
      const { customers, last } = await audiencePage(ctx, cursor, pageSize);
      if (last === null) break;
      // Recipients a killed attempt already wrote are not asked again.
      const done = await repo.existingKeys(
        deps.db,
        customers.map((c) => keyOf(run, c.id)),
      );
      const todo = customers.filter((c) => !done.has(keyOf(run, c.id)));
      const page = await decidePage(ctx, todo);
      await pending;
      const steps = first ? [...setup, ...page.steps] : page.steps;
      first = false;
      // Called at once: writePage takes the tokens counted so far before anything else runs.
      const written = writePage(
        ctx,
        { deliveries: page.deliveries, steps, cursor: last, considered: page.deliveries.length },
        seq,
        lease(),
      );
      pending = (async () => {
        ctx.run = await written;
        if (run.sendMode === 'auto') await deliverPlanned(deps, ctx.run, ctx.channel);
      })();
      // Awaited before the next write or at the end; until then a failure must not go unhandled.
      pending.catch(() => undefined);
      cursor = last;
      if (ctx.state.stopped) break;
    }
    await pending;
    if (first && setup.length > 0)
      ctx.run = await writePage(
        ctx,
        { deliveries: [], steps: setup, cursor: null, considered: 0 },
        seq,
        null,
      );
    if (ctx.state.stopped)
      await repo.insertSteps(deps.db, [
        {
          runId: run.id,
          businessId: run.businessId,
          seq: seq.next++,
          kind: 'guardrail',
          name: 'max_sends_per_run',
          output: { reason: ctx.state.stopped, stopped: true },
        },
      ]);
    const waiting = await repo.countPending(deps.db, run.id);
    await finishRun(deps, run, {
      status: waiting > 0 ? 'awaiting_approval' : 'completed',
      finishedAt: new Date(),
      lockedUntil: null,
    });
  } catch (err) {
    // The page being written finishes first (or fails too): the run's row is then final.
    await pending.catch(() => undefined);
    if (err instanceof RunFailure) {
      // What was decided before the failure is kept; the run says why it stopped.
      await failRun(deps, ctx.run, err.message);
      return;
    }
    deps.logger.error({ err, run_id: run.id }, 'agent run failed unexpectedly');
    await failRun(deps, ctx.run, `The run stopped on an unexpected error: ${messageOf(err)}`);
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A run's final row, and `agent_run.finished` in the same transaction (the webhooks outbox) for
 * every run but a preview (a preview sends nothing and is nobody's business but the editor's).
 */
async function finishRun(
  deps: Pick<AgentRunDeps, 'db' | 'ports'>,
  run: repo.RunRow,
  values: {
    status: 'completed' | 'awaiting_approval' | 'failed';
    error?: string;
    finishedAt: Date;
    lockedUntil: null;
  },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await repo.updateRun(tx, run.id, values);
    if (row) await recordRunFinished(deps.ports, tx, row, values.finishedAt);
  });
}

/** `agent_run.finished` with the run as the API summarises it, in the caller's transaction. */
async function recordRunFinished(
  ports: AgentRunPorts,
  tx: Queryable,
  row: repo.RunRow,
  at: Date,
): Promise<void> {
  if (row.trigger === 'preview') return;
  const [summary] = await summaries(tx, [row]);
  await ports.recordEvent(tx, {
    businessId: row.businessId,
    type: 'agent_run.finished',
    objectKey: `agent:${row.agentId}`,
    data: { ...summary, run_id: row.id },
    at,
  });
}

/**
 * A run that waited for approval and whose last delivery was just decided: `completed`, and
 * `agent_run.finished` told again (now completed, with the review's outcome) in the same
 * transaction. Nothing when deliveries still wait or another review completed it first.
 */
export async function completeReviewedRun(
  deps: Pick<AgentRunDeps, 'db' | 'ports'>,
  runId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await repo.completeReviewedRun(tx, runId);
    if (row) await recordRunFinished(deps.ports, tx, row, new Date());
  });
}

/** Fails a run with the reason in words; an agent whose last runs all failed is paused, saying why. */
export async function failRun(
  deps: AgentRunDeps,
  run: repo.RunRow,
  error: string,
  steps: StepDraft[] = [],
): Promise<void> {
  const seq = (await repo.maxStepSeq(deps.db, run.id)) + 1;
  await repo.insertSteps(
    deps.db,
    [...steps, errorStep(null, 'run_failed', error)].map((s, i) => ({
      runId: run.id,
      businessId: run.businessId,
      seq: seq + i,
      kind: s.kind,
      name: s.name,
      customerId: s.customer_id,
      input: s.input ?? null,
      output: s.output ?? null,
      durationMs: s.duration_ms,
      tokens: s.tokens,
    })),
  );
  await finishRun(deps, run, {
    status: 'failed',
    error,
    finishedAt: new Date(),
    lockedUntil: null,
  });
  if (run.trigger === 'preview') return;
  const statuses = await repo.latestFinishedStatuses(deps.db, run.agentId, FAILURES_TO_PAUSE);
  if (statuses.length < FAILURES_TO_PAUSE || statuses.some((s) => s !== 'failed')) return;
  const agent = await agentsRepo.findAgentById(deps.db, run.agentId);
  if (agent?.status !== 'active') return;
  await agentsRepo.updateAgent(deps.db, agent.businessId, agent.id, {
    status: 'paused',
    statusReason: RM.pausedAfterFailures(FAILURES_TO_PAUSE),
  });
  deps.logger.warn({ agent_id: agent.id, run_id: run.id }, 'agent paused after repeated failed runs');
}

// ---- Schedules become runs ----

/**
 * Consumes fired schedule slots (claimed with `for update skip locked`): one run per channel of
 * the agent's current config, unique per agent × channel × slot, so consuming twice creates
 * nothing twice. Fires of agents no longer active are consumed without a run. Answers the runs
 * created (their jobs are sent).
 */
export async function consumeFires(deps: AgentRunDeps, now = new Date()): Promise<string[]> {
  const created: string[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const fires = await agentsRepo.claimFires(tx, 50);
      for (const fire of fires) {
        const agent = await agentsRepo.findAgentById(tx, fire.agentId);
        if (agent && agent.status === 'active' && agent.configVersion !== null) {
          const [current] = await agentsRepo.findConfigVersions(tx, agent.businessId, [agent.id], 'current');
          for (const c of current?.config.channels ?? []) {
            const run = await repo.insertRun(tx, {
              agentId: agent.id,
              businessId: agent.businessId,
              channel: c.channel,
              slot: fire.slot,
              trigger: 'schedule',
              configVersion: current!.version,
              sendMode: current!.config.send_mode,
            });
            if (run) created.push(run.id);
          }
        }
        await agentsRepo.markFireConsumed(tx, fire.id, now);
      }
      return fires.length;
    });
    if (batch < 50) break;
  }
  for (const id of created) await deps.jobs.send(RUN_QUEUE, { run_id: id });
  return created;
}

/** Runs whose worker died (their lease lapsed): handed to a worker again. */
export async function resumeStaleRuns(deps: AgentRunDeps, now = new Date()): Promise<number> {
  const stale = await repo.findStaleRuns(deps.db, now, 100);
  for (const run of stale) await deps.jobs.send(RUN_QUEUE, { run_id: run.id }, { singletonKey: run.id });
  return stale.length;
}
